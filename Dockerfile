# syntax=docker/dockerfile:1
# Packline's container image. Build: `npm run image:build` (tags packline:local), or
#   podman build --format docker -t packline:local .   (docker build -t packline:local .)
# The base image is any Debian-based image with Node 24 in /usr/local/bin or /usr/bin.
ARG NODE_IMAGE=node:24-bookworm-slim

# Production dependencies only: devDependencies (vitest, playwright, codegen...) stay out.
FROM ${NODE_IMAGE} AS deps
WORKDIR /app
COPY package.json package-lock.json ./
# A build behind a TLS-inspecting proxy passes its CA bundle as the `build_ca` secret
# (scripts/image-build.sh does when the host has one); it stays out of every layer.
RUN --mount=type=secret,id=build_ca,required=false \
    if [ -s /run/secrets/build_ca ]; then export npm_config_cafile=/run/secrets/build_ca; fi; \
    npm ci --omit=dev --no-audit --no-fund && npm cache clean --force

FROM ${NODE_IMAGE} AS runtime
WORKDIR /app
# A fixed, unprivileged user; /data is its volume (SQLite database, development secrets, demo key).
RUN groupadd --system --gid 10001 packline \
 && useradd --system --uid 10001 --gid packline --home-dir /data --no-create-home --shell /usr/sbin/nologin packline \
 && mkdir -p /data \
 && chown packline:packline /data
COPY --from=deps /app/node_modules ./node_modules
COPY package.json package-lock.json tsconfig.json ./
COPY bin ./bin
COPY core ./core
COPY facades ./facades
COPY schema ./schema
COPY workers ./workers
COPY consumer-kit ./consumer-kit
RUN ln -s /app/bin/packline.js /usr/local/bin/packline && chmod 0755 /app/bin/packline.js
ENV NODE_ENV=production \
    HOST=0.0.0.0 \
    PORT=8080 \
    DATA_DIR=/data
USER packline
VOLUME /data
EXPOSE 8080
# node, not curl: the slim base has no HTTP client. PORT may be overridden at run time.
HEALTHCHECK --interval=10s --timeout=3s --start-period=30s --retries=3 \
  CMD ["node", "-e", "fetch('http://127.0.0.1:'+(process.env.PORT||8080)+'/readyz').then(r=>process.exit(r.ok?0:1),()=>process.exit(1))"]
# The process handles SIGTERM itself (graceful shutdown within SHUTDOWN_GRACE_SECONDS).
STOPSIGNAL SIGTERM
ENTRYPOINT ["packline", "start"]
