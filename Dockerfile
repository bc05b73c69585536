# One image for all five services; SERVICE picks which one runs.
FROM node:20-bookworm-slim AS build
WORKDIR /app
RUN npm install -g pnpm@10.34.9
COPY . .
RUN CI=true pnpm install --frozen-lockfile && pnpm exec turbo run build

FROM node:20-bookworm-slim
RUN apt-get update && apt-get install -y --no-install-recommends bubblewrap socat && rm -rf /var/lib/apt/lists/*
WORKDIR /app
COPY --from=build /app /app
ENV NODE_ENV=production AGENTRY_HOST=0.0.0.0
USER node
CMD ["sh", "-c", "exec node --enable-source-maps --import ./apps/${SERVICE}/dist/instrument.js apps/${SERVICE}/dist/main.js"]
