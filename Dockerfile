# syntax=docker/dockerfile:1-labs
# One image for all five services; SERVICE picks which one runs.
FROM node:20-bookworm-slim AS build
WORKDIR /app
RUN npm install -g pnpm@10.34.9
COPY . .
RUN CI=true pnpm install --frozen-lockfile && pnpm exec turbo run build

# The sandboxes' Debian userland (the worker's AGENTRY_USERLAND), built by mmdebstrap from the same recipe a
# worker builds itself. mmdebstrap mounts /proc in the tree it builds: build with
# `docker buildx build --allow security.insecure .`
FROM build AS userland
RUN apt-get update && apt-get install -y --no-install-recommends mmdebstrap && rm -rf /var/lib/apt/lists/*
RUN --security=insecure AGENTRY_USERLAND_CACHE_DIR=/opt/agentry/cache node apps/worker/dist/userland/userland-cli.js > /tmp/root \
 && mkdir -p /opt/agentry/userland && mv "$(cat /tmp/root)" /opt/agentry/userland/root && rm -rf /opt/agentry/cache

FROM node:20-bookworm-slim
RUN apt-get update && apt-get install -y --no-install-recommends bubblewrap socat && rm -rf /var/lib/apt/lists/*
WORKDIR /app
COPY --from=build /app /app
# Owned by the worker's user (uid 1000, `node`): package layers are hard links into it.
COPY --from=userland --chown=1000:1000 /opt/agentry/userland /opt/agentry/userland
ENV NODE_ENV=production AGENTRY_HOST=0.0.0.0
USER node
CMD ["sh", "-c", "exec node --enable-source-maps --import ./apps/${SERVICE}/dist/instrument.js apps/${SERVICE}/dist/main.js"]
