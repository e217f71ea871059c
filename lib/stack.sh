# shellcheck shell=bash
# stack_project and stack_secrets_dir take an optional engine for callers naming another one
# (preflight, other parts); within this file they are called without it.
# shellcheck disable=SC2119,SC2120
# One Compose project per engine: its name, its files and the environment its files interpolate.
# Every docker compose call in lib/ goes through compose() (changes things, honours --dry-run) or
# compose_probe() (read-only, always runs), so the command lines are built in one place.

# Engines run one at a time (why: lib/preflight.sh preflight_one_engine).
stack_project() { echo "lab-${1:-$ENGINE}"; }

SECRETS_ROOT="$LAB_ROOT/.secrets"

# Which CPUs the members and the loader may use (LAB_MEMBER_CPUSET, LAB_LOADER_CPUSET, LAB_CPUS_SHARED).
# shellcheck source=lib/placement.sh
source "$LAB_ROOT/lib/placement.sh"
stack_secrets_dir() { echo "$SECRETS_ROOT/${1:-$ENGINE}"; }

# stack_files: the -f arguments, relative to LAB_ROOT. Optional parts are separate files so that a
# part can be left out (--no-monitoring) or is only started on demand (loader, fault sidecars, YCSB use
# Compose profiles and never start with `up`).
stack_files() {
  local f files=(compose/cluster.yml "compose/engines/$ENGINE.yml")
  # --journal-path: each shard member's journal on PATH/<member> (compose/journal-path.yml).
  [[ -z ${JOURNAL_PATH:-} ]] || files+=(compose/journal-path.yml)
  for f in compose/loader.yml compose/faults.yml compose/ycsb.yml; do
    [[ -f $LAB_ROOT/$f ]] && files+=("$f")
  done
  # healthcheck start_interval, which Compose refuses below Engine 25 (the file's header says why)
  stack_engine_has_start_interval && files+=(compose/healthcheck-start-interval.yml)
  # cgroup v1: a write limit that never binds, so that the kernel counts block writes
  # (lib/block-writes-limit.sh)
  [[ ${BLOCK_WRITES_LIMIT_DISK:-auto} == auto || -z $BLOCK_WRITES_LIMIT_DISK ]] || files+=(compose/block-writes-v1.yml)
  if [[ $MONITORING == 1 && -f $LAB_ROOT/compose/monitoring.yml ]]; then
    files+=(compose/monitoring.yml)
    # Docker Desktop refuses node_exporter's Linux host mount, and so does a Linux daemon whose /
    # is a private mount: an override replaces it there (lib/monitoring.sh HOST_VIEW).
    # (HOST_VIEW, resolved in the main shell by compose_with: a $(...) here forked once per call)
    if declare -F monitoring_resolve_host_view >/dev/null; then
      monitoring_resolve_host_view
      case $HOST_VIEW in
        desktop-vm) files+=(compose/monitoring/node-exporter-desktop-vm.yml) ;;
        host-private) files+=(compose/monitoring/node-exporter-host-private.yml) ;;
      esac
    fi
    stack_engine_has_start_interval && files+=(compose/monitoring/healthcheck-start-interval.yml)
    # LAB_LEAVE_OUT="cadvisor grafana": monitoring services an engine cannot run, left out of the
    # stack (compose/monitoring/leave-out-<service>.yml; checked by stack_leave_out).
    for f in ${LAB_LEAVE_OUT:-}; do files+=("compose/monitoring/leave-out-$f.yml"); done
  fi
  for f in "${files[@]}"; do printf -- '-f\n%s\n' "$f"; done
}

