# shellcheck shell=bash
# ./run.sh fault SCENARIO [flags] and ./run.sh resync MEMBER. The scenario modules, their flags
# (passed on unread), hooks, results and exit codes: DEVELOPERS.md "Adding a fault"; here the
# stack hooks (below) and the one fault process, whose Docker requests lib/fault-bridge.sh answers.

# shellcheck source=lib/fault-bridge.sh
source "$LAB_ROOT/lib/fault-bridge.sh"

FAULT_SCENARIO_DIR=loader/src/faults/scenarios

# fault_scenario_names: the scenario modules' names (the folder is the registry).
fault_scenario_names() {
  local f
  for f in "$LAB_ROOT/$FAULT_SCENARIO_DIR"/*.js; do [[ -f $f ]] && basename "$f" .js; done
}

# fault_flags_usage: the "Fault flags" of ./run.sh help, from the modules (lab-fault.js usage).
fault_flags_usage() {
  if loader_on_host; then
    node "$LAB_ROOT/loader/bin/lab-fault.js" usage
  else
    printf '  fault %s\n%s\n' "$(fault_scenario_names | paste -sd'|' -)" \
      "                          (each scenario's flags: node loader/bin/lab-fault.js usage, after 'cd loader && npm ci')"
  fi
  cat <<USAGE
  resync MEMBER           = fault resync --member MEMBER
  --dry-run prints the plan, the exact docker commands and the member each acts on.
USAGE
}

# fault_tool ARGS: one lab-fault.js step in the fault-tool container (printed under --dry-run).
fault_tool() { compose run --rm --no-deps -T fault-tool "$@"; }
# fault_tool_probe ARGS: a read-only step that runs even under --dry-run (state, primary, sizes).
fault_tool_probe() { compose_probe run --rm --no-deps -T fault-tool "$@"; }

# fault_stack_up: true when at least one shard member runs.
# (one grep per member: lib/fault-bridge.sh fault_stopped_members says why not `grep -f`)
fault_stack_up() {
  local running m
  running=$(fault_running_services)
  for m in $(fault_shard_members); do
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

# fault_check SCENARIO ARGS...: the module checks its flags (`lab-fault.js check`, which connects
# to nothing; exit 2 with its one line) and names its stack hooks: FAULT_HOOKS, one request line
# each. On this host when it has Node.js, else in the fault tool's image; a dry run without either
# says the process checks them when it starts.
FAULT_HOOKS=()
fault_check() {
  local out rc=0
  if loader_on_host; then
    out=$(node "$LAB_ROOT/loader/bin/lab-fault.js" check "$@" --engine "$ENGINE" 2>&1) || rc=$?
  elif [[ $DRY_RUN == 1 ]]; then
    info "note: node or loader/node_modules not found on this host: the fault process checks the $1 flags when it starts"
    return 0
  else
    preflight_compose # the image build below printed docker's help without it
    fault_image
    out=$(fault_tool_probe check "$@" --engine "$ENGINE" 2>&1) || rc=$?
  fi
  if ((rc != 0)); then
    out=$(grep -m1 -E '^(error|lab-fault): ' <<<"$out" || head -1 <<<"$out")
    ((rc == 2)) && die_usage "${out#error: }"
    die_env "the fault tool could not check the flags (exit $rc): ${out#lab-fault: }"
  fi
  mapfile -t FAULT_HOOKS < <(grep $'^@lab-docker\t' <<<"$out" || true)
}

# fault_hooks PHASE: perform the hooks the module asked for, each at PHASE (before|after `up`).
fault_hooks() {
  local line
  local -a w
  for line in "${FAULT_HOOKS[@]}"; do
    IFS=$'\t' read -r -a w <<<"$line"
    { fault_action_argv "${w[@]:2}" && [[ $FAULT_KIND == hook && ${FAULT_ARGV[0]} == fault_hook_* ]]; } ||
      die_env "the fault tool asked for '${w[2]:-}' as a stack hook: ${FAULT_WHY:-not a hook in $FAULT_OPS_TSV}"
    "${FAULT_ARGV[0]}" "$1" "${FAULT_ARGV[@]:1}"
  done
}

# ---- the named stack hooks (docker-ops.tsv kind hook) -------------------------------------------
FAULT_RUNNING_STACK=0
# running-stack: the scenario acts on the running cluster and never starts one (heal, resync).
fault_hook_running_stack() { [[ $1 == before ]] && FAULT_RUNNING_STACK=1 && fault_require_stack; return 0; }

# test-commands: configureFailPoint needs --setParameter enableTestCommands=1 (test-only). `up`
# leaves a running stack alone, so the flag reaches running members only by recreating them: one
# at a time, each back to healthy before the next (Compose leaves one that has the flag untouched).
fault_hook_test_commands() {
  local x
  if [[ $1 == before ]]; then
    info "failpoint: the shard members are RESTARTED into a test-only configuration (LAB_SHARD_EXTRA_ARGS=--setParameter enableTestCommands=1: configureFailPoint needs it)"
    # with the arguments they already have (a stale-secondary's oplog size), kept for later ups
    STACK_EXTRA_ENV+=("LAB_SHARD_EXTRA_ARGS=$(stack_shard_args_with "--setParameter enableTestCommands=1")")
    return 0
  fi
  fault_step "restart the shard members with enableTestCommands=1 (test-only; they keep it until destroy: .state/$ENGINE/shard-extra-args)"
  local -a members
  mapfile -t members < <(fault_shard_members)
  for x in "${members[@]}"; do
    compose up -d --no-deps --wait "$x"
    fault_tool watch --until healthy --timeout 300 --phase restart ||
      die_env "the shard did not become healthy after restarting $x; ./run.sh status --engine $ENGINE"
    # a dry run prints the two commands once: the same for each other member
    if [[ $DRY_RUN == 1 ]] && ((${#members[@]} > 1)); then
      info "dry run: the same two commands for each of: ${members[*]:1} (one member at a time, x ${#members[@]} members)"
      break
    fi
  done
}

# small-oplog MB: mongod honours --oplogSize only when it creates the oplog, so a running cluster
# whose members all have MB MB oplogs is reused (the probe's exit code), any other is destroyed
# (needs --yes) and created again with LAB_SHARD_EXTRA_ARGS=--oplogSize MB.
fault_hook_small_oplog() {
  [[ $1 == before ]] || return 0
  local n=$2
  if fault_stack_up && fault_tool_probe oplog-size --expect "$n" >/dev/null 2>&1; then
    info "oplog: the running $ENGINE cluster already has $n MB oplogs on every shard member: reused"
    STACK_EXTRA_ENV+=("LAB_SHARD_EXTRA_ARGS=$(stack_shard_args_with "--oplogSize $n")")
    return 0
  fi
  STACK_EXTRA_ENV+=("LAB_SHARD_EXTRA_ARGS=--oplogSize $n") # a new cluster: nothing else kept
  info "oplog: DESTROY the $ENGINE cluster (its volumes) and create it again with LAB_SHARD_EXTRA_ARGS=--oplogSize $n: mongod honours --oplogSize only when it creates the oplog"
  [[ $ASSUME_YES == 1 || $DRY_RUN == 1 ]] ||
    die_usage "this scenario needs an oplog created with --oplogSize $n: this DESTROYS the $ENGINE cluster's data and recreates it; rerun with --yes"
  [[ $ASSUME_YES == 1 ]] || info "(dry run: a real run stops here without --yes, since this DESTROYS the $ENGINE cluster's data)"
  fault_step "recreate the $ENGINE cluster with a $n MB oplog"
  unset LAB_SMOKE_UP # destroyed: `up` starts it again, also in smoke's dry run
  verb_destroy
}

# netem-kernel (DEVELOPERS.md "stack hooks"): the netem qdisc is a kernel module of the Docker host
# (sch_netem; bitnami/containers#32326), without which every netem request failed as a bare failed
# docker action mid-fault. The probe's container has no network (its lo): the qdisc kind is the
# kernel's, the same in every namespace.
fault_hook_netem_kernel() {
  [[ $1 == before ]] || return 0
  fault_netem_probe || die_env "$FAULT_NETEM_WHY"
}

# fault_netem_probe [ENGINE]: 0 when the Docker host's kernel has netem (or under --dry-run, which
# prints the probe); else 1 with FAULT_NETEM_WHY, the one line that says so.
FAULT_NETEM_WHY=""
fault_netem_probe() {
  local eng=${1:-$ENGINE} out rc=0 others
  FAULT_NETEM_WHY=""
  compose build "netem-$(fault_shard_members | first_line)" >&2 ||
    { FAULT_NETEM_WHY="netem: building the sidecar's image (images/netem) failed; see 'docker compose build' output"; return 1; }
  if [[ $DRY_RUN == 1 ]]; then
    run docker run --rm --network none --cap-add NET_ADMIN lab-netem:local probe
    return 0
  fi
  out=$(docker run --rm --network none --cap-add NET_ADMIN lab-netem:local probe 2>&1) || rc=$?
  ((rc == 0)) && return 0
  others=$(engine_field "$eng" fault_methods | tr ',' '\n' | grep -vx netem | paste -sd'|' -)
  if ((rc == 3)) && out=$(grep -m1 '^netem-missing: ' <<<"$out"); then
    FAULT_NETEM_WHY="netem is missing from this Docker host's kernel (tc: ${out#netem-missing: }; Docker Desktop's WSL2 kernel has none: microsoft/WSL#6065): use --method ${others:-none} instead ($eng's fault_methods, compose/engines.tsv)"
  else
    FAULT_NETEM_WHY="netem: the probe container failed (exit $rc): $(tail -n 1 <<<"$out")"
  fi
  return 1
}

# ---- verbs ---------------------------------------------------------------------------------------
# verb_fault SCENARIO ARGS...: check (the module), hooks, stack up (unless running-stack), the
# fault tool's image, hooks after up, then the one fault process with the flags as given.
verb_fault() {
  local scenario=${1:-}
  [[ -n $scenario ]] || die_usage "fault needs a scenario (choose one of: $(fault_scenario_names | paste -sd' ' -))"
  shift
  fault_check "$scenario" "$@"
  # Compose missing is said as such (a bad flag first, above): heal and resync, which never start
  # the stack, called it "not up"
  [[ $DRY_RUN == 1 ]] || preflight_compose
  fault_results_root
  fault_hooks before
  fault_keep_shard_args
  if ((FAULT_RUNNING_STACK == 0)); then
    fault_step "stack up"
    verb_up
  fi
  fault_image
  fault_hooks after
  fault_process "$scenario" "$@"
}

# fault_keep_shard_args: the shard arguments a hook set (LAB_SHARD_EXTRA_ARGS) are recorded
# before `up` creates members with them (lib/stack.sh stack_shard_args_keep), so that every later
# recreation (resync, heal, `up` of a partly running stack) gives a member the same ones.
fault_keep_shard_args() {
  local e shard_args=""
  for e in "${STACK_EXTRA_ENV[@]}"; do [[ $e == LAB_SHARD_EXTRA_ARGS=* ]] && shard_args=${e#*=}; done
  [[ -n $shard_args ]] || return 0
  info "the $ENGINE shard members keep '$shard_args' from now on (every later up, resync and heal; until destroy): .state/$ENGINE/shard-extra-args"
  stack_shard_args_keep "$shard_args"
}

# verb_resync MEMBER: fault resync --member MEMBER.
verb_resync() { verb_fault resync ${1+--member "$1"} "${@:2}"; }

# ---- smoke (Docker host) -------------------------------------------------------------------------------
# smoke_faults ENGINE: lib/smoke.sh calls it with the engine's stack up (./run.sh smoke --faults).
# Every scenario once; each must exit 0 (verdict PASS) and leave summary.json with "pass": true.
# ~20 minutes per engine: stale-secondary recreates the cluster with a 16 MB oplog, which smoke's
# destroy removes afterwards. Facts from the tables: replica-lag runs each method of the engine's
# fault_methods (compose/engines.tsv), except fsyncLock on an engine that keeps no data (keeps_data
# no: not verified there), and netem where the Docker host's kernel has none (fault_netem_probe:
# a SKIP with its line); resync takes the member stale-secondary named in its summary, one of
# the shard members of compose/topology.tsv.
smoke_faults() {
  local eng=${1:-$ENGINE} args scen method
  local -a runs=()
  local -A threshold=([netem]=10s) # replica-lag's --threshold by method, else 20s
  for method in $(engine_field "$eng" fault_methods | tr ',' ' '); do
    [[ $method == fsync ]] && ! engine_is "$eng" keeps_data && continue
    runs+=("fault replica-lag --method $method --threshold ${threshold[$method]:-20s}")
  done
  # failover only where its majority read back applies (engines.tsv majority_reads)
  if engine_is "$eng" majority_reads; then
    runs+=("fault failover --w majority" "fault failover --w 1" "fault failover --w majority --how kill")
  fi
  runs+=("fault stale-secondary --yes" "resync STALE_MEMBER" "fault heal")
  local netem_log
  if [[ $DRY_RUN == 1 ]]; then
    # the dry runs side by side (lib/smoke.sh smoke_prefetch), printed in order below; resync
    # takes the member stale-secondary makes stale, decided live: in a dry run the last member
    for args in "${runs[@]}"; do
      # shellcheck disable=SC2086  # each entry is a word list on purpose
      smoke_prefetch ${args/STALE_MEMBER/$(fault_shard_members | tail -1)}
    done
  fi
  for args in "${runs[@]}"; do
    # netem needs the Docker host's kernel to have it (fault_netem_probe): skipped with the reason
    if [[ $args == *"--method netem"* && $DRY_RUN != 1 ]]; then
      netem_log=$(mktemp)
      if ! fault_netem_probe "$eng" >"$netem_log" 2>&1; then
        sed 's/^/#   /' "$netem_log"
        rm -f "$netem_log"
        smoke_skip "$eng: $args" "$FAULT_NETEM_WHY"
        continue
      fi
      rm -f "$netem_log"
    fi
    # a partition (failover without --how kill) runs in the same sidecar: its image must build here
    if [[ $args == "fault failover"* && $args != *"--how kill"* && $DRY_RUN != 1 ]] &&
      ! netem_log=$(compose build "netem-$(fault_shard_members | first_line)" 2>&1); then
      smoke_skip "$eng: $args" "the partition runs in the netem sidecar, whose image (images/netem) could not be \
built here: $(grep -v '^\s*$' <<<"$netem_log" | tail -n 1)"
      continue
    fi
    # On the Docker suite's stand-in (SMOKE_STANDIN), the write load that rolls stale-secondary's
    # 16 MB oplog updates numeric _ids, which its FerretDB finds only by a scan: 0.3-0.6 s a
    # statement, 3-5 documents a second (test/docker/standin/DIFFERENCES.md numeric-id-scan).
    # Skipped there, with resync after it; the Docker suite runs both on a 1 MB oplog.
    if [[ ${SMOKE_STANDIN:-0} == 1 && ( $args == "fault stale-secondary"* || $args == resync\ * ) ]]; then
      smoke_skip "$eng: ${args/STALE_MEMBER/the member stale-secondary makes stale}" "$FAULT_STANDIN_STALE_WHY"
      continue
    fi
    if [[ $args == *STALE_MEMBER ]]; then # the member stale-secondary made stale (picked live)
      local stale
      # the summary stale-secondary's own run wrote (smoke_new_result), never `latest`
      stale=$(fault_summary_member "$(smoke_new_result fault-stale-secondary "$eng")/summary.json")
      args=${args/STALE_MEMBER/${stale:-$(fault_shard_members | tail -1)}}
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
  ((SMOKE_FAILED == 0))
}

FAULT_STANDIN_STALE_WHY="on the stand-in, the load that rolls the oplog updates numeric _ids, which its FerretDB"
FAULT_STANDIN_STALE_WHY+=" finds by a scan (3-5 documents a second: DIFFERENCES.md numeric-id-scan); the Docker suite"
FAULT_STANDIN_STALE_WHY+=" runs stale-secondary and resync with a 1 MB oplog (test/docker/apart.sh)"

# fault_summary_member FILE: the first "member" a summary names (its params, else its evidence),
# printed only when it is a shard member of the topology table.
fault_summary_member() {
  local m
  m=$(grep -oE '"member": "[^"]+"' "$1" 2>/dev/null | head -1 | cut -d'"' -f4 || true)
  [[ -n $m ]] && fault_is_member "$m" && echo "$m"
  return 0
}
