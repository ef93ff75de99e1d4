#!/bin/sh
# Builds the image and checks it from its built file system, because a plain `podman run` fails on this machine
# (crun: setrlimit RLIMIT_NOFILE, then "cgroups in hybrid mode"): the image's root file system is mounted
# (`podman mount`) and its ENTRYPOINT and HEALTHCHECK are run in a chroot as the image's USER with its environment:
#   1. the image's config: a non-root USER, a HEALTHCHECK, no secret-looking variable set at build time;
#   2. `server` on the embedded database in a fresh DATA_DIR, in production mode with the secrets a deployment
#      passes at run time; the HEALTHCHECK command passes once it listens; /readyz, the web app and a locale answer;
#   3. SIGTERM stops it cleanly, and the HEALTHCHECK then fails (a check that cannot fail proves nothing);
#   4. `agent`, `gateway` and `admin` load their bundles with the production dependencies and stop at their
#      missing settings;
#   5. with runc installed, `podman --runtime runc run` for real: podman's own healthcheck, then `podman stop`;
# and prints PASS or FAIL with the reasons. Not part of `npm test` or CI (minutes, and needs root): an operator or a
# release job runs it after scripts/image/build-base.sh.
#
#   sudo scripts/image/check.sh                 # build, then check
#   sudo SKIP_BUILD=1 scripts/image/check.sh    # check the image already built
#
# Settings: SOURCE (the commit to build, HEAD, taken with `git archive`; `worktree` builds the work tree as it is),
# IMAGE (localhost/cellport:latest), BASE_IMAGE (localhost/cellport-base:bookworm), CHECK_PORT (38123),
# NPM_CA_FILE (a CA bundle for a TLS-inspecting registry proxy; default NODE_EXTRA_CA_CERTS), START_TIMEOUT (120 s).
set -eu

IMAGE=${IMAGE:-localhost/cellport:latest}
BASE_IMAGE=${BASE_IMAGE:-localhost/cellport-base:bookworm}
CHECK_PORT=${CHECK_PORT:-38123}
START_TIMEOUT=${START_TIMEOUT:-120}
SOURCE=${SOURCE:-HEAD}
NPM_CA_FILE=${NPM_CA_FILE:-${NODE_EXTRA_CA_CERTS:-}}
root=$(cd "$(dirname "$0")/../.." && pwd)

[ "$(id -u)" = 0 ] || { echo "check.sh: run as root (podman mount and chroot need it)" >&2; exit 1; }

failures=0
pass() { echo "ok   $*"; }
fail() { echo "FAIL $*"; failures=$((failures + 1)); }

if [ "${SKIP_BUILD:-}" != 1 ]; then
  podman image exists "$BASE_IMAGE" || { echo "check.sh: no $BASE_IMAGE: run scripts/image/build-base.sh first" >&2; exit 1; }
  # The image of a commit, not of whatever is half-edited in the work tree (other people's changes included).
  context=$root
  if [ "$SOURCE" != worktree ]; then
    context=$(mktemp -d /tmp/cellport-image-context.XXXXXX)
    git -C "$root" archive --format=tar "$SOURCE" | tar -x -C "$context"
  fi
  set -- --format docker --isolation chroot --build-arg "BASE_IMAGE=$BASE_IMAGE" -t "$IMAGE"
  [ -n "$NPM_CA_FILE" ] && set -- "$@" --secret "id=npm_ca,src=$NPM_CA_FILE"
  if [ "$SOURCE" = worktree ]; then label="the work tree"; else label="$SOURCE = $(git -C "$root" rev-parse --short "$SOURCE")"; fi
  echo "== podman build $* ($label)"
  started=$(date +%s)
  nice -n 10 podman build "$@" "$context" >/tmp/cellport-image-build.log 2>&1 \
    || { tail -n 40 /tmp/cellport-image-build.log; echo "FAIL: the image does not build (log: /tmp/cellport-image-build.log)"; exit 1; }
  echo "   built in $(( $(date +%s) - started )) s (log: /tmp/cellport-image-build.log)"
  [ "$context" = "$root" ] || rm -rf "$context"
fi
echo "== $IMAGE: $(podman image inspect --format '{{.Size}}' "$IMAGE") bytes"

# 1. The image's config.
user=$(podman image inspect --format '{{.Config.User}}' "$IMAGE")
case "$user" in
  ''|root|0|0:*|root:*) fail "USER is '${user:-unset}': the image must not run as root" ;;
  *) pass "USER $user" ;;
esac
health=$(podman image inspect --format '{{if .Config.Healthcheck}}{{range .Config.Healthcheck.Test}}{{.}} {{end}}{{end}}' "$IMAGE")
case "$health" in
  "CMD "*) pass "HEALTHCHECK $health"; health=${health#CMD } ;;
  *) fail "no HEALTHCHECK of the CMD form (got '$health'; was it built with --format docker?)"; health= ;;