# stack_leave_out: LAB_LEAVE_OUT names only services that have a leave-out file; one line else.
stack_leave_out() {
  local f known=""
  for f in "$LAB_ROOT"/compose/monitoring/leave-out-*.yml; do
    f=${f##*/leave-out-}
    known+="${known:+ }${f%.yml}"
  done
  for f in ${LAB_LEAVE_OUT:-}; do
    [[ -f $LAB_ROOT/compose/monitoring/leave-out-$f.yml ]] || die_usage "LAB_LEAVE_OUT names '$f', which cannot be left out (these can: $known)"
  done
}

# stack_env: NAME=VALUE lines for everything the compose files interpolate, each described in
# DEVELOPERS.md "Stack contract"; no secret values (secrets are files, mounted).
stack_env() {
  stack_env_resolve
  printf '%s\n' "$STACK_ENV_FIXED"
  placement_env
  local extra kept
  # --journal-path (compose/journal-path.yml): where, and the engine's journal directory under --dbpath.
  [[ -z ${JOURNAL_PATH:-} ]] || printf 'LAB_JOURNAL_PATH=%s\nLAB_JOURNAL_DIR=%s\n' "$JOURNAL_PATH" "$(engine_field "$ENGINE" journal_dir)"
  [[ ${BLOCK_WRITES_LIMIT_DISK:-auto} == auto || -z $BLOCK_WRITES_LIMIT_DISK ]] ||
    echo "LAB_BLOCK_WRITES_DISK=$BLOCK_WRITES_LIMIT_DISK"
  # the arguments the shard members were created with (below): every later `up`, resync or heal
  # recreates a member with them; a verb's own value (STACK_EXTRA_ENV, after) wins (env: last one)
  stack_shard_args_read kept
  [[ -z $kept ]] || echo "LAB_SHARD_EXTRA_ARGS=$kept"
  for extra in "${STACK_EXTRA_ENV[@]}"; do echo "$extra"; done
}

# stack_env_resolve: STACK_ENV_FIXED, the lines of stack_env that follow from the engine, the
# profile, the secrets' place and --oplog-size alone, worked out again only when one of those
# changed (smoke walks the engines). compose_with calls it in the main shell, before the command
# line is built in a subshell, so that the answer outlives it: a stack run makes about 30 compose
# calls, and each worked these lines out anew in about 30 forks (43 ms of CPU a call, 2026-11-30).
STACK_ENV_KEY="" STACK_ENV_FIXED=""
stack_env_resolve() {
  local key="$ENGINE|$PROFILE|$SECRETS_ROOT|${OPLOG_SIZE_MB:-}"
  [[ $key == "$STACK_ENV_KEY" ]] && return 0
  STACK_ENV_FIXED=$(stack_env_fixed)
  STACK_ENV_KEY=$key
}

stack_env_fixed() {
  # the cells looked up without a fork each ($(engine_field ...) made 10 of its forks)
  local col image mongod_uid shell platform data_mem data_cpus data_cache_gb cfg_mem cfg_cpus cfg_cache_gb
  for col in image mongod_uid shell platform; do engine_field_to "$col" "$ENGINE" "$col"; done
  for col in data_mem data_cpus data_cache_gb cfg_mem cfg_cpus cfg_cache_gb; do profile_field_to "$col" "$PROFILE" "$col"; done
  [[ $platform != - ]] || platform=""
  # the computed values printed straight after their names, not through $(...): a fork each
  printf '%s\n' "LAB_ENGINE=$ENGINE" "LAB_ENGINE_IMAGE=$image" "LAB_MONGOD_UID=$mongod_uid" "LAB_PROFILE=$PROFILE" \
    "LAB_DATA_MEM=$data_mem" "LAB_DATA_CPUS=$data_cpus" "LAB_DATA_CACHE_GB=$data_cache_gb" "LAB_CFG_MEM=$cfg_mem" \
    "LAB_CFG_CPUS=$cfg_cpus" "LAB_CFG_CACHE_GB=$cfg_cache_gb"
  printf 'LAB_SECRETS_DIR=' && stack_secrets_dir
  printf 'LAB_UID=' && id -u
  printf 'LAB_GID=' && id -g
  printf '%s\n' "LAB_SHELL=$shell"
  printf 'LAB_DATA_CACHE_GB_WHOLE=' && stack_whole_gb "$data_cache_gb"
  if [[ -n ${OPLOG_SIZE_MB:-} ]]; then printf '%s\n' "LAB_OPLOG_MB=$OPLOG_SIZE_MB"; else printf 'LAB_OPLOG_MB=' && stack_oplog_mb "$ENGINE" "$PROFILE"; fi
  printf '%s\n' "LAB_PLATFORM=$platform"
  printf 'LAB_LOADER_DEPS=' && loader_deps_source
}
# Verbs that need more interpolated values (a fault's small oplog, say) append NAME=VALUE here.
STACK_EXTRA_ENV=()

# stack_whole_gb GB: GB rounded up to a whole number, at least 1: a whole-GB cache flag's value.
stack_whole_gb() { awk -v g="$1" 'BEGIN { n = int(g); if (n < g) n++; if (n < 1) n = 1; print n }'; }

# stack_oplog_mb ENGINE PROFILE: the shard members' --oplogSize in MB. The engines table's
# oplog_mb, or for an engine that keeps its oplog inside its cache flag's store (oplog_share, a
# fraction: inMemory, where all data and the oplog must fit in --inMemorySizeGB) that share of the
# profile's data_cache_gb, in whole MB, at least 1. common/tables.js oplogMbFor is the same rule.
# Always one line (stack_env_fixed prints it after its name), empty for a cell that is missing.
stack_oplog_mb() {
  local share mb cache_gb
  engine_field_to share "$1" oplog_share
  if [[ -z $share || $share == - ]]; then
    engine_field_to mb "$1" oplog_mb
    printf '%s\n' "$mb"
    return 0
  fi
  profile_field_to cache_gb "$2" data_cache_gb
  awk -v s="$share" -v g="$cache_gb" 'BEGIN { n = int(s * g * 1024 + 0.5); if (n < 1) n = 1; print n }'
}

# stack_oplog_size_check: refuse (usage error, one line) an --oplog-size the stack cannot start
# with: on an engine whose oplog lives in its cache flag's store (inMemory) one that leaves the
# data no room there, and one that a fault's kept --oplogSize (LAB_SHARD_EXTRA_ARGS, below) would
# silently replace in compose/cluster.yml.
stack_oplog_size_check() {
  [[ -n ${OPLOG_SIZE_MB:-} ]] || return 0
  local share store_mb kept
  share=$(engine_field "$ENGINE" oplog_share)
  if [[ -n $share && $share != - ]]; then
    store_mb=$(awk -v g="$(profile_field "$PROFILE" data_cache_gb)" 'BEGIN { printf "%d", g * 1024 + 0.5 }')
    ((OPLOG_SIZE_MB < store_mb)) ||
      die_usage "--oplog-size $OPLOG_SIZE_MB: the $ENGINE engine keeps its oplog inside its $store_mb MB store (profile $PROFILE), which it would fill: give less than $store_mb (the lab's own is $(stack_oplog_mb "$ENGINE" "$PROFILE"))"
  fi
  kept=$(stack_shard_args)
  [[ " $kept " != *" --oplogSize "* || " $kept " == *" --oplogSize $OPLOG_SIZE_MB "* ]] ||
    die_usage "--oplog-size $OPLOG_SIZE_MB: the $ENGINE cluster was created by a fault with '$kept', which its members keep: './run.sh destroy --engine $ENGINE' first"
}

# The shard members' extra arguments a fault set (LAB_SHARD_EXTRA_ARGS), kept per engine: where
# and until when, DEVELOPERS.md "Stack contract". Without them a member recreated later (`up` of a
# partly running stack, resync, heal) got the stack's defaults: a 1024 MB oplog among 16 MB ones
# after stale-secondary, and a config differing from its running peers made Compose recreate every
# shard member at once.
STATE_ROOT="$LAB_ROOT/.state"
# stack_shard_args_path VAR [ENGINE]: VAR set to the record's path
stack_shard_args_path() { printf -v "$1" '%s' "$STATE_ROOT/${2:-$ENGINE}/shard-extra-args"; }
stack_shard_args_file() { local f; stack_shard_args_path f "$@"; echo "$f"; }
stack_shard_args() { local kept; stack_shard_args_read kept; echo "$kept"; }
# stack_shard_args_read VAR: VAR set to the record's line ("" when there is none), without a fork:
# every compose call reads it, and $(cat ...) cost three processes a call
stack_shard_args_read() {
  local f line=""
  stack_shard_args_path f
  [[ ! -r $f ]] || IFS= read -r line <"$f" || true
  printf -v "$1" '%s' "$line"
}

# stack_shard_args_with ARGS: the kept arguments plus ARGS (unless already among them).
stack_shard_args_with() {
  local kept
  kept=$(stack_shard_args)
  case " $kept " in *" $1 "*) echo "$kept" ;; *) echo "${kept:+$kept }$1" ;; esac
}

