# shellcheck shell=bash
# Fault scenarios (issue 5): ./run.sh fault replica-lag|stale-secondary|failover|heal, ./run.sh resync.
# Reproduces on purpose what seeds/004 hit by accident (lagging secondaries, "too stale to catch
# up"), plus Jepsen's lost-write check across a failover. Every scenario is one long-lived fault
# process (loader/src/faults/scenarios/<name>.js, in the fault-tool service, compose/faults.yml)
# whose Docker actions lib/fault-bridge.sh performs. bash keeps flag parsing, the stack (up,
# destroy, the failpoint restart with LAB_SHARD_EXTRA_ARGS) and the Docker facts it passes in.
# Each process writes results/fault-<scenario>/<engine>/<UTC>/ (timeline.ndjson, summary.json,
# step-*.json, logs; src/results.js) and a `latest` link, and ends with one verdict line.
# Exit codes: 0 verdict PASS, 1 environment error or verdict FAIL, 2 usage error.

# shellcheck source=lib/fault-bridge.sh
source "$LAB_ROOT/lib/fault-bridge.sh"

# the shard's members, from compose/topology.tsv (lib/tables.sh); the default member is the last
mapfile -t FAULT_MEMBERS < <(topology_services shard)
FAULT_DEFAULT_MEMBER=${FAULT_MEMBERS[${#FAULT_MEMBERS[@]} - 1]}
FAULT_SCENARIOS="replica-lag stale-secondary failover heal"
FAULT_METHODS="fsync failpoint netem"
# fsyncLock is the default lag method: it works on the stock images with no restart and no extra
# privilege, and it is deterministic (lag grows one second per second while the member's applier
# waits on the lock, heartbeats stay healthy, so no election). The failpoint needs
# enableTestCommands=1, i.e. a restart into a test-only configuration; netem needs a sidecar with
# NET_ADMIN and shapes only the member's egress, so the lag it produces depends on the load.
FAULT_DEFAULT_METHOD=fsync

fault_flags_usage() {
  cat <<USAGE
  fault replica-lag       slow one secondary, print its lag every second, assert --threshold, heal
    --member NAME         $(IFS='|'; echo "${FAULT_MEMBERS[*]}"), must be a SECONDARY now (default $FAULT_DEFAULT_MEMBER)
    --method M            fsync (default: fsyncLock on the member itself; stock images, no restart),
                          failpoint (rsSyncApplyStop; RESTARTS the shard members with
                          --setParameter enableTestCommands=1), netem (delay 100ms + rate 64kbit
                          from a sidecar in the member's network namespace)
    --threshold DUR       lag to reach, e.g. 30s, 2m (default 30s)
  fault stale-secondary   small oplog, stop a secondary, write until both healthy oplogs dropped its
                          last optime, restart it, show RECOVERING + "too stale" evidence
    --member NAME         as above (default $FAULT_DEFAULT_MEMBER)
    --oplog-size-mb N     oplog size (default 16). Honoured only when the oplog is created: unless
                          the running cluster already has it, the engine's cluster is DESTROYED and
                          recreated (needs --yes)
  fault failover          writers with unique ids, primary killed or partitioned mid-load,
                          majority read, Jepsen set checker (ok / lost / unexpected / recovered)
    --w 1|majority        write concern of the writers (required)
    --how partition|kill  partition: iptables in the primary's namespace cut it off from the other
                          members but not from clients (default; keeps accepting w:1 writes ~10 s);
                          kill: docker kill -s SIGKILL, then start
  fault heal              undo whatever a scenario may have left: start stopped members, remove
                          netem/partition, failpoints off, fsyncUnlock, stop fault load
  resync MEMBER           stop MEMBER, delete its data volume, start it, wait for initial sync
                          to finish (SECONDARY)
  --dry-run prints the plan, the exact docker commands and the member each acts on.
USAGE
}

# ---- flags -------------------------------------------------------------------------------------------
FAULT_MEMBER=""
FAULT_MEMBER_GIVEN=0
FAULT_METHOD=""
FAULT_THRESHOLD=30s
FAULT_THRESHOLD_MS=30000
FAULT_OPLOG_MB=16
FAULT_W=""
FAULT_HOW=partition

# parse_fault_flags SCENARIO ARGS...: each flag is accepted only by the scenario it applies to.
parse_fault_flags() {
  local scenario=$1
  shift
  local allowed
  case $scenario in
    replica-lag) allowed=" --member --method --threshold " ;;
    stale-secondary) allowed=" --member --oplog-size-mb " ;;
    failover) allowed=" --w --how " ;;
    *) allowed=" " ;;
  esac
  local FLAG VALUE SHIFT_BY flag value
  while (($#)); do
    split_flag "$@" || die_usage "fault $scenario does not take '$1'"
    flag=$FLAG value=$VALUE
    shift "$SHIFT_BY"
    [[ $allowed == *" $flag "* ]] || die_usage "fault $scenario does not take $flag"
    [[ -n $value ]] || die_usage "$flag needs a value"
    case $flag in
      --member) FAULT_MEMBER=$value; FAULT_MEMBER_GIVEN=1 ;;
      --method) FAULT_METHOD=$value ;;
      --threshold) FAULT_THRESHOLD=$value ;;
      --oplog-size-mb) FAULT_OPLOG_MB=$value ;;
      --w) FAULT_W=$value ;;
      --how) FAULT_HOW=$value ;;
    esac
  done
  FAULT_MEMBER=${FAULT_MEMBER:-$FAULT_DEFAULT_MEMBER}
  FAULT_METHOD=${FAULT_METHOD:-$FAULT_DEFAULT_METHOD}
  fault_validate_member "$FAULT_MEMBER"
  [[ " $FAULT_METHODS " == *" $FAULT_METHOD "* ]] ||
    die_usage "unknown --method '$FAULT_METHOD' (choose one of: $FAULT_METHODS)"
  # what an engine cannot do is in its row of compose/engines.tsv, never in a name test here
  [[ $scenario != replica-lag ]] || engine_has_fault_method "$ENGINE" "$FAULT_METHOD" ||
    die_usage "--method $FAULT_METHOD does not apply to engine $ENGINE (its fault_methods: $(engine_field "$ENGINE" fault_methods))"
  # The lab's one duration grammar (lib/common.sh parse_duration; the loader's is the same).
  parse_duration --threshold "$FAULT_THRESHOLD" || die_usage "$DURATION_ERROR"
  FAULT_THRESHOLD_MS=$DURATION_MS
  ((FAULT_THRESHOLD_MS >= 3000)) || die_usage "--threshold must be at least 3s (replSetGetStatus lag has a few seconds of error)"
  { is_uint "$FAULT_OPLOG_MB" && ((FAULT_OPLOG_MB >= 1)); } || die_usage "--oplog-size-mb must be a whole number >= 1 (got '$FAULT_OPLOG_MB')"
  if [[ $scenario == failover ]]; then
    # the verdict reads every write back with readConcern majority (loader/src/faults/setcheck.js)
    engine_is "$ENGINE" majority_reads ||
      die_usage "fault failover does not apply to engine $ENGINE: its verdict reads every write back with readConcern majority, which this engine does not serve reliably (compose/engines.tsv majority_reads: no)"
    [[ -n $FAULT_W ]] || die_usage "fault failover needs --w 1 or --w majority"
    [[ $FAULT_W == 1 || $FAULT_W == majority ]] || die_usage "--w must be 1 or majority (got '$FAULT_W')"
    [[ $FAULT_HOW == partition || $FAULT_HOW == kill ]] || die_usage "--how must be partition or kill (got '$FAULT_HOW')"
  fi
}

