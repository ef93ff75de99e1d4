# One image for the server, the proxy host agent and the gateway; the command picks which (deploy/entrypoint.sh).
# Build (docs/deploy.md): scripts/image/build-base.sh, then
#   podman build --format docker --isolation chroot -t cellport:latest .
# --format docker keeps the HEALTHCHECK (the OCI image format has no field for it).
# No secret is read or set while building: SESSION_SECRET, DATABASE_URL, keys and tokens come from the environment
# the container runs with.

# A Debian 12 base with Node 20 made from Debian packages by scripts/image/build-base.sh (no public registry here).
ARG BASE_IMAGE=localhost/cellport-base:bookworm

# --- manifests: the workspace's package files alone, so a change in the code alone reuses the dependencies' layers.
FROM ${BASE_IMAGE} AS manifests
WORKDIR /app
COPY package.json package-lock.json ./
COPY packages/shared/package.json packages/shared/
COPY packages/node-common/package.json packages/node-common/
COPY apps/server/package.json apps/server/
COPY apps/agent/package.json apps/agent/
COPY apps/web/package.json apps/web/

# --- build: every dependency, then `npm run build` (web app, server and agent bundles).
# A registry behind a TLS-inspecting proxy needs its CA: pass it as a build secret (`--secret id=npm_ca,src=FILE`,
# scripts/image/check.sh does when NODE_EXTRA_CA_CERTS is set). A secret mount is never stored in a layer.
FROM manifests AS build
RUN --mount=type=secret,id=npm_ca,required=false \
    if [ -s /run/secrets/npm_ca ]; then export NODE_EXTRA_CA_CERTS=/run/secrets/npm_ca; fi \
 && npm ci --no-audit --no-fund
COPY . .
RUN npm run build

# --- deps: production dependencies only, in the same workspace layout the bundles resolve them from. Only the
# server's, the agent's and shared's: the web app's (React…) are inside its Vite bundle already.
FROM manifests AS deps
RUN --mount=type=secret,id=npm_ca,required=false \
    if [ -s /run/secrets/npm_ca ]; then export NODE_EXTRA_CA_CERTS=/run/secrets/npm_ca; fi \
 && npm ci --omit=dev --no-audit --no-fund -w @cellport/server -w @cellport/agent -w @cellport/shared \
 && npm cache clean --force

# --- runtime: the production dependencies, the built dist folders, the shared locales; runs as `cellport`.
# DATA_DIR and AGENT_DATA_DIR exist and belong to cellport, so a fresh named volume mounted there does too.
FROM ${BASE_IMAGE} AS runtime
RUN groupadd --gid 10001 cellport \
 && useradd --uid 10001 --gid cellport --no-create-home --home-dir /var/lib/cellport --shell /usr/sbin/nologin cellport \
 && install -d -o cellport -g cellport -m 0750 /var/lib/cellport /var/lib/cellport/data /var/lib/cellport/agent
WORKDIR /app
COPY --from=deps /app ./
# The server reads the locales through @cellport/shared's package.json at run time; the code itself is bundled.
COPY packages/shared/package.json packages/shared/
COPY packages/shared/locales packages/shared/locales
COPY --from=build /app/apps/server/dist apps/server/dist
COPY --from=build /app/apps/agent/dist apps/agent/dist
COPY --from=build /app/apps/web/dist apps/web/dist
COPY deploy/entrypoint.sh deploy/healthcheck.mjs deploy/
ENV NODE_ENV=production \
    HOST=0.0.0.0 \
    PORT=3000 \
    DATA_DIR=/var/lib/cellport/data \
    AGENT_DATA_DIR=/var/lib/cellport/agent
USER cellport
EXPOSE 3000
# The first start on the embedded database creates and migrates it: a minute on a busy 2-core machine.
HEALTHCHECK --interval=30s --timeout=5s --start-period=120s --retries=3 CMD ["node", "/app/deploy/healthcheck.mjs"]
ENTRYPOINT ["/app/deploy/entrypoint.sh"]
CMD ["server"]
