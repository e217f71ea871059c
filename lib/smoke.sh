# shellcheck shell=bash
# ./run.sh smoke [--faults]: the end-to-end proof, on a Docker host. First the same preflight as
# `up` (docker, Compose, daemon, the profile against the daemon's CPUs, ports), and no lab stack
# may be running (smoke ends by destroying every engine's stack). Then for every engine in the
# engines table (or the one --engine names): up, the cluster checks below, each other part's
# checks, destroy.
# Output is TAP: one "ok N - ..." / "not ok N - ..." line per check, numbered in the order printed,
# other lines start with "#", and the plan "1..N" comes last. Exit 1 if any check failed.
# On a failure the engine's `compose ps`, `compose logs` and Prometheus's data are copied to
# results/smoke/<engine>/<UTC of the smoke start>/ before its destroy (CI uploads results/).
#
# Hook contract for the other parts (each defined in its own lib file, called when defined):
#   smoke_experiments ENGINE | smoke_monitoring ENGINE | smoke_faults ENGINE (only with --faults)
# Called with the engine's stack up (ENGINE, PROFILE, MONGOS_COUNT set as for any verb).
#  - Every check goes through smoke_check (or smoke_skip), never a hand-written "ok" line: the
#    numbering, the plan and the failure count are kept here. smoke_check returns the check's
#    status; a hook returns non-zero if any of its checks failed.
#  - A hook that runs without printing a single check of its own is a failure ("examined
#    nothing"); a check function that looked at nothing (0 panels, no results folder) must
#    return non-zero itself.
#  - Results: run the CLI through smoke_lab, then read what that very run wrote with
#    smoke_new_result KIND ENGINE (or the ready-made check smoke_result_grep), never
#    results/.../latest, which may be an older run's (a --uri run, yesterday's smoke).
#  - Other output lines start with "#" (TAP diagnostics).
# Under --dry-run every step prints its docker commands instead of running them, once: a step
# (smoke_lab's arguments) printed for an earlier engine is not run again, the steps take the stack
# as up (LAB_SMOKE_UP), and a hook may start its steps' dry runs side by side first
# (smoke_prefetch ARGS..., then smoke_lab ARGS... prints each in order). A dry run never sleeps.
# Lines fit 120 columns: children wrap at LAB_WRAP, 4 narrower than smoke's own width.

SMOKE_FAILED=0 # 1 once a check failed (hooks may save and restore it)
SMOKE_N=0      # TAP lines printed so far
SMOKE_NOT_OK=0 # "not ok" lines printed so far (only ever grows)
# SMOKE_SINCE: when this smoke run started, UTC, in the results folders' own format
# (yyyymmddThhmmssZ). SMOKE_MARK_FILE: the results folders that existed before the last
# smoke_lab call (see smoke_mark).
SMOKE_SINCE=""
SMOKE_MARK_FILE=""
# SMOKE_STANDIN: 1 while the engine's members are the Docker suite's stand-in (status says
# engine=standin); the checks that cannot pass there say why instead (SMOKE_STANDIN_WHY,
# smoke_check_timed in lib/monitoring.sh, which reads it).
# shellcheck disable=SC2034
SMOKE_STANDIN=0

# smoke_check NAME CMD...: run one check, print its result line, return CMD's status (and
# remember a failure in SMOKE_FAILED). The number is taken when the line is printed, after CMD
# ran, so that checks CMD prints itself (a hook's) come first and the numbers stay in order.
smoke_check() {
  local name=$1 rc=0 not=""
  shift
  "$@" || rc=$?
  SMOKE_N=$((SMOKE_N + 1))
  if ((rc != 0)); then
    not="not "
    SMOKE_FAILED=1
    SMOKE_NOT_OK=$((SMOKE_NOT_OK + 1))
  fi
  smoke_tap "${not}ok $SMOKE_N - $name"
  return "$rc"
}

