# shellcheck shell=bash
# Fault scenarios (issue 5): ./run.sh fault replica-lag|stale-secondary|failover|heal, ./run.sh resync.
# Reproduces on purpose what seeds/004 hit by accident (lagging secondaries, "too stale to catch
# up"), plus Jepsen's lost-write check across a failover. failover, replica-lag, heal and resync
# are one long-lived fault process each (loader/src/faults/scenarios/<name>.js, in the fault-tool
# service, compose/faults.yml), whose Docker actions lib/fault-bridge.sh performs; stale-secondary
# still runs one-shot loader/bin/lab-fault.js steps from here.
# Each scenario writes results/fault-<scenario>/<engine>/<UTC>/ (timeline.ndjson, summary.json,
# step-*.json, logs) and a `latest` link, and ends with one verdict line.
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

# fault_run_dir SCENARIO: FAULT_RUN (host, relative to LAB_ROOT) and FAULT_RUN_C (in containers).
# A new folder per run, never an existing one (two runs in one second get -2, -3, ...).
fault_run_dir() {
  local base="results/fault-$1/$ENGINE" stamp n=1
  stamp=$(date -u +%Y%m%dT%H%M%SZ)
  FAULT_RUN_NAME=$stamp
  while [[ -e $LAB_ROOT/$base/$FAULT_RUN_NAME ]]; do n=$((n + 1)); FAULT_RUN_NAME="$stamp-$n"; done
  FAULT_RUN="$base/$FAULT_RUN_NAME"
  FAULT_RUN_C="/lab/results/fault-$1/$ENGINE/$FAULT_RUN_NAME"
  if [[ $DRY_RUN == 1 ]]; then
    info "results: $FAULT_RUN/ (not created under --dry-run)"
  else
    mkdir -p "$LAB_ROOT/$FAULT_RUN"
    ln -sfn "$FAULT_RUN_NAME" "$LAB_ROOT/$base/latest"
    info "results: $FAULT_RUN/"
  fi
}

# fault_plan LINES...: the plan, printed before anything runs (and all that --dry-run adds to the
# commands themselves).
fault_plan() {
  local l
  info "plan:"
  for l in "$@"; do info "  $l"; done
}

fault_step() { info ""; info "== $*"; }

# Background steps (load, failover writers): started detached from the terminal, output to a file
# in the run folder, stopped through a stop file the step polls. Bounded by their own --max-seconds.
FAULT_BG_PIDS=()
fault_bg() {
  local name=$1
  shift
  if [[ $DRY_RUN == 1 ]]; then
    local argv
    mapfile -t argv < <(compose_argv run --rm --no-deps -T --name "$(stack_project)-fault-$name" fault-tool "$@")
    printf '+ %s > %s 2>&1 &\n' "$(quote_cmd "${argv[@]}")" "$FAULT_RUN/$name.out"
    return 0
  fi
  # a leftover of an interrupted run would add its own load to this one's measurements
  docker rm -f "$(stack_project)-fault-$name" >/dev/null 2>&1 || true
  compose run --rm --no-deps -T --name "$(stack_project)-fault-$name" fault-tool "$@" >"$LAB_ROOT/$FAULT_RUN/$name.out" 2>&1 &
  FAULT_BG_PIDS+=("$!")
  info "$name: running in the background, output in $FAULT_RUN/$name.out"
}

fault_bg_stop() {
  [[ $DRY_RUN == 1 ]] && { info "+ touch $FAULT_RUN/stop   # background steps end within a second"; return 0; }
  [[ -n ${FAULT_RUN:-} ]] && touch "$LAB_ROOT/$FAULT_RUN/stop"
  local pid
  for pid in "${FAULT_BG_PIDS[@]}"; do wait "$pid" 2>/dev/null || true; done
  FAULT_BG_PIDS=()
}