fault_validate_member() {
  [[ " ${FAULT_MEMBERS[*]} " == *" $1 "* ]] ||
    die_usage "unknown member '$1' (choose one of: ${FAULT_MEMBERS[*]})"
}

# ---- helpers -----------------------------------------------------------------------------------------
# fault_tool ARGS: one lab-fault.js step in the fault-tool container (printed under --dry-run).
fault_tool() { compose run --rm --no-deps -T fault-tool "$@"; }
# fault_tool_probe ARGS: a read-only step that runs even under --dry-run (state, primary, sizes).
fault_tool_probe() { compose_probe run --rm --no-deps -T fault-tool "$@"; }

fault_running_services() { compose_probe ps --services --status running 2>/dev/null || true; }

# fault_stack_up: true when at least one shard member runs.
fault_stack_up() {
  local running m
  running=$(fault_running_services)
  for m in "${FAULT_MEMBERS[@]}"; do
    grep -qxF "$m" <<<"$running" && return 0
  done
  return 1
}

fault_require_stack() {
  fault_stack_up && return 0
  [[ $DRY_RUN == 1 ]] && { info "note: the $ENGINE stack is not up now; a real run would stop here (exit 1)"; return 0; }
  die_env "the $ENGINE stack is not up (no shard member running); start it with: ./run.sh up --engine $ENGINE"
}

# fault_results_root: results/ must exist before fault-tool mounts it: a missing bind source is
# created by the Docker daemon, owned by root, and later runs could not write into it.
fault_results_root() { [[ $DRY_RUN == 1 ]] || mkdir -p "$LAB_ROOT/results"; }

# fault_image: build the image fault-tool runs (the loader's; cached after the first build), so a
# scenario never runs lab-fault.js older than the checkout.
fault_image() {
  compose build fault-tool || die_env "building the fault tool's image (images/loader/Dockerfile) failed; see the output above"
}

