#!/usr/bin/env bash
# The container image end to end (`npm run image:test`; .ci/run runs it after the suites):
# builds packline:local (scripts/image-build.sh), starts it on a fresh volume, and checks
# /readyz and the image's HEALTHCHECK, a call with the demo key, that the process runs as a
# non-root user, that SIGTERM stops it with exit code 0, and that data written through the CLI
# survives a new container on the same volume. Needs podman (or docker) and curl.
set -euo pipefail
cd "$(dirname "$0")/.."
export CONTAINERS_CONF=${CONTAINERS_CONF:-$PWD/deploy/containers.conf}
started=$(date +%s)
say() { echo "image-test: $*" >&2; }
fail() { say "FAILED: $*"; exit 1; }

engine=${CONTAINER_ENGINE:-}
if [ -z "$engine" ]; then
  if command -v podman >/dev/null 2>&1 && podman info >/dev/null 2>&1; then engine=podman
  elif command -v docker >/dev/null 2>&1 && docker info >/dev/null 2>&1; then engine=docker
  else fail "neither podman nor docker works here"; fi
fi
export CONTAINER_ENGINE=$engine
IMAGE=${IMAGE:-packline:local}
export IMAGE

bash scripts/image-build.sh >&2

run_id="packline-image-test-$$"
volume="$run_id-data"
token="image-test-internal-token-$(od -An -N8 -tx1 /dev/urandom | tr -d ' \n')"
encryption_key=$(head -c 32 /dev/urandom | base64)
port=$(node -e "const s=require('net').createServer().listen(0,'127.0.0.1',()=>{console.log(s.address().port);s.close()})")
origin="http://127.0.0.1:$port"
container=""

cleanup() {
  [ -n "$container" ] && "$engine" rm -f "$container" >/dev/null 2>&1 || true
  "$engine" volume rm -f "$volume" >/dev/null 2>&1 || true
}
trap cleanup EXIT

start_container() {
  container="$run_id-$1"
  # Podman without systemd cannot schedule the HEALTHCHECK timer (it says so); it is run by hand below.
  "$engine" run -d --name "$container" -p "127.0.0.1:$port:8080" -v "$volume:/data" \
    -e INTERNAL_API_TOKEN="$token" -e DATA_ENCRYPTION_KEY="$encryption_key" "$IMAGE" >/dev/null 2>/tmp/$run_id.run.log \
    || { cat /tmp/$run_id.run.log >&2; fail "could not start the container"; }
  local deadline=$(( $(date +%s) + 90 ))
  until [ "$(curl -s -o /dev/null -w '%{http_code}' -m 2 "$origin/readyz")" = 200 ]; do
    if [ "$(date +%s)" -gt "$deadline" ] || [ "$("$engine" inspect -f '{{.State.Running}}' "$container")" != true ]; then
      "$engine" logs "$container" >&2 || true
      fail "/readyz did not answer 200 within 90 s"
    fi
    sleep 0.5
  done
  say "$container ready: $(curl -s -m 2 "$origin/readyz")"
}

start_container first
# The image's own HEALTHCHECK command, run in the container.
if [ "$engine" = podman ]; then
  podman healthcheck run "$container" 2>/dev/null || fail "the HEALTHCHECK failed"
else
  docker exec "$container" node -e "fetch('http://127.0.0.1:8080/readyz').then(r=>process.exit(r.ok?0:1),()=>process.exit(1))" || fail "the health check command failed"
fi
say "HEALTHCHECK passes"

uid=$("$engine" exec "$container" sh -c 'awk "/^Uid:/ {print \$2}" /proc/1/status')
[ "$uid" != 0 ] || fail "the server (PID 1) runs as root"
say "the server runs as uid $uid ($("$engine" exec "$container" id -un))"

key=$("$engine" exec "$container" cat /data/demo-api-key)
status=$(curl -s -o /tmp/$run_id.body -w '%{http_code}' -m 5 -H "Authorization: Bearer $key" "$origin/api/v1/organization")
[ "$status" = 200 ] && grep -q '"id":"atelier-nord"' /tmp/$run_id.body || fail "the demo key call answered $status: $(head -c 300 /tmp/$run_id.body)"
say "demo key call: 200, organization atelier-nord"
# Pages and documents served from files and packages in the image.
for path in /api/v1/openapi.json /api/v1/docs /account/login; do
  status=$(curl -s -o /dev/null -w '%{http_code}' -m 5 "$origin$path")
  [ "$status" = 200 ] || fail "GET $path answered $status"
done
say "the OpenAPI document, the API reference and the sign-in page answer 200"

"$engine" exec "$container" packline orgs create --id image-test-co --name "Image Test" --plan base --json >/dev/null || fail "packline orgs create in the container failed"
"$engine" stop -t 30 "$container" >/dev/null 2>&1
code=$("$engine" inspect -f '{{.State.ExitCode}}' "$container")
[ "$code" = 0 ] || { "$engine" logs "$container" >&2; fail "SIGTERM: exit code $code, not 0"; }
say "SIGTERM: graceful stop, exit code 0"
"$engine" rm -f "$container" >/dev/null

start_container second
"$engine" exec "$container" packline orgs show image-test-co --json | grep -q '"id": "image-test-co"' || fail "the organization written before did not survive on the volume"
status=$(curl -s -o /dev/null -w '%{http_code}' -m 5 -H "Authorization: Bearer $key" "$origin/api/v1/organization")
[ "$status" = 200 ] || fail "the demo key answered $status after the restart"
say "a new container on the same volume has the data (image-test-co, the demo key)"
rm -f /tmp/$run_id.body /tmp/$run_id.run.log
say "passed in $(( $(date +%s) - started )) s"
