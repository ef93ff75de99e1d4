#!/bin/sh
# Builds the image's base from Debian packages only, because no public container registry is reachable here:
# debootstrap a minimal Debian 12 root filesystem, add Node.js 20, then `podman import` it. The Dockerfile starts
# FROM this image.
#
#   sudo scripts/image/build-base.sh            # → localhost/cellport-base:bookworm
#
# Node: Debian 12's own nodejs is 18 and the product needs >= 20.19. This machine's node is NodeSource's deb
# (nodejs 20.x-1nodesource1), but its apt source is switched off and deb.nodesource.com does not resolve here, so the
# base gets a copy of this machine's node binary (checked against the deb's md5sums when dpkg owns it) and npm.
# The binary needs only glibc, libstdc++ and libgcc, which the Debian base has.
#
# Settings (environment): BASE_IMAGE (the name to import as), DEBIAN_MIRROR (default deb.debian.org),
# NODE_BIN (default: the node on PATH), NPM_DIR (default: the npm package beside it),
# WORK_DIR (where the root filesystem is assembled; removed afterwards).
set -eu

BASE_IMAGE=${BASE_IMAGE:-localhost/cellport-base:bookworm}
SUITE=bookworm
DEBIAN_MIRROR=${DEBIAN_MIRROR:-http://deb.debian.org/debian}
NODE_BIN=$(readlink -f "${NODE_BIN:-$(command -v node)}")
NPM_DIR=${NPM_DIR:-$(dirname "$(dirname "$(readlink -f "$(command -v npm)")")")}
WORK_DIR=${WORK_DIR:-/var/tmp/cellport-base}
ROOTFS=$WORK_DIR/rootfs

[ "$(id -u)" = 0 ] || { echo "build-base.sh: run as root (debootstrap and chroot need it)" >&2; exit 1; }
for tool in debootstrap podman; do
  command -v "$tool" >/dev/null || { echo "build-base.sh: $tool is missing (apt-get install -y $tool)" >&2; exit 1; }
done
case "$("$NODE_BIN" --version)" in
  v2[0-9].*) ;;
  *) echo "build-base.sh: $NODE_BIN is Node $("$NODE_BIN" --version); the image needs 20+ (set NODE_BIN)" >&2; exit 1 ;;
esac
[ -f "$NPM_DIR/bin/npm-cli.js" ] || { echo "build-base.sh: no npm in $NPM_DIR (set NPM_DIR)" >&2; exit 1; }
# A node binary that dpkg installed must still be the packaged one: no hand-patched binary goes into an image.
node_pkg=$(dpkg -S "$NODE_BIN" 2>/dev/null | cut -d: -f1 || true)
if [ -n "$node_pkg" ] && dpkg --verify "$node_pkg" | grep -q " $NODE_BIN\$"; then
  echo "build-base.sh: $NODE_BIN differs from the $node_pkg package's md5sums" >&2; exit 1
fi

cleanup() {
  # /proc is mounted only while packages install; never leave it mounted under a directory about to be removed.
  if mountpoint -q "$ROOTFS/proc" 2>/dev/null; then umount "$ROOTFS/proc"; fi
  rm -rf "$WORK_DIR"
}
trap cleanup EXIT
cleanup
mkdir -p "$WORK_DIR"

started=$(date +%s)
echo "== debootstrap $SUITE (minbase) from $DEBIAN_MIRROR"
debootstrap --variant=minbase --include=ca-certificates "$SUITE" "$ROOTFS" "$DEBIAN_MIRROR" >"$WORK_DIR.debootstrap.log" 2>&1 \
  || { tail -n 30 "$WORK_DIR.debootstrap.log" >&2; exit 1; }

# Security and point-release updates too, so a rebuilt base carries Debian's fixes.
cat >"$ROOTFS/etc/apt/sources.list.d/debian.sources" <<SOURCES
Types: deb
URIs: $DEBIAN_MIRROR
Suites: $SUITE $SUITE-updates
Components: main
Signed-By: /usr/share/keyrings/debian-archive-keyring.gpg

Types: deb
URIs: http://deb.debian.org/debian-security
Suites: $SUITE-security
Components: main
Signed-By: /usr/share/keyrings/debian-archive-keyring.gpg
SOURCES
rm -f "$ROOTFS/etc/apt/sources.list"
cp /etc/resolv.conf "$ROOTFS/etc/resolv.conf"

echo "== Debian updates"
mount -t proc proc "$ROOTFS/proc"
chroot "$ROOTFS" /bin/sh -eu <<'INSIDE'
export DEBIAN_FRONTEND=noninteractive
apt-get update -q
apt-get -y -q upgrade
apt-get clean
rm -rf /var/lib/apt/lists/* /var/cache/apt/*.bin /usr/share/doc/* /usr/share/man/* /usr/share/info/*
INSIDE
umount "$ROOTFS/proc"

echo "== Node $("$NODE_BIN" --version) from $NODE_BIN${node_pkg:+ (package $node_pkg)}, npm from $NPM_DIR"
install -m 0755 "$NODE_BIN" "$ROOTFS/usr/bin/node"
mkdir -p "$ROOTFS/usr/lib/node_modules"
cp -a "$NPM_DIR" "$ROOTFS/usr/lib/node_modules/npm"
ln -sf ../lib/node_modules/npm/bin/npm-cli.js "$ROOTFS/usr/bin/npm"
ln -sf ../lib/node_modules/npm/bin/npx-cli.js "$ROOTFS/usr/bin/npx"
# The image gets its resolver from whoever runs it; do not bake this machine's in.
: >"$ROOTFS/etc/resolv.conf"

# Proves the copied binary finds its libraries inside the base, not on this machine.
node_version=$(chroot "$ROOTFS" node --version)
npm_version=$(chroot "$ROOTFS" npm --version)

echo "== podman import as $BASE_IMAGE"
tar -C "$ROOTFS" --numeric-owner -c . | podman import \
  --change 'ENV PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin' \
  --change 'ENV LANG=C.UTF-8' \
  --change 'CMD ["/bin/sh"]' \
  - "$BASE_IMAGE" >/dev/null
echo "== $BASE_IMAGE: node $node_version, npm $npm_version, $(podman image inspect --format '{{.Size}}' "$BASE_IMAGE") bytes, $(( $(date +%s) - started )) s"
