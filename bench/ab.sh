#!/usr/bin/env bash
# A/B on the same machine in one sitting: runs a bench against an earlier commit and the current tree, alternating
# (base, current, base, current …), with the current tree's bench script for both, so only the server differs.
#
#   bench/ab.sh <base-commit> <bench file> [rounds]     e.g. bench/ab.sh f3c72c1 buying.mjs 2
#
# The base is checked out as a git worktree in a temporary directory, sharing this tree's node_modules.
set -euo pipefail
base=$1 bench=$2 rounds=${3:-2}
here=$(cd "$(dirname "$0")/.." && pwd)
dir=$(mktemp -d /tmp/cellport-ab.XXXXXX)
trap 'git -C "$here" worktree remove --force "$dir" >/dev/null 2>&1 || true' EXIT
git -C "$here" worktree add -q --detach "$dir" "$base"
# This tree's packages, but the base's own workspaces (@cellport/*), and each workspace's own node_modules.
mkdir "$dir/node_modules"
for entry in "$here"/node_modules/* "$here"/node_modules/.bin; do
  [ "$(basename "$entry")" = @cellport ] || ln -s "$entry" "$dir/node_modules/$(basename "$entry")"
done
mkdir "$dir/node_modules/@cellport"
for ws in "$dir"/packages/* "$dir"/apps/*; do ln -s "$ws" "$dir/node_modules/@cellport/$(basename "$ws")"; done
for ws in "$here"/packages/* "$here"/apps/*; do
  rel=${ws#"$here"/}
  [ -d "$ws/node_modules" ] && [ -d "$dir/$rel" ] && ln -sfn "$ws/node_modules" "$dir/$rel/node_modules"
done
cp "$here/bench/$bench" "$dir/bench/$bench"
mkdir -p "$dir/bench/lib" && cp "$here"/bench/lib/*.mjs "$dir/bench/lib/"
for round in $(seq "$rounds"); do
  for side in base current; do
    tree=$dir; [ "$side" = current ] && tree=$here
    echo "=== $side ($( [ "$side" = base ] && echo "$base" || git -C "$here" rev-parse --short HEAD)), round $round, $(date +%H:%M:%S), load $(cut -d' ' -f1-3 /proc/loadavg)"
    (cd "$tree" && node "bench/$bench")
  done
done
