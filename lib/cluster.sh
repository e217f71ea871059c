# shellcheck shell=bash
# Cluster verbs: up, down, destroy, status, logs, shell, through compose()/compose_probe()
# (lib/stack.sh); checks in lib/preflight.sh, secrets in lib/secrets.sh.

# Services with a shell inside (shell targets) are every member and router of compose/topology.tsv
# (topology_services); the routers beyond the first exist with --mongos N.
# cluster_shell: the image's shell command (engines table shell: mongosh, or the legacy mongo).
cluster_shell() { engine_field "$ENGINE" shell; }
# Longest wait for the init service to finish after `docker compose up -d` returned. init's own
# steps each give up after 180 s; 600 s covers a cold start on a slow disk with room to spare.
UP_INIT_TIMEOUT=600
# `ps` fields read by the state checks: service|state|health|exit code. "|" rather than spaces,
# because health is empty for a service without a healthcheck.
PS_FORMAT='{{.Service}}|{{.State}}|{{.Health}}|{{.ExitCode}}'

# cluster_profile_args: Compose --profile flags of the routers the --mongos count enables (their
# compose_profile in compose/topology.tsv).
cluster_profile_args() {
  local svc port compose_profile
  while IFS=$'\t' read -r svc port compose_profile; do
    [[ $compose_profile == - ]] || printf -- '--profile\n%s\n' "$compose_profile"
  done < <(topology_routers "$MONGOS_COUNT")
}

# cluster_services: the services `up` must leave running (or exited 0, for one-shots): the
# one-shot keyfile, every member, the first router, the one-shot init, the other routers of the
# --mongos count (this order is the order messages list them in).
cluster_services() {
  local routers
  routers=$(topology_routers "$MONGOS_COUNT" | cut -f1)
  echo keyfile
  table_rows "$LAB_ROOT/$TOPOLOGY_TSV" | awk -F'\t' '$3 != "router" { print $1 }'
  head -n1 <<<"$routers"
  echo init
  tail -n +2 <<<"$routers"
}

# cluster_router: the router every exec goes through (the table's first).
cluster_router() { topology_services router | first_line; }

# cluster_ps [SERVICE...]: "service|state|health|exitcode" per container of this engine's project.
cluster_ps() { compose_probe --profile '*' ps -a --format "$PS_FORMAT" "$@" 2>/dev/null || true; }

# One-shot services: they run once and exit 0 by design (the keyfile's install, init, and the
# --journal-path folders of compose/journal-path.yml). Every other service is a long-running
# process, and one that exited is not up, whatever its code: mongod exits 0 on the SIGTERM of a
# `docker stop`, a Docker restart or a host reboot, and the members' restart "no" leaves it so.
CLUSTER_ONE_SHOTS="keyfile init journal-dirs"

# service_up STATE SERVICE: in cluster_ps output STATE, SERVICE is up: running and healthy, or
# running with its health not judged yet ("starting": on Engines before 25, which take no
# start_interval, the first check comes a whole interval, 10 s, after the start, and init can
# finish before mongos was ever checked; an unhealthy one is not up), or a one-shot
# (CLUSTER_ONE_SHOTS) that exited 0.
service_up() {
  awk -F'|' -v s="$2" -v one_shots=" $CLUSTER_ONE_SHOTS " '$1 != s { next }
    $2 == "running" && ($3 == "" || $3 == "healthy" || $3 == "starting") { ok = 1 }
    $2 == "exited" && $4 == "0" && index(one_shots, " " s " ") { ok = 1 }
    END { exit !ok }' <<<"$1"
}

# cluster_is_up PROFILE_ARGS...: every service of the stack (ours and those other parts add) is
# up (service_up); `up` is then a no-op.
cluster_is_up() {
  local state svc want=()
  state=$(cluster_ps)
  [[ -n $state ]] || return 1
  mapfile -t want < <({ cluster_services; compose_probe "$@" config --services 2>/dev/null; } | sort -u)
  for svc in "${want[@]}"; do
    [[ -n $svc ]] || continue
    service_up "$state" "$svc" || return 1
  done
}

