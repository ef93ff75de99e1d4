#!/bin/sh
# The image's entrypoint: its first argument picks the process, the rest go to it. `exec` replaces this shell with
# Node, so Node itself gets the runtime's SIGTERM and shuts down gracefully (apps/server/src/main.ts).
#   server   the API and web app (default). It migrates the database at start; on PostgreSQL the migrator holds an
#            advisory lock, so instances starting together migrate once.
#   agent    the proxy host agent (apps/agent/README.md: CELLPORT_SERVER_URL, CELLPORT_HOST_KEY, AGENT_DATA_DIR)
#   gateway  the gateway for hosts behind NAT (docs/deploy-gateway.md)
#   admin    the operator CLI, e.g. `admin host-key <host>` (the same as `npm run admin --`)
#   healthcheck  what the image's HEALTHCHECK runs
set -eu
app=/app
command=${1:-server}
[ $# -gt 0 ] && shift

case "$command" in
  server) exec node --enable-source-maps "$app/apps/server/dist/main.js" "$@" ;;
  agent) exec node --enable-source-maps "$app/apps/agent/dist/main.js" "$@" ;;
  gateway) exec node --enable-source-maps "$app/apps/agent/dist/gateway.js" "$@" ;;
  admin) exec node --enable-source-maps "$app/apps/server/dist/admin.js" "$@" ;;
  healthcheck) exec node "$app/deploy/healthcheck.mjs" "$@" ;;
  -h|--help|help)
    echo "usage: server | agent | gateway | admin <command> | healthcheck | <any program in the image>"
    ;;
  *)
    # Anything else runs as given (`sh`, `node -v`) for an operator looking inside.
    if command -v "$command" >/dev/null 2>&1; then exec "$command" "$@"; fi
    echo "entrypoint: unknown command '$command' (server, agent, gateway, admin, healthcheck)" >&2
    exit 64
    ;;
esac
