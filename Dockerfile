# Production image: one image, two roles (API and workers), chosen by the command.
FROM node:24-bookworm-slim
WORKDIR /app
ENV NODE_ENV=production
COPY package.json package-lock.json .npmrc ./
RUN npm ci --no-audit --no-fund
COPY . .
RUN npm run build:web --if-present
EXPOSE 3000
CMD ["node", "bin/server.ts"]