esac
entrypoint=$(podman image inspect --format '{{range .Config.Entrypoint}}{{.}} {{end}}' "$IMAGE")
command=$(podman image inspect --format '{{range .Config.Cmd}}{{.}} {{end}}' "$IMAGE")
[ -n "$entrypoint" ] && pass "ENTRYPOINT $entrypoint, CMD $command" || fail "no ENTRYPOINT"
image_env=$(podman image inspect --format '{{range .Config.Env}}{{println .}}{{end}}' "$IMAGE")
secrets=$(printf '%s\n' "$image_env" | cut -d= -f1 | grep -E 'SECRET|TOKEN|PASSWORD|_KEY$|DATABASE_URL' || true)
[ -z "$secrets" ] && pass "no secret set at build time (Env: $(printf '%s\n' "$image_env" | cut -d= -f1 | tr '\n' ' '))" \
  || fail "the image sets $secrets at build time"

# 2–4 run in the image's root file system.
container=$(podman create "$IMAGE")
mnt=$(podman mount "$container")
server_pid=
cleanup() {
  [ -n "$server_pid" ] && kill -KILL "$server_pid" 2>/dev/null || true
  umount "$mnt/proc" 2>/dev/null || true
  umount "$mnt/dev" 2>/dev/null || true
  podman unmount "$container" >/dev/null 2>&1 || true
  podman rm "$container" >/dev/null 2>&1 || true
}
trap cleanup EXIT
mount -t proc proc "$mnt/proc"
mount --bind /dev "$mnt/dev"
log=$(mktemp /tmp/cellport-check-server.XXXXXX.log)

# Runs "$@" with the image's environment only (plus any NAME=value words in front), as a container would.
in_image() {
  env -i $image_env "$@"
}
as_image_user() {
  chroot --userspec="$user:$user" "$mnt" "$@"
}
uid=$(as_image_user id -u)

# The chroot shares this machine's network: the port must be free here.
node -e "require('net').createServer().once('error', () => process.exit(1)).listen($CHECK_PORT, '127.0.0.1', function () { this.close(); })" \
  || { echo "check.sh: port $CHECK_PORT is taken; set CHECK_PORT" >&2; exit 1; }

# 2. The server, as a deployment runs it: production mode, secrets given at run time, a fresh embedded database.
data_dir=$(as_image_user mktemp -d /tmp/cellport-check.XXXXXX)
secret=$(head -c 32 /dev/urandom | od -An -tx1 | tr -d ' \n')
# Production refuses the public sandbox wallet keys: throwaway ones from a seed nobody keeps.
keys=$(as_image_user sh -c 'cd /app/apps/server && node --input-type=module' <"$root/scripts/image/wallet-keys.mjs")
set -- $keys
# Production also refuses to start without a mail transport; nothing is sent during the check, so none need answer.
run_env="DATA_DIR=$data_dir SESSION_SECRET=$secret PUBLIC_URL=https://cellport.example BTC_XPUB=$1 TRON_XPUB=$2 SMTP_URL=smtp://127.0.0.1:2525"
echo "== server: DATA_DIR=$data_dir (embedded database), PORT=$CHECK_PORT, NODE_ENV=production; log $log"
started=$(date +%s)
# Not through in_image: a backgrounded function is a subshell, and $! must be the process that becomes Node.
env -i $image_env $run_env PORT="$CHECK_PORT" HOST=127.0.0.1 chroot --userspec="$user:$user" "$mnt" $entrypoint server >"$log" 2>&1 &
server_pid=$!

healthy=
while [ $(( $(date +%s) - started )) -lt "$START_TIMEOUT" ]; do
  kill -0 "$server_pid" 2>/dev/null || break
  if [ -n "$health" ] && out=$(in_image PORT="$CHECK_PORT" chroot --userspec="$user:$user" "$mnt" $health 2>&1); then
    healthy=$out; break
  fi
  sleep 1
done
if [ -n "$healthy" ]; then
  pass "server healthy after $(( $(date +%s) - started )) s; HEALTHCHECK said: $healthy"
else
  fail "server not healthy within ${START_TIMEOUT} s; HEALTHCHECK said: ${out:-nothing}; server log:"; tail -n 30 "$log"
fi