fault_step() { info ""; info "== $*"; }

# ---- verb --------------------------------------------------------------------------------------------
verb_fault() {
  local scenario=${1:-}
  [[ -n $scenario ]] || die_usage "fault needs a scenario (choose one of: $FAULT_SCENARIOS)"
  shift
  [[ " $FAULT_SCENARIOS " == *" $scenario "* ]] ||
    die_usage "unknown fault scenario '$scenario' (choose one of: $FAULT_SCENARIOS)"
  parse_fault_flags "$scenario" "$@"
  fault_results_root
  case $scenario in
    replica-lag) fault_replica_lag ;;
    stale-secondary) fault_stale_secondary ;;
    failover) fault_failover ;;
    heal) fault_heal ;;
  esac
}

# ---- replica-lag (new path: one fault process, loader/src/faults/scenarios/replica-lag.js) --------------
# The failpoint method needs --setParameter enableTestCommands=1: bash restarts the members into it
# before the process starts; the live member pick and check, the load, the fault and its undo, the
# watches and the verdict are the process's.
fault_replica_lag() {
  if [[ $FAULT_METHOD == failpoint ]]; then
    info "failpoint: the shard members are RESTARTED into a test-only configuration (LAB_SHARD_EXTRA_ARGS=--setParameter enableTestCommands=1: configureFailPoint needs it)"
    STACK_EXTRA_ENV+=("LAB_SHARD_EXTRA_ARGS=--setParameter enableTestCommands=1")
  fi
  fault_step "stack up"
  verb_up
  fault_image
  if [[ $FAULT_METHOD == failpoint ]]; then
    # `up` leaves a running stack alone, so the flag reaches running members only by recreating
    # them: one at a time, each back to healthy before the next (Compose leaves a member that
    # already runs with the flag untouched).
    fault_step "restart the shard members with enableTestCommands=1 (test-only; they keep it until the next down/up)"
    local x
    for x in "${FAULT_MEMBERS[@]}"; do
      compose up -d --no-deps --wait "$x"
      fault_tool watch --until healthy --timeout 300 --phase restart ||
        die_env "the shard did not become healthy after restarting $x; ./run.sh status --engine $ENGINE"
    done
  fi
  local args=(--method "$FAULT_METHOD" --threshold "$FAULT_THRESHOLD")
  ((FAULT_MEMBER_GIVEN)) && args+=(--member "$FAULT_MEMBER")
  fault_process replica-lag "${args[@]}"
}

# ---- stale-secondary (new path: one fault process, loader/src/faults/scenarios/stale-secondary.js) -------
# bash keeps what is bash's: whether the running cluster already has the oplog size (the probe's
# exit code), and destroying/recreating it with LAB_SHARD_EXTRA_ARGS=--oplogSize N (mongod honours
# it only when it creates the oplog). The member pick and check, load, stop/start, the oplog watch,
# the log, the evidence and the verdict are the process's.
fault_stale_secondary() {
  local n=$FAULT_OPLOG_MB fresh=1
  STACK_EXTRA_ENV+=("LAB_SHARD_EXTRA_ARGS=--oplogSize $n")
  # the answer is the probe's exit code (0: every member already has the small oplog), not its output
  if fault_stack_up && fault_tool_probe oplog-size --expect "$n" >/dev/null 2>&1; then fresh=0; fi
  if [[ $fresh == 1 ]]; then
    info "oplog: DESTROY the $ENGINE cluster (its volumes) and create it again with LAB_SHARD_EXTRA_ARGS=--oplogSize $n: mongod honours --oplogSize only when it creates the oplog"
    if [[ $ASSUME_YES != 1 && $DRY_RUN != 1 ]]; then
      die_usage "stale-secondary needs an oplog created with --oplogSize $n: this DESTROYS the $ENGINE cluster's data and recreates it; rerun with --yes"
    fi
    fault_step "recreate the $ENGINE cluster with a $n MB oplog"
    verb_destroy
  else
    info "oplog: the running $ENGINE cluster already has $n MB oplogs on every shard member: reused"
  fi
  fault_step "stack up"
  verb_up
  fault_image
  local args=(--oplog-size-mb "$n")
  ((FAULT_MEMBER_GIVEN)) && args+=(--member "$FAULT_MEMBER")
  fault_process stale-secondary "${args[@]}"
}

# ---- failover (new path: one fault process, loader/src/faults/scenarios/failover.js) ---------------------
fault_failover() {
  fault_step "stack up"
  verb_up
  fault_image
  # the live primary, the plan, the writers, kill/partition and heal (asked of fault_bridge), the
  # watches, the set checker, the rollback listing and the verdict are all the process's
  fault_process failover --w "$FAULT_W" --how "$FAULT_HOW"
}

