#!/usr/bin/env bash
# CI, after a failed or cancelled smoke job: keep what the Docker host still holds, so that the
# failure can be read from the artifacts without a rerun. `./run.sh smoke` already copies an
# engine's compose logs and Prometheus data to results/smoke/ before its destroy; this covers a
# smoke run that never got there (job timeout, cancel, a crash of run.sh itself).
# Usage: .github/scripts/smoke-diagnostics.sh OUT_DIR
set -uo pipefail
out=${1:?usage: smoke-diagnostics.sh OUT_DIR}
mkdir -p "$out"
{
  docker version
  docker info
  docker compose version
} >"$out/docker.txt" 2>&1
docker ps -a --format 'table {{.Names}}\t{{.Image}}\t{{.Status}}\t{{.Label "com.docker.compose.project"}}' >"$out/containers.txt" 2>&1
docker volume ls >"$out/volumes.txt" 2>&1
# Every lab-* Compose project still known to the daemon (running or stopped containers).
for p in $(docker ps -a --filter label=com.docker.compose.project --format '{{.Label "com.docker.compose.project"}}' | grep '^lab-' | sort -u); do
  mkdir -p "$out/$p"
  # -p alone is enough for logs and ps: Compose finds the containers by their project label.
  docker compose -p "$p" ps -a >"$out/$p/ps.txt" 2>&1
  docker compose -p "$p" logs --no-color --timestamps >"$out/$p/compose.log" 2>&1
  # Prometheus's TSDB (--storage.tsdb.path=/prometheus in compose/monitoring.yml), copied out of
  # the container, running or stopped; open it with prometheus --storage.tsdb.path=<copy>.
  c=$(docker ps -a --filter "label=com.docker.compose.project=$p" --filter label=com.docker.compose.service=prometheus --format '{{.Names}}' | head -1)
  if [[ -n $c ]]; then
    docker cp "$c:/prometheus" "$out/$p/prometheus" >/dev/null 2>&1 || echo "could not copy /prometheus out of $c" >>"$out/$p/ps.txt"
  fi
done
echo "diagnostics in $out:"
find "$out" -maxdepth 2 | sort
