#!/usr/bin/env bash
# Runs compose.yaml whole (`npm run compose:smoke`): builds packline:local, starts the deployment
# with a generated .env in a temporary project directory, and checks that both API processes are
# ready and answer a key created with the CLI inside one of them, that the dispatcher is ready,
# and that every health check passes; then removes it all (containers, network, volume).
# Uses podman-compose (or `docker compose`). When postgres:16-bookworm or redis:7-bookworm cannot
# be pulled, stand-ins are built from Debian packages (deploy/standins/) and used instead, and the
# run says so. Needs ports 8081 and 8082 free.
set -euo pipefail
cd "$(dirname "$0")/.."
export CONTAINERS_CONF=${CONTAINERS_CONF:-$PWD/deploy/containers.conf}
started=$(date +%s)
say() { echo "compose-smoke: $*" >&2; }
fail() { say "FAILED: $*"; exit 1; }

bash scripts/image-build.sh >&2
engine=${CONTAINER_ENGINE:-$(command -v podman >/dev/null 2>&1 && podman info >/dev/null 2>&1 && echo podman || echo docker)}
if [ "$engine" = podman ]; then compose=(podman-compose); else compose=(docker compose); fi
command -v "${compose[0]}" >/dev/null 2>&1 || fail "${compose[*]} is not installed (Debian: apt-get install podman-compose)"

# A Debian bookworm base for the stand-ins: the Node stand-in made by image:build, or the Node image.
base=localhost/packline-node-standin:24-bookworm
"$engine" image inspect "$base" >/dev/null 2>&1 || base=${NODE_IMAGE:-node:24-bookworm-slim}
image_or_standin() { # official-image standin-tag dir
  if "$engine" image inspect "$1" >/dev/null 2>&1 || timeout 60 "$engine" pull -q "$1" >/dev/null 2>&1; then echo "$1"; return; fi
  if "$engine" image inspect "$2" >/dev/null 2>&1; then
    say "$1 cannot be pulled here: using the stand-in $2 made earlier from Debian packages (deploy/standins/$3)"
    echo "$2"; return
  fi
  say "$1 cannot be pulled here: building the stand-in $2 from Debian packages (deploy/standins/$3)"
  "$engine" build -q --network host --build-arg "BASE=$base" -t "$2" "deploy/standins/$3" >/dev/null
  echo "$2"
}
postgres_image=$(image_or_standin "${POSTGRES_IMAGE:-postgres:16-bookworm}" localhost/packline-postgres-standin:15 postgres)
redis_image=$(image_or_standin "${REDIS_IMAGE:-redis:7-bookworm}" localhost/packline-redis-standin:7 redis)

project=packline-smoke-$$
dir=$(mktemp -d /tmp/packline-compose-smoke.XXXXXX)
cp compose.yaml "$dir/"
sed -e "s/^POSTGRES_PASSWORD=\$/POSTGRES_PASSWORD=$(od -An -N16 -tx1 /dev/urandom | tr -d ' \n')/" \
    -e "s/^INTERNAL_API_TOKEN=\$/INTERNAL_API_TOKEN=$(od -An -N24 -tx1 /dev/urandom | tr -d ' \n')/" \
    -e "s|^DATA_ENCRYPTION_KEY=\$|DATA_ENCRYPTION_KEY=$(head -c 32 /dev/urandom | base64)|" \
    -e "s|^PUBLIC_BASE_URL=.*|PUBLIC_BASE_URL=http://127.0.0.1:8081|" .env.example > "$dir/.env"
printf 'POSTGRES_IMAGE=%s\nREDIS_IMAGE=%s\n' "$postgres_image" "$redis_image" >> "$dir/.env"
in_project() { (cd "$dir" && "${compose[@]}" -p "$project" "$@"); }
cleanup() {
  # Containers with their anonymous volumes (the image's /data), then what compose made.
  local names
  names=$("$engine" ps -a --filter "label=com.docker.compose.project=$project" --format '{{.Names}}' 2>/dev/null || true)
  [ -n "$names" ] && "$engine" rm -f -v $names >/dev/null 2>&1 || true
  in_project down -v >/dev/null 2>&1 || true
  "$engine" network rm "${project}_default" >/dev/null 2>&1 || true
  "$engine" volume rm -f "${project}_postgres-data" >/dev/null 2>&1 || true
  rm -rf "$dir"
}
trap cleanup EXIT

say "up: $project (postgres: $postgres_image, redis: $redis_image)"
in_project up -d >"$dir/up.log" 2>&1 || { cat "$dir/up.log" >&2; fail "compose up"; }

ready() { [ "$(curl -s -o /dev/null -w '%{http_code}' -m 2 "http://127.0.0.1:$1/readyz")" = 200 ]; }
deadline=$(( $(date +%s) + 120 ))
until ready 8081 && ready 8082; do
  [ "$(date +%s)" -lt "$deadline" ] || { in_project logs >&2 2>&1 || true; fail "the API processes were not ready within 120 s"; }
  sleep 1
done
say "api-1 and api-2 ready: $(curl -s -m 2 http://127.0.0.1:8081/readyz)"

# The container of a service (one label filter: podman ORs repeated ones).
container() { "$engine" ps -a --filter "label=com.docker.compose.project=$project" --format '{{.Names}} {{index .Labels "com.docker.compose.service"}}' | awk -v s="$1" '$2 == s && !found { print $1; found = 1 }'; }
api1=$(container api-1)
[ -n "$api1" ] || fail "no api-1 container"
"$engine" exec "$api1" packline orgs create --id smoke-co --name "Smoke Co" --plan base >/dev/null || fail "packline orgs create in api-1"
key=$("$engine" exec "$api1" packline keys create --org smoke-co --scopes organization:read,opportunities:read,events:read --expires-at "$(date -u -d "+300 days" +%Y-%m-%dT00:00:00Z)" --json | grep -o '"key": "[^"]*"' | cut -d'"' -f4)
[ -n "$key" ] || fail "packline keys create in api-1 gave no key"
for port in 8081 8082; do
  status=$(curl -s -o /dev/null -w '%{http_code}' -m 5 -H "Authorization: Bearer $key" "http://127.0.0.1:$port/api/v1/organization")
  [ "$status" = 200 ] || fail "the key made in api-1 answered $status on :$port"
done
say "a key made with the CLI in api-1 answers 200 on both API processes"

"$engine" exec "$(container dispatcher)" node -e "fetch('http://127.0.0.1:8080/readyz').then(r=>process.exit(r.ok?0:1),()=>process.exit(1))" || fail "the dispatcher is not ready"
say "dispatcher ready"
[ "$("$engine" inspect -f '{{.State.ExitCode}}' "$(container migrate)")" = 0 ] || fail "migrate did not exit 0"
say "migrate ran once and exited 0"
if [ "$engine" = podman ]; then
  for service in postgres redis api-1 api-2 dispatcher; do
    podman healthcheck run "$(container "$service")" >/dev/null 2>&1 || fail "the health check of $service failed"
  done
  say "every health check passes (postgres, redis, api-1, api-2, dispatcher)"
fi
say "passed in $(( $(date +%s) - started )) s"
