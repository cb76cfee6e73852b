#!/usr/bin/env bash
# Builds the container image as packline:local (npm run image:build) with podman or docker,
# whichever works here. NODE_IMAGE (default node:24-bookworm-slim) is the base; when it cannot be
# pulled (no registry reachable), a local stand-in is made from Debian packages
# (debootstrap --variant=minbase bookworm) plus the Node 24 that `npm install` put in
# node_modules/node (the registry's `node` package) and this machine's npm, and the build says so. Extra arguments go to `build` (e.g. --no-cache).
#   IMAGE=packline:local NODE_IMAGE=node:24-bookworm-slim npm run image:build
set -euo pipefail
cd "$(dirname "$0")/.."

IMAGE=${IMAGE:-packline:local}
NODE_IMAGE=${NODE_IMAGE:-node:24-bookworm-slim}
STANDIN=${STANDIN_IMAGE:-localhost/packline-node-standin:24-bookworm}
export CONTAINERS_CONF=${CONTAINERS_CONF:-$PWD/deploy/containers.conf}

say() { echo "image-build: $*" >&2; }

engine=${CONTAINER_ENGINE:-}
if [ -z "$engine" ]; then
  if command -v podman >/dev/null 2>&1 && podman info >/dev/null 2>&1; then engine=podman
  elif command -v docker >/dev/null 2>&1 && docker info >/dev/null 2>&1; then engine=docker
  else
    say "neither podman nor docker works here (Debian: apt-get install podman runc)"; exit 1
  fi
fi
say "using $engine"

have_image() { "$engine" image inspect "$1" >/dev/null 2>&1; }

# A Debian bookworm base with Node 24 (node_modules/node, from the npm registry) and this machine's
# npm, imported as $STANDIN.
make_standin() {
  command -v debootstrap >/dev/null 2>&1 || { say "debootstrap is needed to make a stand-in base (apt-get install debootstrap)"; exit 1; }
  local node_bin node_major npm_dir root
  node_bin=$(readlink -f node_modules/node/bin/node 2>/dev/null || true)
  [ -x "$node_bin" ] || { say "node_modules/node/bin/node is missing: run npm install first"; exit 1; }
  node_major=$("$node_bin" -p 'process.versions.node.split(".")[0]')
  [ "$node_major" = 24 ] || { say "node_modules/node is Node $("$node_bin" -v), not 24: cannot make a Node 24 stand-in"; exit 1; }
  npm_dir=$(dirname "$(dirname "$(readlink -f "$(command -v npm)")")")
  root=$(mktemp -d /var/tmp/packline-standin.XXXXXX)
  trap 'rm -rf "$root"' RETURN
  say "making $STANDIN: debootstrap --variant=minbase bookworm, node $("$node_bin" -v) and npm $(npm -v) from this machine"
  debootstrap --variant=minbase --include=ca-certificates,libstdc++6 bookworm "$root" "${DEBIAN_MIRROR:-http://deb.debian.org/debian}" >/tmp/packline-debootstrap.log 2>&1 \
    || { say "debootstrap failed (log: /tmp/packline-debootstrap.log)"; exit 1; }
  install -m 0755 "$node_bin" "$root/usr/local/bin/node"
  mkdir -p "$root/usr/local/lib/node_modules"
  cp -a "$npm_dir" "$root/usr/local/lib/node_modules/npm"
  ln -sf ../lib/node_modules/npm/bin/npm-cli.js "$root/usr/local/bin/npm"
  ln -sf ../lib/node_modules/npm/bin/npx-cli.js "$root/usr/local/bin/npx"
  rm -rf "$root/var/cache/apt/archives/"*.deb "$root/var/lib/apt/lists/"*
  tar -C "$root" -c . | "$engine" import \
    --change 'ENV PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin' \
    --change 'CMD ["node"]' - "$STANDIN" >/dev/null
  "$root/usr/local/bin/node" -v >/dev/null
}

base=$NODE_IMAGE
if have_image "$NODE_IMAGE"; then
  say "base $NODE_IMAGE (already present)"
elif timeout 60 "$engine" pull -q "$NODE_IMAGE" >/dev/null 2>&1; then
  say "base $NODE_IMAGE (pulled)"
else
  base=$STANDIN
  if have_image "$STANDIN"; then
    say "$NODE_IMAGE cannot be pulled here; using the local stand-in $STANDIN made earlier (Debian bookworm minbase + Node 24 from the npm registry)"
  else
    say "$NODE_IMAGE cannot be pulled here; building a local stand-in instead"
    make_standin
  fi
fi

format=()
[ "$engine" = podman ] && format=(--format docker) # keeps HEALTHCHECK (OCI images have none)
# The host's CA bundle, for builds behind a TLS-inspecting proxy (a build secret: in no layer).
ca=()
host_ca=${BUILD_CA_FILE:-/etc/ssl/certs/ca-certificates.crt}
[ -s "$host_ca" ] && ca=(--secret "id=build_ca,src=$host_ca")
network=()
[ "$engine" = podman ] && network=(--network host)  # npm ci reaches the registry as the host does
"$engine" build "${format[@]}" "${network[@]}" "${ca[@]}" --build-arg "NODE_IMAGE=$base" -t "$IMAGE" "$@" .
say "built $IMAGE on $base"