# stack_shard_args_keep ARGS / stack_shard_args_forget: write / remove the record (not under --dry-run).
stack_shard_args_keep() {
  [[ $DRY_RUN == 1 ]] && return 0
  mkdir -p "$(dirname "$(stack_shard_args_file)")"
  printf '%s\n' "$1" >"$(stack_shard_args_file)"
}
stack_shard_args_forget() { [[ $DRY_RUN == 1 ]] || rm -f "$(stack_shard_args_file)"; }

# The daemon's Docker Engine version (docker info ServerVersion: "28.5.1", Debian's
# "20.10.24+dfsg1"), "auto" until asked. stack_resolve_docker_server asks at most once per run and
# is called in the main shell (compose_with, preflight_docker) before a command line is built, so
# that the answer outlives the subshells that build it. A dry run asks nothing (it must work
# without Docker) and leaves it empty, as does a daemon that does not answer
# (DOCKER_SERVER_UNREACHABLE=1: preflight_docker stops the verb with one line).
DOCKER_SERVER_VERSION=auto
DOCKER_SERVER_UNREACHABLE=0
stack_resolve_docker_server() {
  [[ $DOCKER_SERVER_VERSION == auto ]] || return 0
  DOCKER_SERVER_VERSION=""
  if [[ ${DRY_RUN:-0} != 1 ]] && command -v docker >/dev/null 2>&1; then
    if ! DOCKER_SERVER_VERSION=$(docker info --format '{{.ServerVersion}}' 2>/dev/null); then
      DOCKER_SERVER_VERSION=""
      # shellcheck disable=SC2034 # read by preflight_docker (lib/preflight.sh)
      DOCKER_SERVER_UNREACHABLE=1
    fi
  fi
}