# ---- heal (new path: one fault process, loader/src/faults/scenarios/heal.js) ------------------------------
# bash reads the Docker facts (which members are stopped, whether netem ever ran here) and removes
# a leftover load container of an older checkout (its load ran in its own container); the process does the rest.
fault_heal() {
  local running m stopped=() netem=no
  running=$(fault_running_services)
  if ! fault_stack_up; then
    [[ $DRY_RUN == 1 ]] || die_env "the $ENGINE stack is not up (no shard member running): nothing to heal. Start it with: ./run.sh up --engine $ENGINE"
    info "note: the $ENGINE stack is not up now; a real run would stop here (exit 1)"
  fi
  for m in "${FAULT_MEMBERS[@]}"; do grep -qxF "$m" <<<"$running" || stopped+=("$m"); done
  docker image inspect lab-netem:local >/dev/null 2>&1 && netem=yes
  fault_image
  run docker rm -f "$(stack_project)-fault-load" >/dev/null 2>&1 || true
  local list
  printf -v list '%s,' "${stopped[@]}"
  fault_process heal --stopped "${list%,}" --netem "$netem"
}

# ---- resync (new path: one fault process, loader/src/faults/scenarios/resync.js) -------------------------
verb_resync() {
  (($# >= 1)) || die_usage "resync needs a member (choose one of: ${FAULT_MEMBERS[*]})"
  (($# == 1)) || die_usage "resync does not take '$2'"
  fault_validate_member "$1"
  fault_results_root
  fault_require_stack
  fault_image
  # the plan, the PRIMARY refusal (exit 2), stop/rm/volume rm/up and the watch are the process's
  fault_process resync --member "$1"
}

# ---- smoke (Docker host) -------------------------------------------------------------------------------
# smoke_faults ENGINE: lib/smoke.sh calls it with the engine's stack up (./run.sh smoke --faults).
# Every scenario once; each must exit 0 (verdict PASS) and leave summary.json with "pass": true.
# ~20 minutes per engine: stale-secondary recreates the cluster with a 16 MB oplog, which smoke's
# destroy removes afterwards. Facts from the tables: replica-lag runs each method of the engine's
# fault_methods (compose/engines.tsv), except fsyncLock on an engine that keeps no data (keeps_data
# no: not verified there); resync takes the member stale-secondary named in its summary, one of
# the shard members of compose/topology.tsv.
smoke_faults() {
  local eng=${1:-$ENGINE} args scen method
  local -a runs=()
  for method in $FAULT_METHODS; do
    engine_has_fault_method "$eng" "$method" || continue
    [[ $method == fsync ]] && ! engine_is "$eng" keeps_data && continue
    case $method in
      netem) runs+=("fault replica-lag --method netem --threshold 10s") ;;
      *) runs+=("fault replica-lag --method $method --threshold 20s") ;;
    esac
  done
  # failover only where its majority read back applies (engines.tsv majority_reads)
  if engine_is "$eng" majority_reads; then
    runs+=("fault failover --w majority" "fault failover --w 1" "fault failover --w majority --how kill")
  fi
  runs+=(
    "fault stale-secondary --yes"
    "resync STALE_MEMBER"
    "fault heal"
  )
  local failed=0
  for args in "${runs[@]}"; do
    if [[ $args == *STALE_MEMBER ]]; then # the member stale-secondary made stale (picked live)
      local stale
      # the summary stale-secondary's own run wrote (smoke_new_result), never `latest`
      stale=$(fault_summary_member "$(smoke_new_result fault-stale-secondary "$eng")/summary.json")
      args=${args/STALE_MEMBER/${stale:-$FAULT_DEFAULT_MEMBER}}
    fi
    # shellcheck disable=SC2086  # each entry is a word list on purpose
    smoke_check "$eng: $args" smoke_lab $args || true
    if [[ $args == fault\ replica-lag* || $args == fault\ stale-secondary* || $args == fault\ failover* ]] && [[ $DRY_RUN != 1 ]]; then
      scen=${args#fault }
      scen=${scen%% *}
      # the folder this very run wrote (smoke_result_grep), never `latest`: a run that wrote no
      # summary must not be judged by an earlier run's
      smoke_check "$eng: $args: summary.json says pass" \
        smoke_result_grep "fault-$scen" "$eng" summary.json '"pass": true'
    fi
  done
  ((SMOKE_FAILED == 0)) || failed=1
  return "$failed"
}

# fault_summary_member FILE: the first "member" a summary names (its params, else its evidence),
# printed only when it is a shard member of the topology table.
fault_summary_member() {
  local m
  m=$(grep -oE '"member": "[^"]+"' "$1" 2>/dev/null | head -1 | cut -d'"' -f4 || true)
  [[ -n $m && " ${FAULT_MEMBERS[*]} " == *" $m "* ]] && echo "$m"
  return 0
}