# smoke_tap LINE: a TAP result line. It is one line: past the width (LAB_WRAP, 4 narrower than the
# lines smoke prints after "#   ") it is cut at a space and the rest goes on in "#" lines after it.
smoke_tap() {
  local line=$1 width=$((LAB_WRAP + 4)) head
  if ((LAB_WRAP > 0 && ${#line} > width)); then
    head=${line:0:width}
    head=${head% *}
    printf '%s\n' "$head"
    printf '%s\n' "${line:${#head}+1}" | wrap_lines 0 "$LAB_WRAP" | sed 's/^/#   /'
    return 0
  fi
  printf '%s\n' "$line"
}

# smoke_skip NAME REASON: a check that does not apply here, as TAP's SKIP (counts, never fails).
smoke_skip() {
  SMOKE_N=$((SMOKE_N + 1))
  smoke_tap "ok $SMOKE_N - $1 # SKIP $2"
}

# smoke_results_dirs: every results/KIND/ENGINE/<UTC>/ folder there is now, one per line.
smoke_results_dirs() {
  [[ -d $LAB_ROOT/results ]] || return 0
  find "$LAB_ROOT/results" -mindepth 3 -maxdepth 3 -type d 2>/dev/null | sort
}

# smoke_mark: remember which results folders exist; smoke_new_result then only names folders
# made after this. smoke_lab calls it before every run of the CLI.
smoke_mark() {
  [[ -n $SMOKE_MARK_FILE ]] || SMOKE_MARK_FILE=$(mktemp "${TMPDIR:-/tmp}/lab-smoke-mark.XXXXXX")
  smoke_results_dirs >"$SMOKE_MARK_FILE"
}

# smoke_new_result KIND ENGINE: the path of the newest results/KIND/ENGINE/<UTC>/ folder made
# since the last smoke_mark (that is, by the last smoke_lab step). Nothing found: a "#" line on
# stderr, no output, status 1.
smoke_new_result() {
  local base=$LAB_ROOT/results/$1/$2 d newest=""
  while IFS= read -r d; do
    [[ $d == "$base"/* ]] || continue
    if [[ -z $SMOKE_MARK_FILE ]] || ! grep -qxF -- "$d" "$SMOKE_MARK_FILE"; then newest=$d; fi
  done < <(smoke_results_dirs)
  if [[ -z $newest ]]; then
    echo "# no results/$1/$2/ folder written by this smoke run's last step" >&2
    return 1
  fi
  printf '%s\n' "$newest"
}

# smoke_result_grep KIND ENGINE FILE PATTERN: a check that the folder the last smoke_lab step
# wrote (smoke_new_result) has FILE, and FILE matches the extended regexp PATTERN.
smoke_result_grep() {
  local dir
  dir=$(smoke_new_result "$1" "$2") || return 1
  [[ -f $dir/$3 ]] || { echo "# ${dir#"$LAB_ROOT"/}/$3 is missing" >&2; return 1; }
  grep -qE -- "$4" "$dir/$3" || { echo "# ${dir#"$LAB_ROOT"/}/$3 does not match: $4" >&2; return 1; }
}

# smoke_lab VERB [ARGS...]: this very CLI in a child process, so that a check that dies (exit 1
# from die_env) fails the check instead of ending the smoke run; its output (stdout and stderr)
# as TAP diagnostics ("#   " before each line); its exit status. It marks the results folders
# first (smoke_mark) and gives the child no stdin.
# Under --dry-run a step's commands are printed once (the header's last paragraph): every engine's
# every step, one after another, took 76 s and printed 1,376 lines.
declare -gA SMOKE_DRY_SHOWN=() # ARGS -> the engine whose dry run printed them
declare -gA SMOKE_PREFETCH=()  # ARGS -> "PID FILE" of a child started by smoke_prefetch
smoke_lab() {
  smoke_mark # here, not in the pipeline's subshell, so that SMOKE_MARK_FILE is kept
  local key="$*" pid f rc=0
  if [[ $DRY_RUN == 1 ]]; then
    if [[ -n ${SMOKE_PREFETCH[$key]:-} ]]; then
      read -r pid f <<<"${SMOKE_PREFETCH[$key]}"
      unset "SMOKE_PREFETCH[$key]"
      wait "$pid" || true
      sed 's/^/#   /' "$f"
      rc=$(cat "$f.rc" 2>/dev/null || echo 1)
      rm -f "$f" "$f.rc"
      SMOKE_DRY_SHOWN[$key]=$ENGINE
      return "$rc"
    fi
    [[ -z ${SMOKE_DRY_SHOWN[$key]:-} ]] || return 0
    SMOKE_DRY_SHOWN[$key]=$ENGINE
  fi
  smoke_child smoke_lab_raw "$@"
}

# smoke_child CMD...: CMD (a run.sh child) with its output as TAP diagnostics; CMD's status. The
# child runs in a process group of its own (set -m), and a SIGINT or SIGTERM to smoke, sent to
# smoke alone (kill PID, no terminal) or to its group (Ctrl-C), is passed to that group once: the
# child stops as run.sh stops on it (an experiment prints its table, a fault heals), and smoke then
# ends with 130 or 143 instead of going on to the next check. Waiting in the foreground, bash ran
# its trap only when the child had finished on its own: a signal to smoke alone was kept until the
# end of a step of many minutes, and the next step ran all the same. The filter ignores both
# signals and stays to show the child's last lines.
smoke_child() {
  local traps pipeline group rc_file rc stop=0
  rc_file=$(mktemp "${TMPDIR:-/tmp}/lab-smoke-rc.XXXXXX")
  traps=$(trap -p INT TERM)
  # a signal before the group is known is kept and passed on as soon as it is (a trapped signal
  # is at its default in the child, never ignored)
  trap 'stop=130' INT
  trap 'stop=143' TERM
  set -m
  { "$@" 2>&1; echo "$?" >"$rc_file"; } | (trap '' INT TERM; exec sed 's/^/#   /') &
  pipeline=$!
  set +m
  # the pipeline's group; a child that already ended has none: nothing is left to pass a signal to
  process_group group "$pipeline"
  trap 'stop=130; [[ -z $group ]] || kill -INT -- "-$group" 2>/dev/null || true' INT
  trap 'stop=143; [[ -z $group ]] || kill -TERM -- "-$group" 2>/dev/null || true' TERM
  if ((stop)) && [[ -n $group ]]; then kill "-$( ((stop == 130)) && echo INT || echo TERM)" -- "-$group" 2>/dev/null || true; fi
  wait_ended "$pipeline" || true # its exit code is the check's, in $rc_file
  trap - INT TERM
  eval "$traps"
  rc=$(cat "$rc_file" 2>/dev/null)
  rm -f "$rc_file"
  if ((stop)); then
    info "smoke: interrupted ($( ((stop == 130)) && echo SIGINT || echo SIGTERM)) during '${*:2}'; it stopped, and no other check runs. The $ENGINE stack is left as it is: ./run.sh down --engine $ENGINE (or destroy --yes)."
    exit "$stop"
  fi
  return "${rc:-1}"
}

# smoke_prefetch ARGS...: under --dry-run, start the child that smoke_lab ARGS would run, in the
# background, its output and status into a file; smoke_lab ARGS then waits for it and prints it
# in its place. A dry run's children only print (no results, no docker beyond read-only probes),
# so they may run side by side; a real run never prefetches.
smoke_prefetch() {
  [[ $DRY_RUN == 1 ]] || return 0
  local key="$*" f
  [[ -z ${SMOKE_DRY_SHOWN[$key]:-} && -z ${SMOKE_PREFETCH[$key]:-} ]] || return 0
  f=$(mktemp "${TMPDIR:-/tmp}/lab-smoke-dry.XXXXXX")
  { smoke_lab_raw "$@" >"$f" 2>&1; echo "$?" >"$f.rc"; } &
  SMOKE_PREFETCH[$key]="$! $f"
}

# smoke_lab_raw VERB [ARGS...]: the child with its output as it is, for a caller that reads it;
# no smoke_mark (use it for verbs that write no results).
smoke_lab_raw() {
  local flags=(--engine "$ENGINE" --profile "$PROFILE" --mongos "$MONGOS_COUNT")
  [[ $DRY_RUN == 1 ]] && flags+=(--dry-run)
  [[ $MONITORING == 1 ]] || flags+=(--no-monitoring)
  "$LAB_ROOT/run.sh" "$@" "${flags[@]}" </dev/null
}

# smoke_diag CMD...: run CMD with no stdin, its output as TAP diagnostics; CMD's status.
smoke_diag() {
  "$@" </dev/null 2>&1 | sed 's/^/#   /'
  return "${PIPESTATUS[0]}"
}

# smoke_cluster ENGINE: the cluster's own checks, from status.js's summary line and smoke.js.
smoke_cluster() {
  local engine=$1 want status rc=0 how="w:majority"
  want=$(engine_field "$engine" server_engine)
  if [[ $DRY_RUN == 1 ]]; then
    smoke_check "$engine: status (dry run)" smoke_lab status || rc=1
    how="dry run"
  else
    local st=0 set
    status=$(smoke_lab_raw status 2>&1) || st=$?
    printf '%s\n' "$status" | sed 's/^/#   /'
    smoke_check "$engine: status reports healthy members, primaries and the shard" test "$st" -eq 0 || rc=1
    for set in $(topology_sets shard); do
      smoke_check "$engine: shard $set registered with the config servers" \
        grep -qE "^summary .* shards=([^ ]*,)?$set(,| |\$)" <<<"$status" || rc=1
    done
    if grep -qE "^summary engine=standin( |$)" <<<"$status"; then
      SMOKE_STANDIN=1
      smoke_skip "$engine: shard members report storage engine $want" "$SMOKE_STANDIN_WHY"
    else
      smoke_check "$engine: shard members report storage engine $want" \
        grep -qE "^summary engine=$want( |$)" <<<"$status" || rc=1
    fi
  fi
  smoke_check "$engine: write and read a document through mongos ($how)" \
    smoke_diag compose exec -T "$(cluster_router)" "$(engine_field "$engine" shell)" --nodb --quiet --norc /lab/init/smoke.js || rc=1
  return "$rc"
}

# SMOKE_STANDIN_WHY: why a check of the storage engine's name cannot pass on the Docker suite's
# stand-in for mongod (test/docker/standin, DIFFERENCES.md modelled-storage-engine): it reports
# "standin" on purpose, so that no result of it is ever filed under a real engine. No real server
# reports that name.
SMOKE_STANDIN_WHY="the members are the Docker suite's stand-in (test/docker/standin), which reports storage engine"
SMOKE_STANDIN_WHY+=" 'standin' so that nothing it runs is filed under a real engine"

# smoke_hook HOOK ENGINE: run another part's hook; it fails if it returns non-zero, if one of
# its own checks failed, or if it ran without a single check of its own (it examined nothing).
smoke_hook() {
  local hook=$1 engine=$2 before=$SMOKE_N not_ok_before=$SMOKE_NOT_OK rc=0
  "$hook" "$engine" || rc=$?
  if ((rc == 0 && SMOKE_NOT_OK > not_ok_before)); then
    echo "# $hook returned 0, but $((SMOKE_NOT_OK - not_ok_before)) of its checks failed"
    rc=1
  fi
  if ((rc == 0 && SMOKE_N == before)) && [[ $DRY_RUN != 1 ]]; then
    echo "# $hook ran no check: it examined nothing"
    rc=1
  fi
  return "$rc"
}

# smoke_refuse_running: smoke ends by destroying each engine's stack and volumes, so it does not
# start while a lab stack is running (someone's cluster, or another smoke).
smoke_refuse_running() {
  local p
  p=$(running_lab_projects | first_line)
  [[ -z $p ]] ||
    die_env "the ${p#lab-} stack ($p) is running, and smoke ends by destroying every engine's stack and volumes: stop it first ('./run.sh down --engine ${p#lab-}'), on a host whose lab data you do not need"
}

# smoke_collect ENGINE: after a failure, keep what explains it before destroy removes it.
smoke_collect() {
  local engine=$1 dir
  dir=$LAB_ROOT/results/smoke/$engine/$SMOKE_SINCE
  mkdir -p "$dir" || return 1
  compose_probe --profile '*' ps -a >"$dir/ps.txt" 2>&1 || true
  compose_probe --profile '*' logs --no-color --timestamps >"$dir/compose.log" 2>&1 || true
  if [[ $MONITORING == 1 ]]; then
    # A copy of the live TSDB (/prometheus, monitoring.yml's --storage.tsdb.path): open it with
    # prometheus --storage.tsdb.path=<copy> to query what the dashboards showed.
    compose_probe cp prometheus:/prometheus "$dir/prometheus" >/dev/null 2>&1 ||
      echo "# could not copy Prometheus's data out of the prometheus container"
  fi
  echo "# $engine: diagnostics kept in ${dir#"$LAB_ROOT"/}/ (ps.txt, compose.log, prometheus/)"
  echo "# $engine: last lines of the init log:"
  compose_probe logs --no-color --tail 30 init 2>&1 | sed 's/^/#   /' || true
}

verb_smoke() {
  local faults=0 arg engine hook engines=() failed_before unfit hooks=(smoke_experiments smoke_monitoring)
  for arg in "$@"; do
    case $arg in
      --faults) faults=1 ;;
      *) die_usage "smoke does not take '$arg' (only --faults)" ;;
    esac
  done
  ((!faults)) || hooks+=(smoke_faults)
  # --engine given: that engine only (a host that has one engine's images, the Docker suite's
  # stand-ins among them); else every engine of the table
  if [[ ${ENGINE_GIVEN:-0} == 1 ]]; then engines=("$ENGINE"); else mapfile -t engines < <(engine_names); fi
  if [[ $DRY_RUN == 1 ]]; then
    info "dry run: would check docker, Compose v2, the daemon, that no lab stack runs, the profile's CPUs and ports $(cluster_ports | paste -sd, -)"
  else
    preflight_docker
    smoke_refuse_running
    preflight_resources
    preflight_ports
  fi
  # every line from here on is printed after "#   " (smoke_lab, smoke_diag) or is TAP: the children
  # and this process wrap 4 columns narrower, so that the lines stay within the width
  if ((LAB_WRAP > 4)); then LAB_WRAP=$((LAB_WRAP - 4)); fi
  export LAB_WRAP
  SMOKE_SINCE=$(date -u +%Y%m%dT%H%M%SZ)
  smoke_mark
  local shown_for=""
  for engine in "${engines[@]}"; do
    ENGINE=$engine
    failed_before=$SMOKE_FAILED
    SMOKE_FAILED=0
    # shellcheck disable=SC2034 # read by lib/monitoring.sh
    SMOKE_STANDIN=0
    echo "# engine $engine (profile $PROFILE, $MONGOS_COUNT mongos)"
    if [[ $DRY_RUN == 1 && -n $shown_for ]]; then
      echo "#   dry run: each step runs the commands printed for $shown_for above, on the $engine stack (lab-$engine);"
      echo "#   only the commands not printed before are printed here"
    fi
    # An engine whose shard member does not fit the profile's memory (lib/stack.sh
    # stack_memory_check) is not started: skipped with the reason and the profile that fits.
    if ! unfit=$( (stack_memory_check) 2>&1); then
      smoke_skip "$engine: up" "${unfit%%$'\n'*}"
      SMOKE_FAILED=$failed_before
      continue
    fi
    if smoke_check "$engine: up" smoke_lab up; then
      shown_for=${shown_for:-$engine}
      # a dry run's later steps take the stack as up, as it is in a real smoke here: `up` inside
      # them (an experiment's, a fault's) says so in one line instead of printing it all again
      [[ $DRY_RUN != 1 ]] || export LAB_SMOKE_UP=$engine
      smoke_cluster "$engine" || true
      for hook in "${hooks[@]}"; do
        declare -F "$hook" >/dev/null || continue
        if [[ $hook == smoke_monitoring && $MONITORING != 1 ]]; then
          smoke_skip "$engine: $hook" "--no-monitoring"
          continue
        fi
        smoke_check "$engine: $hook" smoke_hook "$hook" "$engine" || true
      done
    else
      echo "# $engine: up failed; the engine's other checks are not run"
    fi
    if ((SMOKE_FAILED)) && [[ $DRY_RUN != 1 ]]; then smoke_collect "$engine" || true; fi
    smoke_check "$engine: destroy" smoke_lab destroy --yes || true
    ((failed_before == 0)) || SMOKE_FAILED=1
  done
  [[ -z $SMOKE_MARK_FILE ]] || rm -f "$SMOKE_MARK_FILE"
  echo "1..$SMOKE_N"
  ((SMOKE_FAILED == 0)) || die_env "smoke: some checks failed (see 'not ok' lines above)"
  echo "# smoke: all $SMOKE_N checks passed"
}
