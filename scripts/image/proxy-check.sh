#!/bin/sh
# Checks compose.yaml's shape without a container runtime that can run it here: two server instances from the
# built image (chroot into its file system, as check.sh does) on one PostgreSQL database, behind Caddy with
# deploy/Caddyfile (its upstreams and site address rewritten to this machine's loopback ports, TLS off):
#   1. both instances start at the same moment on an empty database (migrations at start, under the migrator's lock);
#   2. socket.io long-polling sessions through the proxy work with its sticky cookie, and fail without it (which is
#      why the cookie is there);
#   3. a rolling restart (SIGTERM one instance, start it again, then the other) loses no request through the proxy.
# Prints PASS or FAIL. Needs root, caddy (apt-get install caddy), psql and a PostgreSQL it may create a database in.
#
#   sudo scripts/image/proxy-check.sh
#
# Settings: IMAGE, PG_URL (postgres://postgres@127.0.0.1:5432; a database cellport_proxy_check_<pid> is created and
# dropped), PORTS ("38131 38132 38130": the two instances and the proxy), START_TIMEOUT (90 s).
set -eu

IMAGE=${IMAGE:-localhost/cellport:latest}
PG_URL=${PG_URL:-postgres://postgres@127.0.0.1:5432}
PORTS=${PORTS:-38131 38132 38130}
START_TIMEOUT=${START_TIMEOUT:-90}
root=$(cd "$(dirname "$0")/../.." && pwd)
set -- $PORTS
port1=$1; port2=$2; proxy_port=$3
database=cellport_proxy_check_$$
work=$(mktemp -d /tmp/cellport-proxy-check.XXXXXX)

[ "$(id -u)" = 0 ] || { echo "proxy-check.sh: run as root (podman mount and chroot need it)" >&2; exit 1; }
for tool in caddy psql podman; do
  command -v "$tool" >/dev/null || { echo "proxy-check.sh: $tool is missing" >&2; exit 1; }
done

failures=0
pass() { echo "ok   $*"; }
fail() { echo "FAIL $*"; failures=$((failures + 1)); }

container=$(podman create "$IMAGE")
mnt=$(podman mount "$container")
pid1= pid2= caddy_pid= watch_pid=
cleanup() {
  for pid in $watch_pid $caddy_pid $pid1 $pid2; do kill -TERM "$pid" 2>/dev/null || true; done
  sleep 1
  for pid in $watch_pid $caddy_pid $pid1 $pid2; do kill -KILL "$pid" 2>/dev/null || true; done
  umount "$mnt/proc" 2>/dev/null || true
  umount "$mnt/dev" 2>/dev/null || true
  podman unmount "$container" >/dev/null 2>&1 || true
  podman rm "$container" >/dev/null 2>&1 || true
  psql "$PG_URL/postgres" -qc "drop database if exists $database with (force)" >/dev/null 2>&1 || true
  [ "$failures" = 0 ] && rm -rf "$work" || echo "logs kept in $work"
}
trap cleanup EXIT
mount -t proc proc "$mnt/proc"
mount --bind /dev "$mnt/dev"

user=$(podman image inspect --format '{{.Config.User}}' "$IMAGE")
image_env=$(podman image inspect --format '{{range .Config.Env}}{{println .}}{{end}}' "$IMAGE")
entrypoint=$(podman image inspect --format '{{range .Config.Entrypoint}}{{.}} {{end}}' "$IMAGE")
health=$(podman image inspect --format '{{range .Config.Healthcheck.Test}}{{.}} {{end}}' "$IMAGE"); health=${health#CMD }
keys=$(chroot --userspec="$user:$user" "$mnt" sh -c 'cd /app/apps/server && node --input-type=module' <"$root/scripts/image/wallet-keys.mjs")
set -- $keys
secret=$(head -c 32 /dev/urandom | od -An -tx1 | tr -d ' \n')
# What compose.yaml gives both instances: one database, one SESSION_SECRET.
run_env="DATABASE_URL=$PG_URL/$database SESSION_SECRET=$secret PUBLIC_URL=https://cellport.example BTC_XPUB=$1 TRON_XPUB=$2 HOST=127.0.0.1"
psql "$PG_URL/postgres" -qc "create database $database" >/dev/null

# start_server N PORT: sets pidN to the PID of Node (chroot and the entrypoint exec). Not run in $(…): the process
# must be this shell's child for `wait` to see its exit code.
start_server() {
  env -i $image_env $run_env PORT="$2" chroot --userspec="$user:$user" "$mnt" $entrypoint server >>"$work/server-$1.log" 2>&1 &
  eval "pid$1=$!"
}
healthy() { env -i $image_env PORT="$1" chroot --userspec="$user:$user" "$mnt" $health >/dev/null 2>&1; }
wait_healthy() {
  started=$(date +%s)
  while [ $(( $(date +%s) - started )) -lt "$START_TIMEOUT" ]; do
    healthy "$1" && { echo $(( $(date +%s) - started )); return 0; }
    sleep 1
  done
  return 1
}

# 1. Two instances at once on an empty database.
echo "== two instances on $PG_URL/$database (empty), ports $port1 and $port2; logs in $work"
start_server 1 "$port1"
start_server 2 "$port2"
if s1=$(wait_healthy "$port1") && s2=$(wait_healthy "$port2"); then
  migrations=$(psql "$PG_URL/$database" -Atc 'select count(*) from kysely_migration')
  pass "both started at once and are healthy (${s1} s, then ${s2} s more); $migrations migrations applied"
else
  fail "an instance did not become healthy:"; tail -n 5 "$work/server-1.log" "$work/server-2.log"; exit 1
fi

# The Caddyfile compose.yaml mounts, pointed at these instances, on plain HTTP.
sed -e "s|{\$CELLPORT_DOMAIN}|http://127.0.0.1:$proxy_port|" -e "s|server-1:3000 server-2:3000|127.0.0.1:$port1 127.0.0.1:$port2|" \
  "$root/deploy/Caddyfile" >"$work/Caddyfile"
printf '{\n\tadmin off\n}\n' | cat - "$work/Caddyfile" >"$work/Caddyfile.run"
grep -q "127.0.0.1:$port1 127.0.0.1:$port2" "$work/Caddyfile.run" || { echo "proxy-check.sh: deploy/Caddyfile's upstream line changed" >&2; exit 1; }
HOME=$work XDG_DATA_HOME=$work XDG_CONFIG_HOME=$work caddy run --config "$work/Caddyfile.run" --adapter caddyfile >"$work/caddy.log" 2>&1 &
caddy_pid=$!
base=http://127.0.0.1:$proxy_port
for _ in $(seq 1 30); do
  [ "$(node -e "fetch('$base/readyz').then(r=>console.log(r.status),()=>console.log(0))")" = 200 ] && break
  sleep 1
done

# 2. Sticky sessions for socket.io's long-polling.
result=$(node "$root/scripts/image/proxy-probe.mjs" sticky "$base" 20)
with=$(printf '%s' "$result" | node -e 'let s="";process.stdin.on("data",d=>s+=d).on("end",()=>console.log(JSON.parse(s).withCookie.ok??0))')
without=$(printf '%s' "$result" | node -e 'let s="";process.stdin.on("data",d=>s+=d).on("end",()=>console.log(JSON.parse(s).withoutCookie.ok??0))')
[ "$with" = 20 ] && pass "20 long-polling sessions through the proxy with its cookie: all ok" \
  || fail "long-polling with the proxy's cookie: $result"
[ "$without" -lt 20 ] && pass "without the cookie $((20 - without)) of 20 sessions broke (Session ID unknown on the other instance): $result" \
  || fail "without the cookie every session worked: this probe cannot show what the cookie does: $result"

# 3. A rolling restart, one instance at a time, while requests go through the proxy.
node "$root/scripts/image/proxy-probe.mjs" watch "$base" "$work/stop" >"$work/watch.json" &
watch_pid=$!
for n in 1 2; do
  eval "pid=\$pid$n; port=\$port$n"
  kill -TERM "$pid"; code=0; wait "$pid" || code=$?
  [ "$code" = 0 ] || fail "instance $n exited with $code on SIGTERM"
  start_server "$n" "$port"
  if s=$(wait_healthy "$port"); then pass "instance $n stopped with SIGTERM and was back in $s s"; else fail "instance $n did not come back"; fi
  sleep 7 # the proxy's active health check (every 5 s) puts it back in the pool
done
touch "$work/stop"; wait "$watch_pid" || true; watch_pid=
counts=$(cat "$work/watch.json")
case "$counts" in
  '{"200":'*'}') [ "$(printf '%s' "$counts" | tr -cd ',')" = "" ] && pass "rolling restart: every request through the proxy answered 200: $counts" \
    || fail "rolling restart: requests through the proxy failed: $counts" ;;
  *) fail "rolling restart: requests through the proxy failed: $counts" ;;
esac

if [ "$failures" = 0 ]; then echo "PASS: two instances behind deploy/Caddyfile: migrations at start, sticky long-polling, rolling restart"; exit 0; fi
echo "FAIL: $failures check(s) failed"; exit 1
