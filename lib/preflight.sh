# shellcheck shell=bash
# Environment checks before a verb touches Docker. Each failure is one line naming the fix and
# exits 1 (an environment error; usage errors exit 2 earlier, in run.sh). They are read-only
# probes, so they call docker directly rather than through run(); under --dry-run verbs skip them
# because a dry run must work (and print its commands) where Docker is missing.

# Oldest Compose v2 and Docker Engine the stack files need: healthcheck start_interval, which
# Compose supports from 2.20.0 and passes only to Engine API 1.44+ (Docker Engine 25).
COMPOSE_MIN_MINOR=20
DOCKER_MIN_MAJOR=25

preflight_docker() {
  command -v docker >/dev/null 2>&1 ||
    die_env "docker not found on PATH: install Docker Engine with the Compose v2 plugin (https://docs.docker.com/engine/install/)"
  local v
  if ! v=$(docker compose version --short 2>/dev/null); then
    die_env "Docker Compose v2 is missing ('docker compose version' failed): install the docker-compose-plugin package; the standalone v1 'docker-compose' is not supported"
  fi
  v=${v#v}
  if [[ $v =~ ^([0-9]+)\.([0-9]+) ]] &&
    ((BASH_REMATCH[1] < 2 || (BASH_REMATCH[1] == 2 && BASH_REMATCH[2] < COMPOSE_MIN_MINOR))); then
    die_env "Docker Compose $v is too old: the lab needs 2.$COMPOSE_MIN_MINOR or newer (upgrade the docker-compose-plugin package)"
  fi
  local engine
  engine=$(docker info --format '{{.ServerVersion}}' 2>/dev/null) ||
    die_env "cannot reach the Docker daemon ('docker info' failed): start it (e.g. 'sudo systemctl start docker'), or check DOCKER_HOST and your access to the Docker socket"
  # Compose refuses healthcheck start_interval below Engine API 1.44 ("can't set
  # healthcheck.start_interval as feature require Docker Engine v25 or later", pkg/compose/convert.go).
  if [[ $engine =~ ^([0-9]+)\. ]] && ((BASH_REMATCH[1] < DOCKER_MIN_MAJOR)); then
    die_env "Docker Engine $engine is too old: the lab needs $DOCKER_MIN_MAJOR or newer (upgrade docker-ce)"
  fi
}

# running_lab_projects: the lab-* Compose projects with at least one running container.
running_lab_projects() {
  docker ps --filter label=com.docker.compose.project \
    --format '{{.Label "com.docker.compose.project"}}' 2>/dev/null | grep '^lab-' | sort -u || true
}

# preflight_one_engine: engines run one at a time. They publish the same host ports, and two
# clusters on one host would compete for CPU, memory and disk and skew both measurements.
preflight_one_engine() {
  local p other
  for p in $(running_lab_projects); do
    [[ $p == "$(stack_project)" ]] && continue
    other=${p#lab-}
    die_env "the '$other' engine's stack ($p) is running and holds the lab's ports; one engine runs at a time: stop it with './run.sh down --engine $other'"
  done
}

# port_in_use PORT: something accepts connections on 127.0.0.1:PORT (a listener on 0.0.0.0
# counts too). bash's /dev/tcp needs no extra tool; timeout guards against a filtered port.
port_in_use() {
  timeout 2 bash -c "exec 3<>/dev/tcp/127.0.0.1/$1" 2>/dev/null
}

# cluster_ports: host ports the cluster publishes for the chosen --mongos count.
cluster_ports() {
  local i
  for ((i = 0; i < MONGOS_COUNT; i++)); do echo $((27017 + i)); done
}

# preflight_ports: every port `up` will publish is free. Skipped for our own running stack, which
# legitimately holds them. Other parts add their ports by defining monitoring_ports.
preflight_ports() {
  local port ports
  mapfile -t ports < <(cluster_ports)
  if [[ $MONITORING == 1 ]] && declare -F monitoring_ports >/dev/null; then
    mapfile -t -O "${#ports[@]}" ports < <(monitoring_ports)
  fi
  for port in "${ports[@]}"; do
    if port_in_use "$port"; then
      die_env "port $port on 127.0.0.1 is already in use, and the lab publishes it: stop what listens there (find it with: ss -ltnp 'sport = :$port') and retry"
    fi
  done
}
