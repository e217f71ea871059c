# shellcheck shell=bash
# Environment checks before a verb touches Docker, each failure one line (die_env). They are
# read-only probes, so they call docker directly rather than through run(); under --dry-run verbs
# skip them because a dry run must work (and print its commands) where Docker is missing.

# Oldest Compose v2 that can run the lab: 2.21.0. lib/cluster.sh reads `docker compose ps --format`
# with a Go template ('{{.Service}}|{{.State}}|...'). Compose took templates from 2.21.0 on
# (docker/compose commit 1054792b4 "align docker compose ps with docker CLI to support --format",
# first in tag v2.21.0, cmd/compose/ps.go: formatter.NewContainerFormat). Up to v2.20.3
# cmd/formatter/formatter.go Print() accepts only table|json and fails with "format value ...
# could not be parsed", so `up` saw no state and waited its whole 600 s for init.
# Oldest Docker Engine: 20.10 (API 1.41), Debian 12's docker.io. Compose has no floor of its own:
# its client negotiates down to the daemon's API (docker/docker v28.5.1, the client of Compose
# v2.40.3: client/client.go negotiateAPIVersionPing) and Compose gates each feature on it
# (pkg/compose/convert.go, create.go: RuntimeVersion). What the lab's files need, below 25: a
# container of one platform (the rocksdb engine's image, engines table platform: Compose passes it
# to ContainerCreate, pkg/compose/convergence.go createMobyContainer, and the client refuses it
# below API 1.41: client/container_create.go "specify container image platform"), so 20.10. The one
# thing that needs 25 (API 1.44) is healthcheck start_interval (Compose: "can't set
# healthcheck.start_interval as feature require Docker Engine v25 or later", convert.go); it lives
# in compose/healthcheck-start-interval.yml, which lib/stack.sh adds on 25+ only, and below 25
# `up` says once what that costs. The lab uses none of the other gated features (image volumes:
# 1.48, interface_name: 1.49). Docker Desktop 4.23.0 is the first Desktop with Compose 2.21.0
# (Engine 24.0.6; Desktop release notes).
COMPOSE_MIN_MINOR=21
# Compose passes healthcheck start_interval to the Engine from 2.24.0 on (docker/compose commit
# fb3868ffa "add support for start_interval", first in tag v2.24.0: pkg/compose/convert.go
# ToMobyHealthCheck sets StartInterval). Up to v2.23.3 ToMobyHealthCheck copies interval, timeout,
# start_period and retries only, so the key is accepted and dropped: members poll every 10 s.
COMPOSE_START_INTERVAL_MINOR=24
# The Compose version preflight_docker read ("" when it did not read one).
COMPOSE_VERSION=""
DOCKER_MIN_MAJOR=20
DOCKER_MIN_MINOR=10

