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
# The Node flags are stated in runtime/node-flags.ts (runtime/node-flags.test.ts checks these lines against it):
# every process's here, the API's own on its command, as NODE_OPTIONS refuses that flag.
ENV NODE_OPTIONS=--max-semi-space-size=16
EXPOSE 3000
CMD ["node", "--heap-growing-percent=50", "bin/server.ts"]