# The undo of the fault in force, run by the EXIT trap if the scenario stops half-way (error,
# Ctrl-C) so that nothing is left broken silently.
FAULT_UNDO=()
fault_on_exit() {
  local rc=$?
  trap - EXIT
  if ((${#FAULT_BG_PIDS[@]})); then fault_bg_stop; fi
  if ((${#FAULT_UNDO[@]})) && [[ $DRY_RUN != 1 ]]; then
    info "undoing the fault in force: ${FAULT_UNDO[*]}"
    "${FAULT_UNDO[@]}" || true
  fi
  if ((rc != 0)) && [[ $DRY_RUN != 1 ]]; then
    info "the scenario stopped early (exit $rc). If anything is left (a stopped member, a lock, netem): ./run.sh fault heal --engine $ENGINE"
  fi
  exit "$rc"
}

fault_summarize() {
  local scenario=$1
  shift
  local params=() p
  for p in "engine=$ENGINE" "$@"; do params+=(--param "$p"); done
  fault_step "verdict"
  fault_tool summarize --run-dir "$FAULT_RUN_C" --scenario "$scenario" "${params[@]}"
}

fault_watch() { fault_tool watch --timeline "$FAULT_RUN_C/timeline.ndjson" "$@"; }

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

# fault_begin SCENARIO LOAD_SECONDS: the common start of replica-lag and stale-secondary once the
# stack is up: pick and check the member, open the results folder, arm the EXIT trap, start the
# background load (bounded to LOAD_SECONDS), record 5 s of baseline.
fault_begin() {
  fault_pick_member
  fault_step "is $FAULT_MEMBER a secondary?"
  fault_check_secondary "$FAULT_MEMBER"
  fault_run_dir "$1"
  trap fault_on_exit EXIT
  fault_step "background load"
  fault_bg load load --stop-file "$FAULT_RUN_C/stop" --max-seconds "$2"
  fault_watch --member "$FAULT_MEMBER" --until never --timeout 5 --phase baseline || true
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

# fault_pick_member: without --member, shard01-c if it is a SECONDARY now, else another secondary
# (after a failover any member may be the primary). Sets FAULT_MEMBER.
fault_pick_member() {
  ((FAULT_MEMBER_GIVEN)) && return 0
  local picked=""
  if [[ $DRY_RUN == 1 ]]; then
    fault_stack_up && picked=$(fault_tool_probe pick-secondary --prefer "$FAULT_DEFAULT_MEMBER" 2>/dev/null | tail -1 || true)
  else
    picked=$(fault_tool pick-secondary --prefer "$FAULT_DEFAULT_MEMBER" | tail -1) ||
      die_env "could not find a SECONDARY in the shard; ./run.sh status --engine $ENGINE"
  fi
  if [[ " ${FAULT_MEMBERS[*]} " == *" $picked "* ]]; then FAULT_MEMBER=$picked; fi
  info "member: $FAULT_MEMBER$([[ $DRY_RUN == 1 && -z $picked ]] && echo " (a real run picks a live SECONDARY, $FAULT_DEFAULT_MEMBER if it is one)")"
}

# fault_check_secondary MEMBER: live check; not a secondary -> usage error (exit 2) naming the ones
# that are. Under --dry-run it only says what a real run checks when the stack is not up.
fault_check_secondary() {
  if [[ $DRY_RUN == 1 ]]; then
    if fault_stack_up; then fault_tool_probe state --member "$1" --expect SECONDARY || true
    else info "(a real run checks live that $1 is SECONDARY; the stack is not up now)"; fi
    return 0
  fi
  local rc=0
  fault_tool state --member "$1" --expect SECONDARY || rc=$?
  case $rc in
    0) return 0 ;;
    2) die_usage "$1 is not a SECONDARY now; pick one that is (see ./run.sh status --engine $ENGINE)" ;;
    *) die_env "could not read the state of $1 (exit $rc); is the $ENGINE stack healthy? ./run.sh status --engine $ENGINE" ;;
  esac
}

# ---- stale-secondary ------------------------------------------------------------------------------------
fault_stale_secondary() {
  local m=$FAULT_MEMBER n=$FAULT_OPLOG_MB fresh=1
  STACK_EXTRA_ENV+=("LAB_SHARD_EXTRA_ARGS=--oplogSize $n")
  # the answer is the probe's exit code (0: every member already has the small oplog), not its output
  if fault_stack_up && fault_tool_probe oplog-size --expect "$n" >/dev/null 2>&1; then fresh=0; fi
  fault_plan \
    "member: $m$( ((FAULT_MEMBER_GIVEN)) || echo ' by default, or another SECONDARY if it is not one now') (must be SECONDARY, checked live); oplog: $n MB on every shard member" \
    "1. $([[ $fresh == 1 ]] && echo "DESTROY the $ENGINE cluster (its volumes) and create it again with LAB_SHARD_EXTRA_ARGS=--oplogSize $n: mongod honours --oplogSize only when it creates the oplog" || echo "the running $ENGINE cluster already has $n MB oplogs on every shard member: reused")" \
    "2. background write load through mongos (w:1; the primary + the other secondary keep the majority commit point moving)" \
    "3. record $m's last optime, docker compose stop $m, bound its last optime by the primary's newest oplog entry" \
    "4. keep writing until the oldest oplog entry of BOTH other members is newer than that optime (read from their oplogs every second; truncation waits for a checkpoint, ~60 s)" \
    "5. docker compose start $m; wait until it is RECOVERING (or SECONDARY); collect its log since the start" \
    "6. evidence: state, infoMessage, the too-stale log lines (ids 5579708, 21126), optimes, oplog windows" \
    "$(engine_is "$ENGINE" keeps_data || echo "$ENGINE: a restarted member has no data at all, so it initial-syncs by itself instead of going too stale; the verdict says what it saw")"
  if [[ $fresh == 1 ]]; then
    if [[ $ASSUME_YES != 1 && $DRY_RUN != 1 ]]; then
      die_usage "stale-secondary needs an oplog created with --oplogSize $n: this DESTROYS the $ENGINE cluster's data and recreates it; rerun with --yes"
    fi
    fault_step "recreate the $ENGINE cluster with a $n MB oplog"
    verb_destroy
  fi
  fault_step "stack up"
  verb_up
  fault_image
  fault_begin stale-secondary 3600
  m=$FAULT_MEMBER
  fault_step "stop $m"
  fault_tool optime --member "$m" --out "$FAULT_RUN_C/step-optime-before-stop.json"
  FAULT_UNDO=(compose start "$m")
  compose stop "$m"
  fault_tool optime-bound --member "$m" --out "$FAULT_RUN_C/optime.json"
  fault_step "write until both healthy members' oplogs dropped $m's last optime"
  local rc=0
  fault_watch --member "$m" --until rolled-past --optime-file "$FAULT_RUN_C/optime.json" --timeout 1800 \
    --phase roll --result "$FAULT_RUN_C/step-stale-past.json" || rc=$?
  ((rc == 0 || rc == 3)) || die_env "watching the oplogs failed (exit $rc)"
  fault_step "restart $m"
  local since
  since=$(date -u +%Y-%m-%dT%H:%M:%SZ)
  compose start "$m"
  FAULT_UNDO=()
  fault_watch --member "$m" --until 'state=RECOVERING|SECONDARY' --timeout 600 --phase restart || true
  # A restarting member passes through RECOVERING anyway; "too stale" is decided only after it has
  # tried every sync source (ids 5579708 per candidate, then 21126). So: look at its log every
  # 10 s until the 21126 (or RS102) line is there or it is SECONDARY, for at most 3 minutes.
  local i log="$LAB_ROOT/$FAULT_RUN/$m.log"
  for ((i = 0; i < 18; i++)); do
    fault_watch --member "$m" --until never --timeout 10 --phase settle --result "$FAULT_RUN_C/step-stale-state.json" || true
    if [[ $DRY_RUN == 1 ]]; then
      compose logs --no-color --no-log-prefix --since "$since" "$m"
      info "+ (the output above goes to $FAULT_RUN/$m.log; repeated every 10 s for up to 3 minutes until it holds id 21126 or $m is SECONDARY)"
      break
    fi
    compose logs --no-color --no-log-prefix --since "$since" "$m" >"$log" 2>&1 || true
    grep -qE '"id":21126|RS102' "$log" && break
    grep -qE '"finalState": "SECONDARY"' "$LAB_ROOT/$FAULT_RUN/step-stale-state.json" 2>/dev/null && break
  done
  fault_bg_stop
  trap - EXIT
  fault_step "evidence"
  fault_tool evidence --member "$m" --log "$FAULT_RUN_C/$m.log" --result "$FAULT_RUN_C/step-evidence.json" \
    --optime-file "$FAULT_RUN_C/optime.json"
  local rc2=0
  fault_summarize stale-secondary "member=$m" "oplog_size_mb=$n" || rc2=$?
  info "recover $m by initial sync: ./run.sh resync $m --engine $ENGINE"
  info "the $ENGINE cluster keeps its $n MB oplogs; ./run.sh destroy --engine $ENGINE --yes && ./run.sh up --engine $ENGINE restores the default size"
  return "$rc2"
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
# leftover one-shot load containers of the old-path scenarios; the process does the rest.
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
# destroy removes afterwards. fsyncLock is smoked on wiredtiger; inmemory's replica-lag uses the
# failpoint (fsyncLock on Percona's inMemory engine is not verified here).
smoke_faults() {
  local eng=${1:-$ENGINE} args scen
  local -a runs=()
  if [[ $eng == inmemory ]]; then
    runs+=("fault replica-lag --method failpoint --threshold 20s")
  else
    runs+=("fault replica-lag --method fsync --threshold 20s" "fault replica-lag --method failpoint --threshold 20s")
  fi
  runs+=(
    "fault replica-lag --method netem --threshold 10s"
    "fault failover --w majority"
    "fault failover --w 1"
    "fault failover --w majority --how kill"
    "fault stale-secondary --yes"
    "resync STALE_MEMBER"
    "fault heal"
  )
  local failed=0
  for args in "${runs[@]}"; do
    if [[ $args == *STALE_MEMBER ]]; then # the member stale-secondary made stale (picked live)
      local stale
      stale=$(grep -oE '"member": "shard01-[abc]"' "$LAB_ROOT/results/fault-stale-secondary/$eng/latest/summary.json" 2>/dev/null | head -1 | cut -d'"' -f4 || true)
      args=${args/STALE_MEMBER/${stale:-shard01-c}}
    fi
    # shellcheck disable=SC2086  # each entry is a word list on purpose
    smoke_check "$eng: $args" smoke_lab $args || true
    if [[ $args == fault\ replica-lag* || $args == fault\ stale-secondary* || $args == fault\ failover* ]] && [[ $DRY_RUN != 1 ]]; then
      scen=${args#fault }
      scen=${scen%% *}
      smoke_check "$eng: $args: summary.json says pass" \
        grep -q '"pass": true' "$LAB_ROOT/results/fault-$scen/$eng/latest/summary.json"
    fi
  done
  ((SMOKE_FAILED == 0)) || failed=1
  return "$failed"
}
