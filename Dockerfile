# syntax=docker/dockerfile:1
# Switchyard's image: built in one stage, run from the compiled JavaScript in another, as the
# unprivileged `node` user, with `node` itself as PID 1 (it handles SIGTERM and SIGINT: stops
# taking requests, lets background work finish, closes the database). SWITCHYARD_ROLE picks what
# a container runs (all, api, worker); see docs/operations.md.
# Built and run on Node 24, the newest LTS line the suite runs on (docs/operations.md, Node.js lines).

FROM node:24-bookworm-slim AS build
WORKDIR /app
COPY . .
RUN npm ci --no-audit --no-fund \
 && npm run build \
 && npm prune --omit=dev --no-audit --no-fund

FROM node:24-bookworm-slim
ENV NODE_ENV=production \
    HOST=0.0.0.0 \
    PORT=8080
WORKDIR /app
COPY --from=build --chown=node:node /app /app
USER node
EXPOSE 8080
# /healthz answers 200 while the database answers. A worker serves no HTTP: compose gives it a
# check of its own.
HEALTHCHECK --interval=10s --timeout=3s --start-period=30s --retries=3 \
  CMD ["node", "-e", "fetch('http://127.0.0.1:' + (process.env.PORT || 8080) + '/healthz').then((r) => process.exit(r.ok ? 0 : 1), () => process.exit(1))"]
STOPSIGNAL SIGTERM
CMD ["node", "adapters/app/dist/main.js"]