# version_older VERSION MAJOR MINOR: VERSION ("28.5.1", "2.21.0") is known and older than MAJOR.MINOR.
version_older() {
  [[ $1 =~ ^([0-9]+)\.([0-9]+) ]] || return 1
  local major=$((10#${BASH_REMATCH[1]})) minor=$((10#${BASH_REMATCH[2]}))
  ((major < $2 || (major == $2 && minor < $3)))
}

# stack_docker_server_older MAJOR MINOR: the daemon's engine is known and older than MAJOR.MINOR.
stack_docker_server_older() {
  stack_resolve_docker_server
  version_older "$DOCKER_SERVER_VERSION" "$@"
}

# stack_engine_has_start_interval: Compose may pass healthcheck start_interval: Engine 25 (API
# 1.44) or newer, or not known to be older (a dry run, an unreadable version).
stack_engine_has_start_interval() { ! stack_docker_server_older 25 0; }

# compose_argv ARGS...: the full docker compose command line, one word per line (NUL-free).
compose_argv() {
  echo env
  stack_env
  # the project name on a line of its own, straight from stack_project (no $(...): a fork a call)
  printf '%s\n' docker compose --project-directory "$LAB_ROOT" -p
  stack_project
  stack_files
  printf '%s\n' "$@"
}

# compose ARGS...: run docker compose for this engine's project (printed, not run, under --dry-run).
compose() { compose_with run "$@"; }
# compose_probe ARGS...: a read-only docker compose call (ps, config, exec of a read-only command);
# runs even under --dry-run so that the dry run can say what state it found.
compose_probe() { compose_with command "$@"; }

# compose_with RUNNER ARGS...: the Docker Engine version, the host view and placement resolved,
# then RUNNER and the command line.
compose_with() {
  local runner=$1 argv
  shift
  stack_resolve_docker_server
  if declare -F monitoring_resolve_host_view >/dev/null; then monitoring_resolve_host_view; fi
  if declare -F block_writes_resolve_limit >/dev/null; then block_writes_resolve_limit; fi
  placement_resolve
  stack_env_resolve
  mapfile -t argv < <(compose_argv "$@")
  "$runner" "${argv[@]}"
}

# Memory of a shard member, checked against the profile's data_mem before `up`: the
# engine's cache (whole GB for MongoRocks: rocks_global_options.cpp validRange(1, 10000)), what it
# holds beyond it and mongod's own allowance below (engines table cache_flag and
# mem_beyond_cache_mb, DEVELOPERS.md). A member over its limit is killed by the kernel (Docker's
# OOMKilled) in the middle of a run.
# MONGOD_OWN_MB: the lab's allowance for mongod itself (heap, a thread and its stack per
# connection, the oplog's and the replication's buffers); the lab's budget, not a server figure.
MONGOD_OWN_MB=512
WHOLE_GB_CACHE_FLAGS=(--rocksdbCacheSizeGB)

# stack_member_mem_mb ENGINE PROFILE: "need limit cache beyond own" in MB for one shard member.
stack_member_mem_mb() {
  local engine=$1 profile=$2 flag cache_gb cache_mb beyond limit
  flag=$(engine_field "$engine" cache_flag)
  cache_gb=$(profile_field "$profile" data_cache_gb)
  if [[ $flag == - ]]; then
    cache_mb=0
  elif grep -qxF -- "$flag" <<<"$(printf '%s\n' "${WHOLE_GB_CACHE_FLAGS[@]}")"; then
    cache_mb=$(($(stack_whole_gb "$cache_gb") * 1024))
  else
    cache_mb=$(awk -v g="$cache_gb" 'BEGIN { printf "%d", g * 1024 + 0.5 }')
  fi
  beyond=$(engine_field "$engine" mem_beyond_cache_mb)
  limit=$(($(mem_bytes "$(profile_field "$profile" data_mem)") >> 20))
  echo "$((cache_mb + beyond + MONGOD_OWN_MB)) $limit $cache_mb $beyond $MONGOD_OWN_MB"
}

# stack_memory_check: refuse (usage error, one line) an engine whose shard member does not fit the
# profile's data_mem, naming the profiles where it fits.
stack_memory_check() {
  local need limit cache beyond own p n l fits=()
  stack_oplog_size_check # inMemory's oplog is memory too: checked wherever the member's memory is
  read -r need limit cache beyond own < <(stack_member_mem_mb "$ENGINE" "$PROFILE")
  ((need > limit)) || return 0
  for p in $(profile_names); do
    read -r n l _ < <(stack_member_mem_mb "$ENGINE" "$p")
    ((n <= l)) && fits+=("$p")
  done
  die_usage "profile '$PROFILE' gives each shard member $(profile_field "$PROFILE" data_mem) and $ENGINE needs ${need} MB there (cache ${cache} MB, beyond the cache ${beyond} MB, mongod ${own} MB): $(
    ((${#fits[@]})) && echo "use --profile ${fits[*]}" || echo "no profile fits it (compose/profiles.tsv)")"
}