if [ -n "$healthy" ]; then
  # chroot and the entrypoint exec, so the process started is Node itself, as PID 1 is in a container.
  process=$(ps -o uid=,args= -p "$server_pid" | sed 's/^ *//')
  case "$process" in
    "$uid node "*apps/server/dist/main.js*) pass "the server is PID $server_pid, uid $uid ($user): $process" ;;
    *) fail "the server process is not Node as $user (uid $uid): $process" ;;
  esac
  grep -q '"msg":"Cellport is ready at https://cellport.example (database: embedded in '"$data_dir"')"' "$log" \
    && pass "log: Cellport is ready (database: embedded in $data_dir)" || fail "no ready line in the log"
  grep -q 'migrat' "$log" && pass "log mentions migrations: $(grep -o '"msg":"[^"]*migrat[^"]*"' "$log" | head -n 1)" || true
  for probe in "/readyz 200 ready" "/ 200 <div id=\"root\">" "/locales/en/account.json 200 {"; do
    set -- $probe
    path=$1; want=$2; shift 2; text=$*
    body=$(mktemp); status=$(node -e "
      fetch('http://127.0.0.1:$CHECK_PORT$path').then(async (r) => { require('fs').writeFileSync('$body', await r.text()); console.log(r.status); })
        .catch((e) => { console.log('error ' + e.message); });")
    if [ "$status" = "$want" ] && grep -qF "$text" "$body"; then pass "GET $path → $status"; else fail "GET $path → $status: $(head -c 200 "$body")"; fi
    rm -f "$body"
  done
fi

# 3. SIGTERM: a clean stop, and the HEALTHCHECK notices.
if kill -0 "$server_pid" 2>/dev/null; then
  kill -TERM "$server_pid"
  stopped=$(date +%s)
  code=0; wait "$server_pid" || code=$?
  server_pid=
  [ "$code" = 0 ] && pass "SIGTERM: the server stopped with 0 in $(( $(date +%s) - stopped )) s" \
    || fail "SIGTERM: the server exited with $code"
  if [ -n "$health" ] && out=$(in_image PORT="$CHECK_PORT" chroot --userspec="$user:$user" "$mnt" $health 2>&1); then
    fail "the HEALTHCHECK passes with no server: $out"
  else
    pass "the HEALTHCHECK fails with the server stopped: $out"
  fi
fi

# 4. The other commands load with the production dependencies and stop at what they are missing.
expect_refusal() {
  name=$1; want=$2; shift 2
  code=0; out=$(in_image "$@" chroot --userspec="$user:$user" "$mnt" $entrypoint $name 2>&1) || code=$?
  if [ "$code" != 0 ] && printf '%s' "$out" | grep -q "$want"; then pass "$name without its settings: exit $code, \"$(printf '%s' "$out" | grep -m1 "$want")\""
  else fail "$name: exit $code, expected a refusal naming $want: $(printf '%s' "$out" | tail -n 5)"; fi
}
expect_refusal agent CELLPORT_SERVER_URL
expect_refusal gateway GATEWAY_ID
code=0; out=$(in_image $run_env chroot --userspec="$user:$user" "$mnt" $entrypoint admin hosts 2>&1) || code=$?
[ "$code" = 0 ] && pass "admin hosts on the check's database: $(printf '%s' "$out" | tr '\n' ' ' | head -c 160)" \
  || fail "admin hosts: exit $code: $(printf '%s' "$out" | tail -n 5)"

rm -rf "${mnt:?}$data_dir"

# 5. `podman run`, where it can work. crun fails here twice: podman asks for an RLIMIT_NPROC above this machine's
# hard limit (so the limits are given explicitly), and crun refuses the hybrid cgroup v1/v2 layout (runc does not).
# With runc installed the container runs for real and podman itself runs the HEALTHCHECK and stops it with SIGTERM.
if command -v runc >/dev/null 2>&1; then
  name=cellport-check-$$
  run="podman --runtime runc"
  limits="--ulimit nofile=$(ulimit -Hn):$(ulimit -Hn) --ulimit nproc=1024:1024"
  echo "== podman --runtime runc run $limits --network host $IMAGE (port $CHECK_PORT)"
  started=$(date +%s)
  if $run run -d --name "$name" $limits --network host -e PORT="$CHECK_PORT" -e HOST=127.0.0.1 \
      $(printf ' -e %s' $run_env | sed "s| -e DATA_DIR=[^ ]*||") "$IMAGE" server >/dev/null 2>&1; then
    status=
    while [ $(( $(date +%s) - started )) -lt "$START_TIMEOUT" ]; do
      # No systemd here to run the HEALTHCHECK on its interval: ask podman to run it now.
      $run healthcheck run "$name" >/dev/null 2>&1 && { status=healthy; break; }
      [ "$(podman inspect --format '{{.State.Status}}' "$name")" = running ] || break
      sleep 1
    done
    [ "$status" = healthy ] && pass "podman run: healthy after $(( $(date +%s) - started )) s ($(podman inspect --format '{{.State.Health.Status}}' "$name"))" \
      || { fail "podman run: not healthy: $($run logs "$name" 2>&1 | tail -n 5)"; }
    stopped=$(date +%s)
    $run stop -t 20 "$name" >/dev/null 2>&1 || true
    code=$(podman inspect --format '{{.State.ExitCode}}' "$name")
    [ "$code" = 0 ] && pass "podman stop: exit 0 in $(( $(date +%s) - stopped )) s" || fail "podman stop: exit $code"
    podman rm -f "$name" >/dev/null 2>&1 || true
  else
    fail "podman --runtime runc run failed: $($run run --rm $limits --entrypoint node "$IMAGE" -v 2>&1 | grep -v systemd | tail -n 2)"
  fi
else
  echo "--   podman run not tried: install runc (crun cannot run containers on this machine's cgroup layout)"
fi

if [ "$failures" = 0 ]; then echo "PASS: $IMAGE builds, runs its entrypoint and passes its health check"; exit 0; fi
echo "FAIL: $failures check(s) failed"; exit 1
