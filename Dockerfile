# Production image: one image, two roles (API and workers), chosen by the command; the
# migration is a third, one-shot use (docker-compose.yml). NODE_ENV=production turns on
# production mode: the process refuses to start on unsafe defaults (platform/production.ts).
FROM node:24-bookworm-slim
WORKDIR /app
COPY package.json package-lock.json .npmrc ./
# The web app's build tools are devDependencies: install them, build, then drop them.
RUN npm ci --include=dev --no-audit --no-fund
COPY . .
RUN npm run build:web && npm prune --omit=dev
# Run as the image's unprivileged user, which may write only the data directory.
RUN mkdir -p var && chown node:node var
USER node
ENV NODE_ENV=production
# V8 young generation capped at 3 x 16 MiB (Node sizes it from the host's memory): see reliability/processes.ts NODE_FLAGS.
ENV NODE_OPTIONS=--max-semi-space-size=16
EXPOSE 3000
# The API's old generation grows 1.5x between full collections (reliability/processes.ts
# API_NODE_FLAGS); NODE_OPTIONS refuses that flag, so the API's commands carry it.
CMD ["node", "--heap-growing-percent=50", "bin/server.ts"]