# preflight_compose: docker and its Compose v2 plugin are there (COMPOSE_VERSION: the version read),
# else one line saying which is missing and how to install it. Alone, for a verb that uses Compose
# on a running stack (fault heal, resync), where a failing `docker compose` read as "not up".
preflight_compose() {
  command -v docker >/dev/null 2>&1 ||
    die_env "docker not found on PATH: install Docker Engine with the Compose v2 plugin (https://docs.docker.com/engine/install/)"
  local v
  if ! v=$(docker compose version --short 2>/dev/null); then
    die_env "Docker Compose v2 is missing ('docker compose version' failed): install the docker-compose-plugin package; the standalone v1 'docker-compose' is not supported"
  fi
  COMPOSE_VERSION=${v#v}
}

preflight_docker() {
  preflight_compose
  local v=$COMPOSE_VERSION
  if version_older "$v" 2 "$COMPOSE_MIN_MINOR"; then
    die_env "Docker Compose $v is too old: the lab needs 2.$COMPOSE_MIN_MINOR or newer (upgrade the docker-compose-plugin package)"
  fi
  # the version is asked once per run and kept (lib/stack.sh stack_resolve_docker_server)
  stack_resolve_docker_server
  ((DOCKER_SERVER_UNREACHABLE == 0)) ||
    die_env "cannot reach the Docker daemon ('docker info' failed): start it (e.g. 'sudo systemctl start docker'), or check DOCKER_HOST and your access to the Docker socket"
  if stack_docker_server_older "$DOCKER_MIN_MAJOR" "$DOCKER_MIN_MINOR"; then
    die_env "Docker Engine $DOCKER_SERVER_VERSION is too old: the oldest the lab runs on is $DOCKER_MIN_MAJOR.$DOCKER_MIN_MINOR (API 1.41, which Compose needs to create a container of one platform, such as the rocksdb engine's image): upgrade Docker Engine"
  fi
  # under cgroup v1, the disk the members' write limit goes on, asked once here in the main shell
  # (lib/block-writes-limit.sh)
  if declare -F block_writes_resolve_limit >/dev/null; then block_writes_resolve_limit; fi
}

# preflight_engine_note: on Engine 20.10 to 24.x, or on 25+ with a Compose older than 2.24, what
# runs without start_interval and what that costs, in one line (why: the header above).
preflight_engine_note() {
  if ! stack_engine_has_start_interval; then
    info "Docker Engine ${DOCKER_SERVER_VERSION%%+*}: healthchecks poll every 10 s while members start (start_interval needs Engine 25), so up waits up to ~10 s longer"
  elif version_older "$COMPOSE_VERSION" 2 "$COMPOSE_START_INTERVAL_MINOR"; then
    info "Docker Compose $COMPOSE_VERSION ignores healthcheck start_interval (passed on from" \
      "Compose 2.$COMPOSE_START_INTERVAL_MINOR): healthchecks poll every 10 s while members start," \
      "so up waits up to ~10 s longer"
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
# counts too). bash's /dev/tcp needs no extra tool. The connect runs in a background subshell
# that is given 2 s (a filtered port never answers) and then killed: `timeout` is GNU coreutils
# and absent on macOS, so it is not used. No answer within 2 s counts as free, as before.
port_in_use() {
  local pid i
  (exec 3<>"/dev/tcp/127.0.0.1/$1") 2>/dev/null &
  pid=$!
  for ((i = 0; i < 100; i++)); do
    if ! kill -0 "$pid" 2>/dev/null; then
      wait "$pid"
      return
    fi
    sleep 0.02
  done
  kill "$pid" 2>/dev/null
  wait "$pid" 2>/dev/null
  return 1
}

# cluster_ports: host ports the cluster publishes for the chosen --mongos count (the routers'
# host_port in compose/topology.tsv).
cluster_ports() { topology_routers "$MONGOS_COUNT" | cut -f2; }

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

# preflight_resources: the profile's CPU limits fit the Docker daemon. Docker refuses to create a
# container whose CPU limit exceeds the daemon's CPU count ("Range of CPUs is from 0.01 to N.00, as
# there are only N CPUs available": moby daemon/daemon_unix.go, verifyPlatformContainerResources,
# which compares NanoCPUs with sysinfo.NumCPU(), the same number `docker info` reports as NCPU,
# daemon/info.go). On Docker Desktop that is the VM's CPUs (Settings > Resources), not the Mac's.
# Compose would create the members it can and fail on the rest: a half-started stack. Memory
# limits above the daemon's memory are accepted by Docker, so memory only gets a warning.
preflight_resources() {
  local ncpu mem_total data_cpus cfg_cpus need data_mem cfg_mem want_bytes
  read -r ncpu mem_total < <(docker info --format '{{.NCPU}} {{.MemTotal}}' 2>/dev/null) || true
  data_cpus=$(profile_field "$PROFILE" data_cpus)
  cfg_cpus=$(profile_field "$PROFILE" cfg_cpus)
  if is_uint "${ncpu:-}" && ((ncpu > 0)); then
    need=$(awk -v a="$data_cpus" -v b="$cfg_cpus" 'BEGIN { print (a + 0 > b + 0) ? a : b }')
    if awk -v n="$ncpu" -v w="$need" 'BEGIN { exit !(w + 0 > n + 0) }'; then
      die_env "profile '$PROFILE' gives a container $need CPUs but the Docker daemon has $ncpu (Docker would refuse: 'range of CPUs is from 0.01 to $ncpu.00'): use --profile laptop, or give Docker more CPUs (Docker Desktop: Settings > Resources)"
    fi
  fi
  if is_uint "${mem_total:-}" && ((mem_total > 0)); then
    data_mem=$(profile_field "$PROFILE" data_mem)
    cfg_mem=$(profile_field "$PROFILE" cfg_mem)
    want_bytes=$((3 * $(mem_bytes "$data_mem") + 3 * $(mem_bytes "$cfg_mem")))
    if ((want_bytes > mem_total)); then
      warn "profile '$PROFILE' lets the shard and config members use $((want_bytes >> 20)) MiB but the Docker daemon has $((mem_total >> 20)) MiB: expect swapping or OOM kills (use --profile laptop, or give Docker more memory)"
    fi
  fi
}

# preflight_up: what `up` (and `smoke`, before its first up) checks before it starts anything:
# docker and Compose versions, the daemon (and what an engine before 25 leaves out), no other
# engine's stack, the profile fits the daemon.
preflight_up() {
  preflight_docker
  preflight_engine_note
  preflight_one_engine
  preflight_resources
  preflight_platform
}

# preflight_platform: an engine whose image is built for one platform only (engines.tsv platform:
# Percona's 3.6 image for linux/amd64) on a Docker host of another architecture runs under
# emulation (QEMU/binfmt, or Rosetta on Docker Desktop): said once before `up`, not refused (it
# runs, slowly); the loader records it beside the numbers (summary.json storage.emulated).
# `docker info` reports the daemon's architecture as uname -m does (x86_64, aarch64).
preflight_platform() {
  local want arch have
  # shellcheck disable=SC2153 # ENGINE: the verb's engine (run.sh)
  want=$(engine_field "$ENGINE" platform)
  [[ $want != - ]] || return 0
  arch=$(docker info --format '{{.Architecture}}' 2>/dev/null) && [[ -n $arch ]] || return 0
  case $arch in
    x86_64 | amd64) have=amd64 ;;
    aarch64 | arm64) have=arm64 ;;
    *) have=$arch ;;
  esac
  [[ linux/$have != "$want" ]] || return 0
  warn "the $ENGINE image ($(engine_field "$ENGINE" image)) is built for $want only and this Docker host is linux/$have: its members run under emulation, so its numbers are not the engine's on this host's CPU (the results record it: summary.json storage.emulated)"
}