# stack_has_running: at least one container of this engine's project is running.
stack_has_running() { cluster_ps | awk -F'|' '$2 == "running" { f = 1 } END { exit !f }'; }

# cluster_wait_init: wait for the init container to exit; 0 if it exited 0.
cluster_wait_init() {
  local end=$((SECONDS + UP_INIT_TIMEOUT)) line
  while ((SECONDS < end)); do
    line=$(cluster_ps init | awk -F'|' '$1 == "init"' | tail -1)
    case $line in
      "init|exited|"*) [[ ${line##*|} == 0 ]]; return ;;
    esac
    sleep 2 # poll interval of a bounded wait (deadline above), not a readiness guess
  done
  info "init did not finish within ${UP_INIT_TIMEOUT}s"
  return 1
}

# cluster_failed_starts: "service|error" for each container that Docker refused to start, of a
# service outside the cluster's own (monitoring's, other parts'): state created with the start's
# error recorded (moby daemon/start.go sets State.Error, and exit code 128, when a start fails; a
# container still waiting for its dependencies has none). It never ran. A read-only probe.
cluster_failed_starts() {
  local ids=()
  mapfile -t ids < <(docker ps -aq --filter "label=com.docker.compose.project=$(stack_project)" --filter status=created 2>/dev/null)
  ((${#ids[@]})) || return 0
  docker inspect --format '{{index .Config.Labels "com.docker.compose.service"}}|{{.State.Error}}' "${ids[@]}" 2>/dev/null |
    awk -F'|' 'NR == FNR { own[$1] = 1; next } $2 != "" && !($1 in own)' <({ topology_services; echo keyfile; echo init; }) - || true
}

# cluster_up_failure: the reason up_failed gives when `docker compose up` failed: a part's one-line
# diagnosis of a container Docker refused to start (monitoring_start_refused), else the plain one.
cluster_up_failure() {
  local why=""
  if declare -F monitoring_start_refused >/dev/null; then why=$(cluster_failed_starts | monitoring_start_refused); fi
  echo "${why:-docker compose up failed (see above)}"
}

# cluster_unhealthy_why: "  service: why" for each member and router that is not healthy
# (unhealthy, still starting, exited): its state and its last healthcheck's exit code and output
# (docker inspect .State.Health.Log, which keeps the last five), or, for one that exited, its exit
# code and last log line. What compose says of a dependency that never became healthy names the
# container, never why. A read-only probe.
cluster_unhealthy_why() {
  local ids=() service state code health checks last out
  mapfile -t ids < <(docker ps -aq --filter "label=com.docker.compose.project=$(stack_project)" 2>/dev/null)
  ((${#ids[@]})) || return 0
  # one line per container; the health log's entries end with a record separator (\x1e), its
  # outputs quoted (%q) so that their newlines stay on the line
  local format='{{index .Config.Labels "com.docker.compose.service"}}|{{.State.Status}}|{{.State.ExitCode}}|'
  format+='{{if .State.Health}}{{.State.Health.Status}}|{{range .State.Health.Log}}'
  format+='{{.ExitCode}} {{printf "%q" .Output}}{{"\x1e"}}{{end}}{{end}}'
  while IFS='|' read -r service state code health checks; do
    grep -qxF -- "$service" <<<"$(topology_services)" || continue
    [[ $state == running && $health == healthy ]] && continue
    if [[ $state != running ]]; then
      out=$(compose_probe logs --no-color --no-log-prefix --tail 1 "$service" 2>&1 | tail -n 1)
      echo "  $service: $state (exit code $code); its last log line: ${out:-none}"
      continue
    fi
    checks=${checks%$'\x1e'}
    last=${checks##*$'\x1e'}
    if [[ -z $last ]]; then
      echo "  $service: ${health:-no health yet}; no healthcheck has finished yet"
    else
      echo "  $service: $health; its last healthcheck (exit ${last%% *}): ${last#* }"
    fi
  done < <(docker inspect --format "$format" "${ids[@]}" 2>/dev/null)
}

# up_failed REASON [EXIT]: say what is running and how to clean up; exit 1 (130 for Ctrl-C).
up_failed() {
  trap - INT
  printf 'error: %s\n' "$1" >&2
  info "What is running now (project $(stack_project)):"
  compose_probe --profile '*' ps -a --format 'table {{.Service}}\t{{.State}}\t{{.Status}}' >&2 || true
  local why
  why=$(cluster_unhealthy_why)
  if [[ -n $why ]]; then
    info "The members and routers that are not healthy, and why:"
    printf '%s\n' "$why" >&2
  fi
  if grep -q '^init|exited|' <<<"$(cluster_ps init)"; then
    info "Last lines of the init service's log:"
    compose_probe logs --no-color --tail 40 init >&2 || true
  fi
  info "Logs: ./run.sh logs SERVICE --engine $ENGINE.  Clean up: ./run.sh down --engine $ENGINE (keeps data) or ./run.sh destroy --engine $ENGINE (removes it)."
  exit "${2:-1}"
}

# cluster_report: where to connect, and the cluster's own view of itself.
cluster_report() {
  local port
  echo "The $ENGINE cluster is up (project $(stack_project), profile $PROFILE, $MONGOS_COUNT mongos)."
  for port in $(cluster_ports); do
    echo "  mongodb://root@127.0.0.1:$port/?authSource=admin   password: .secrets/$ENGINE/root-password"
  done
  echo "  shell:  ./run.sh shell --engine $ENGINE      status: ./run.sh status --engine $ENGINE"
  echo "  stop:   ./run.sh down --engine $ENGINE       remove data: ./run.sh destroy --engine $ENGINE"
  compose exec -T "$(cluster_router)" "$(cluster_shell)" --nodb --quiet --norc /lab/init/status.js || true
}

verb_up() {
  local profiles=()
  stack_memory_check # a shard member that does not fit the profile's memory: one line, exit 2
  stack_leave_out
  [[ -z ${LAB_LEAVE_OUT:-} || $MONITORING != 1 ]] ||
    info "Left out of the stack (LAB_LEAVE_OUT): ${LAB_LEAVE_OUT}; the panels and links that need them stay empty."
  mapfile -t profiles < <(cluster_profile_args)
  if [[ $DRY_RUN == 1 && ${LAB_SMOKE_UP:-} == "$ENGINE" ]]; then
    # a step of `smoke --dry-run` (lib/smoke.sh): smoke's own up was printed above
    info "dry run: the $ENGINE stack is up here (smoke's up above); up does nothing"
    return 0
  fi
  if [[ $DRY_RUN == 1 ]]; then
    info "dry run: would check docker, Compose v2, the daemon, other engines' stacks, the profile's CPUs against the daemon's and ports $(cluster_ports | paste -sd, -)"
    if declare -F monitoring_before_up >/dev/null; then monitoring_before_up; fi
    secrets_ensure
    compose "${profiles[@]}" up -d
    info "dry run: would then wait up to ${UP_INIT_TIMEOUT}s for the init service to exit 0"
    if declare -F monitoring_after_up >/dev/null; then monitoring_after_up; fi
    return 0
  fi
  preflight_up
  if declare -F monitoring_before_up >/dev/null; then monitoring_before_up; fi
  local running # the --profile the running stack was started with ("" if none is running)
  running=$(compose_probe ps --format '{{.Label "lab.profile"}}' 2>/dev/null | grep -m1 . || true)
  # Switching profiles means new memory/CPU limits and cache sizes for every member: a restart of
  # the whole cluster, which the inMemory engine does not survive. Say so rather than do it.
  if [[ -n $running && $running != "$PROFILE" ]]; then
    die_env "the $ENGINE stack is running with profile '$running', not '$PROFILE': stop it first ('./run.sh down --engine $ENGINE'), then up with the new profile"
  fi
  if cluster_is_up "${profiles[@]}"; then
    info "The $ENGINE stack is already up; nothing to do."
  else
    local keep=()
    if stack_has_running; then
      # A partly running stack: start what is stopped or missing, recreate nothing. Compose would
      # otherwise recreate every member whose configuration differs from the files' (all three
      # shard members at once after a fault changed them; an empty shard on inmemory).
      keep=(--no-recreate)
      info "The $ENGINE stack is partly up: starting the services that are not, without recreating the running ones (a changed configuration applies after './run.sh down --engine $ENGINE')."
      # --no-recreate would start a container Docker refused to start before as it is, and it would
      # fail the same way (node_exporter's rslave mount on a private /): it never ran, so it goes,
      # and up creates it from the current files. Members are never among them.
      local failed=()
      mapfile -t failed < <(cluster_failed_starts | cut -d'|' -f1 | sort -u)
      if ((${#failed[@]})); then
        info "Docker refused to start ${failed[*]} on an earlier up: removing that container (it never ran), so that up creates it from the current files."
        compose --profile '*' rm -f "${failed[@]}" || up_failed "removing the container of ${failed[*]} failed (see above)"
      fi
    else
      preflight_ports
    fi
    secrets_ensure
    info "Starting the $ENGINE stack (project $(stack_project)); the first start pulls images and takes a few minutes."
    trap 'up_failed "interrupted" 130' INT
    compose "${profiles[@]}" up -d "${keep[@]}" || up_failed "$(cluster_up_failure)"
    cluster_wait_init || up_failed "the init service did not complete"
    trap - INT
  fi
  cluster_report
  if declare -F monitoring_after_up >/dev/null; then monitoring_after_up; fi
}

# cluster_volume_keys: the named volumes the cluster's own compose files declare (cluster.yml,
# the engine's file, loader and faults), as keys; monitoring's (Prometheus, Grafana) are left out
# by rendering the project without compose/monitoring.yml. A read-only probe.
# A dry run runs no docker at all: it reads the keys from the files (stack_file_keys).
cluster_volume_keys() {
  (
    # shellcheck disable=SC2034  # read by stack_files, inside compose_probe
    MONITORING=0
    if [[ $DRY_RUN == 1 ]]; then
      stack_file_keys volumes
    else
      compose_probe --profile '*' config --volumes 2>/dev/null
    fi
  )
}

# stack_file_keys SECTION: the keys under each stack file's top-level SECTION: (services, volumes),
# one a line, read from the files themselves (a dry run, or no working Compose). A key is a line
# indented by two spaces, in block form or written on one line (the exporters' `cfg1-exporter:
# { <<: *exporter, ... }`).
stack_file_keys() {
  local f
  while IFS= read -r f; do
    [[ $f == -f ]] && continue
    awk -v section="$1:" '/^[^ #]/ { inside = ($1 == section) } inside && /^  [A-Za-z0-9_.-]+:/ { sub(/^  /, ""); sub(/:.*/, ""); print }' "$LAB_ROOT/$f"
  done < <(stack_files) | sort -u
}

# cluster_volume_names KEY...: the Docker volumes of this engine's project holding those keys.
# Compose labels each volume it creates with com.docker.compose.project and
# com.docker.compose.volume=<key> (docker/compose pkg/compose/create.go, api.VolumeLabel), which
# also covers a volume given its own `name:`.
cluster_volume_names() {
  docker volume ls --filter "label=com.docker.compose.project=$(stack_project)" \
    --format '{{.Label "com.docker.compose.volume"}}|{{.Name}}' 2>/dev/null |
    awk -F'|' 'NR == FNR { want[$1] = 1; next } ($1 in want) { print $2 }' <(printf '%s\n' "$@") -
}

# cluster_remove_volumes: remove the cluster's data volumes (after `down`), keeping monitoring's
# history. Under --dry-run it prints the removal with Compose's default names.
cluster_remove_volumes() {
  local keys=() names=() k
  mapfile -t keys < <(cluster_volume_keys | grep .)
  ((${#keys[@]})) ||
    die_env "cannot list the cluster's volumes ('docker compose config --volumes' failed): remove the $(stack_project)_* data volumes with 'docker volume rm', or run ./run.sh destroy --engine $ENGINE"
  if [[ $DRY_RUN == 1 ]]; then
    for k in "${keys[@]}"; do names+=("$(stack_project)_$k"); done
  else
    mapfile -t names < <(cluster_volume_names "${keys[@]}")
  fi
  ((${#names[@]})) || return 0 # none created yet
  run docker volume rm "${names[@]}"
}

# down keeps the volumes, except the cluster's own for an engine that keeps no data (engines table
# keeps_data: why); Prometheus's and Grafana's history stays.
verb_down() {
  [[ $DRY_RUN == 1 ]] || preflight_docker
  if [[ $(engine_field "$ENGINE" keeps_data) == no ]]; then
    info "The $ENGINE engine keeps no data across a restart: stopping it discards the data, and the cluster's volumes are removed too so that the next up starts clean (Prometheus and Grafana keep their history)."
    compose --profile '*' down --remove-orphans
    cluster_remove_volumes
    stack_shard_args_forget # the next up creates the members as the stack defines them
  else
    compose --profile '*' down --remove-orphans
    [[ $DRY_RUN == 1 ]] || info "Stopped; data kept in the $(stack_project)_* volumes. Start again: ./run.sh up --engine $ENGINE"
  fi
}

verb_destroy() {
  if [[ $DRY_RUN != 1 && $ASSUME_YES != 1 ]]; then
    [[ -t 0 ]] || die_usage "destroy removes every volume of the $ENGINE engine and needs confirmation: re-run with --yes (no terminal to ask on)"
    local answer
    read -r -p "Remove the $ENGINE cluster and all its data (volumes $(stack_project)_*)? [y/N] " answer
    [[ $answer == [yY] || $answer == [yY][eE][sS] ]] || { info "Nothing removed."; return 0; }
  fi
  [[ $DRY_RUN == 1 ]] || preflight_docker
  compose --profile '*' down --volumes --remove-orphans
  stack_shard_args_forget # a fault's shard arguments (lib/stack.sh) go with the volumes
  [[ $DRY_RUN == 1 ]] || info "Removed the $ENGINE stack and its volumes. Secrets stay in .secrets/$ENGINE/ for the next up."
}

verb_status() {
  if [[ $DRY_RUN != 1 ]]; then
    preflight_docker
    stack_has_running || die_env "the $ENGINE stack ($(stack_project)) is not running: start it with './run.sh up --engine $ENGINE'"
    compose_probe --profile '*' ps --format 'table {{.Service}}\t{{.State}}\t{{.Status}}\t{{.Ports}}'
    echo
  fi
  compose exec -T "$(cluster_router)" "$(cluster_shell)" --nodb --quiet --norc /lab/init/status.js
}

# validate_service NAME: NAME is a service of this stack (any part, any profile).
# Without a working Docker Compose (none installed, no daemon), the names are read from the
# compose files themselves, and a name that is not there is still an unknown service; a known
# one goes on (a dry run prints its command).
validate_service() {
  local services why=""
  if ! services=$(compose_probe --profile '*' config --services 2>/dev/null); then
    services=$(stack_file_keys services)
    why="; 'docker compose config' could not run here (is Docker with the Compose v2 plugin installed?), so the names were read from the compose files"
  fi
  grep -qxF -- "$1" <<<"$services" ||
    die_usage "unknown service '$1' (choose one of: $(paste -sd' ' - <<<"$services"))$why"
}

verb_logs() {
  (($# <= 1)) || die_usage "logs takes at most one service (got: $*)"
  [[ $DRY_RUN == 1 ]] || preflight_docker
  [[ $# == 0 ]] || validate_service "$1"
  compose --profile '*' logs --follow --tail 200 "$@"
}

verb_shell() {
  (($# <= 1)) || die_usage "shell takes at most one service (got: $*)"
  local svc=${1:-$(cluster_router)} tty=()
  grep -qxF -- "$svc" <<<"$(topology_services)" ||
    die_usage "shell opens $(cluster_shell) in a mongod or mongos service, not '$svc' (choose one of: $(topology_services | paste -sd' ' -))"
  [[ $DRY_RUN == 1 ]] || preflight_docker
  [[ -t 0 && -t 1 ]] || tty=(-T)
  compose exec "${tty[@]}" "$svc" "$(cluster_shell)" --nodb --quiet --shell /lab/init/shell.js
}
