#!/usr/bin/env bash
# The MongoDB engine lab: one entry point, a thin dispatcher over small functions in lib/.
# Usage: ./run.sh help.  Exit codes: 0 ok, 1 environment/runtime error, 2 usage error, 130 Ctrl-C.

# ---- bash 4.4 or newer, found before anything else is read ------------------------------------
# lib/ needs bash 4.4: associative arrays (`declare -gA`, `local -A`) and `mapfile` are 4.x, and
# "${a[@]}" of an empty array under `set -u` stops being an "unbound variable" error only in 4.4
# (bash CHANGES, bash-4.4-rc2, item a). macOS still ships bash 3.2 as /bin/bash, so this block
# finds a newer bash and re-executes this script with it, or stops with one line naming the fix.
# It must run under bash 3.2 and under a POSIX sh (macOS's /bin/sh is bash 3.2 in POSIX mode;
# Debian's is dash): plain `[ ]`, `case` and parameter expansion only, no arrays, no [[ ]], and
# nothing from lib/ is read before it. LAB_BASH_CANDIDATES (space-separated) replaces the list of
# bash programs to try, for unusual installs and for the tests.
lab_bash_ok() { # VERSION ("5.2.21(1)-release"): is it 4.4 or newer?
  lab_major=${1%%.*}
  lab_minor=${1#*.}
  lab_minor=${lab_minor%%[!0-9]*}
  case $lab_major$lab_minor in '' | *[!0-9]*) return 1 ;; esac
  [ "$lab_major" -gt 4 ] || { [ "$lab_major" -eq 4 ] && [ "$lab_minor" -ge 4 ]; }
}
if ! lab_bash_ok "${BASH_VERSION:-}"; then
  if [ -n "${LAB_BASH_REEXEC:-}" ]; then
    echo "error: $LAB_BASH_REEXEC reported bash 4.4+ but runs this script as bash ${BASH_VERSION:-?}: run ./run.sh with a bash 4.4 or newer" >&2
    exit 1
  fi
  for lab_bash in ${LAB_BASH_CANDIDATES:-/opt/homebrew/bin/bash /usr/local/bin/bash /opt/local/bin/bash bash}; do
    lab_path=$(command -v "$lab_bash" 2>/dev/null) || continue
    # shellcheck disable=SC2016  # expanded by the candidate, not here
    lab_v=$("$lab_path" -c 'printf %s "$BASH_VERSION"' 2>/dev/null) || continue
    if lab_bash_ok "$lab_v"; then
      LAB_BASH_REEXEC=$lab_path
      export LAB_BASH_REEXEC
      exec "$lab_path" "$0" "$@"
    fi
  done
  echo "error: ./run.sh needs bash 4.4 or newer and found only ${BASH_VERSION:+bash }${BASH_VERSION:-a shell that is not bash} (macOS ships bash 3.2): install one with 'brew install bash' (looked in: ${LAB_BASH_CANDIDATES:-/opt/homebrew/bin/bash /usr/local/bin/bash /opt/local/bin/bash and bash on PATH})" >&2
  exit 1
fi
unset LAB_BASH_REEXEC lab_major lab_minor lab_bash lab_path lab_v

set -euo pipefail

LAB_ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
export LAB_ROOT

# shellcheck source=lib/common.sh
source "$LAB_ROOT/lib/common.sh"
# shellcheck source=lib/tables.sh
source "$LAB_ROOT/lib/tables.sh"
# shellcheck source=lib/stack.sh
source "$LAB_ROOT/lib/stack.sh"
# shellcheck source=lib/preflight.sh
source "$LAB_ROOT/lib/preflight.sh"
# shellcheck source=lib/secrets.sh
source "$LAB_ROOT/lib/secrets.sh"
# shellcheck source=lib/cluster.sh
source "$LAB_ROOT/lib/cluster.sh"
# shellcheck source=lib/experiment.sh
source "$LAB_ROOT/lib/experiment.sh"
# shellcheck source=lib/block-writes.sh
source "$LAB_ROOT/lib/block-writes.sh"
# shellcheck source=lib/summary-merge.sh
source "$LAB_ROOT/lib/summary-merge.sh"
# shellcheck source=lib/monitoring.sh
source "$LAB_ROOT/lib/monitoring.sh"
# shellcheck source=lib/fault.sh
source "$LAB_ROOT/lib/fault.sh"
# shellcheck source=lib/smoke.sh
source "$LAB_ROOT/lib/smoke.sh"
# shellcheck source=lib/k8s.sh
source "$LAB_ROOT/lib/k8s.sh"
# shellcheck source=lib/compare.sh
source "$LAB_ROOT/lib/compare.sh"

usage() {
  cat <<USAGE
The MongoDB engine lab: a sharded cluster per storage engine, experiments, faults, dashboards.

Usage: ./run.sh VERB [flags]

Cluster:
  up                      start the cluster (and monitoring) for --engine; no-op if already up
  down                    stop it, keeping its data
  destroy                 stop it and remove the engine's volumes (asks unless --yes)
  status                  replica sets, member states, primary, shards, engine as reported
  logs [service]          follow logs of the stack or one service
  shell [service]         mongosh into mongos (default) or a member
Experiments (each experiments/NAME.yaml is one: ./run.sh NAME [experiment flags]):
$(experiments_usage)
                          stands the stack up if needed, runs the loader, prints a summary;
                          --uri URI drives an existing cluster from this host instead
Comparisons (interleaved runs of several engines or clusters, then their report):
$(compare_usage)
Report:
  report [--experiment NAME ...] [--engine E ...] [--since DATE] [RESULT_DIR ...]
         [--by engine|server|profile|LABEL] [--wide] [--results-dir DIR]
                          compare runs along a dimension (engine by default; a LABEL set with the
                          loader's --label KEY=VALUE): results/report/<UTC>/index.html and
                          report.json, the summary here (node report/bin/lab-report.js; no Docker)
Faults:
  fault SCENARIO [fault flags]
                          one of: $(fault_scenario_names | paste -sd' ' -) (a module each in
                          loader/src/faults/scenarios; their flags below)
  resync MEMBER           rebuild a stale member by initial sync
Kubernetes (bigger than one machine; README "Bigger than one machine"):
  k8s up|status|down|destroy|manifests [k8s flags]
                          the same topology through the Percona Operator on an existing cluster
  NAME --on k8s [--loaders N] [k8s flags] [experiment flags]
                          the experiment as an Indexed Job of N loader pods, results into results/
  fault failover|replica-lag|heal --on k8s [--member I] [--duration D]
                          primary pod deleted / fsyncLock on a secondary, through kubectl
$(k8s_flags_usage)
Project:
  test                    run the project's whole test suite (as root: its docker suite starts its own dockerd)
  smoke [--faults]        end-to-end check on a Docker host: every engine up, checked, down
  help                    this text

Common flags:
  --engine NAME           storage engine (default: wiredtiger)
  --profile NAME          resource profile (default: laptop)
  --mongos N              number of mongos routers, 1-3 (default: 1)
  --journal-path PATH     each shard member's journal on PATH/<member> (its own disk: seeds/000);
                          refused for an engine without a journal directory (inmemory)
  --oplog-size MB         each shard member's --oplogSize instead of the engines table's (seeds/004:
                          3800); mongod sizes it only when it creates the oplog: destroy first
  --no-monitoring         leave Prometheus, exporters and Grafana out
  --host-view VIEW        what the host panels show: host (Linux: this machine's disks), host-private
                          (Linux with / a private mount, no systemd: the disks mounted at the start),
                          desktop-vm (Docker Desktop: its VM; the host root cannot be mounted there)
                          or auto (default: asks docker info and reads /'s propagation)
  --dry-run               print the exact docker commands, run nothing
  --yes                   do not ask before destroying data

Engines:
$(engines_usage)
Profiles:
$(profiles_usage)

Experiment flags:
$(experiment_flags_usage)
Fault flags:
$(fault_flags_usage)
USAGE
}

# Defaults, overridable by flags only (no hidden environment switches).
ENGINE=wiredtiger
PROFILE=laptop
MONGOS_COUNT=1
JOURNAL_PATH="" # --journal-path: each shard member's journal on PATH/<member> (compose/journal-path.yml)
OPLOG_SIZE_MB="" # --oplog-size: the shard members' --oplogSize (LAB_OPLOG_MB), else the engines table's
MONITORING=1
HOST_VIEW=auto
ASSUME_YES=0
ENGINE_GIVEN=0 # 1 when --engine was on the command line (a --uri run is then labelled with it)
STACK_FLAGS_GIVEN=() # --profile/--mongos/--journal-path/--oplog-size as given, in order: they shape the lab's own stack, so a --uri run refuses them
VERB=""        # set by main: an experiment with --uri takes any --engine label
REST_ARGS=()

# parse_common_flags ARGS...: consume the flags every verb shares; everything else (positional
# arguments and verb-specific flags) lands in REST_ARGS for the verb to parse and reject.
parse_common_flags() {
  while (($#)); do
    case $1 in
      # FLAG VALUE: its value checked (given, and not the next flag), then read as FLAG=VALUE below
      --engine | --profile | --journal-path | --oplog-size | --mongos | --host-view)
        require_value "$1" "${2:-}"; set -- "$1=$2" "${@:3}" ;;
      --engine=*) ENGINE=${1#*=}; ENGINE_GIVEN=1; shift ;;
      --profile=*) PROFILE=${1#*=}; STACK_FLAGS_GIVEN+=(--profile); shift ;;
      --journal-path=*) JOURNAL_PATH=${1#*=}; STACK_FLAGS_GIVEN+=(--journal-path); shift ;;
      --oplog-size=*) OPLOG_SIZE_MB=${1#*=}; STACK_FLAGS_GIVEN+=(--oplog-size); shift ;;
      --mongos=*) MONGOS_COUNT=${1#*=}; STACK_FLAGS_GIVEN+=(--mongos); shift ;;
      --no-monitoring) MONITORING=0; shift ;;
      --host-view=*) HOST_VIEW=${1#*=}; shift ;;
      --dry-run) DRY_RUN=1; shift ;;
      --yes | -y) ASSUME_YES=1; shift ;;
      -h | --help)
        # NAME --help: that experiment's flags, not the whole help (./run.sh help is that).
        if experiment_exists "$VERB"; then experiment_help "$VERB"; else usage; fi
        exit 0
        ;;
      *) REST_ARGS+=("$1"); shift ;;
    esac
  done
  [[ -n $ENGINE ]] || die_usage "--engine needs a value"
  [[ -n $PROFILE ]] || die_usage "--profile needs a value"
  # An experiment run with --uri drives a cluster the lab did not start: --engine there is only
  # the results label (any word; the loader checks its form and records the server's own word
  # beside it), not one of the lab's stacks.
  if ! { experiment_exists "$VERB" && rest_has --uri; }; then
    validate_engine "$ENGINE"
  fi
  validate_profile "$PROFILE"
  if [[ -n $JOURNAL_PATH ]]; then
    [[ $JOURNAL_PATH == /* ]] || die_usage "--journal-path must be an absolute host path (got '$JOURNAL_PATH')"
    # Compose's short volume syntax is SOURCE:TARGET[:MODE]: a ':' in the path splits it into
    # another mount; a control character (a newline) would end the variable's line.
    [[ $JOURNAL_PATH != *:* && $JOURNAL_PATH != *[[:cntrl:]]* ]] ||
      die_usage "--journal-path: '$JOURNAL_PATH' holds a ':' or a control character, which Compose's volume syntax splits: use a path without"
    # Compose creates a missing bind source itself, as root, on the root disk: the journals would
    # land there while summary.json says "own disk". Checked where the path is this host's (a local
    # daemon); a remote daemon's host is not this one.
    if [[ -z ${DOCKER_HOST:-} || ${DOCKER_HOST:-} == unix://* ]]; then
      [[ ! -e $JOURNAL_PATH || -d $JOURNAL_PATH ]] ||
        die_usage "--journal-path: '$JOURNAL_PATH' is not a directory: name the directory where the journals' disk is mounted"
      [[ -d $JOURNAL_PATH ]] ||
        die_usage "--journal-path: '$JOURNAL_PATH' does not exist: mount the journals' disk there first (Docker would create it on the root disk)"
    fi
    [[ $(engine_field "$ENGINE" journal_dir 2>/dev/null) != - ]] ||
      die_usage "--journal-path: the $ENGINE engine has no journal directory of its own to move (engines table journal_dir: -)"
  fi
  # mongod takes any whole --oplogSize above 0 (mongo src/mongo/db/mongod_options.cpp
  # storeMongodOptions); seven digits (up to ~9.5 TB) keep a typo from asking for more than a disk.
  [[ " ${STACK_FLAGS_GIVEN[*]} " != *" --oplog-size "* || $OPLOG_SIZE_MB =~ ^[1-9][0-9]{0,6}$ ]] ||
    die_usage "--oplog-size must be a whole number of MB, 1-9999999 (got '$OPLOG_SIZE_MB')"
  [[ $MONGOS_COUNT =~ ^[1-3]$ ]] || die_usage "--mongos must be 1, 2 or 3 (got '$MONGOS_COUNT')"
  [[ $HOST_VIEW =~ ^(auto|host|host-private|desktop-vm)$ ]] || die_usage "--host-view must be auto, host, host-private or desktop-vm (got '$HOST_VIEW')"
  export DRY_RUN
}

# verb_report ARGS...: the comparison report, exactly `node report/bin/lab-report.js ARGS`. It
# reads results folders only: no Docker, no engine or profile flags of ours.
verb_report() {
  # --dry-run works on every verb (README): here it prints the one command and runs nothing.
  local a args=()
  for a in "$@"; do [[ $a == --dry-run ]] && DRY_RUN=1 || args+=("$a"); done
  if [[ $DRY_RUN == 1 ]]; then
    run node "$LAB_ROOT/report/bin/lab-report.js" ${args[@]+"${args[@]}"}
    return 0
  fi
  command -v node >/dev/null 2>&1 || die_env "node is not installed: the report needs Node.js >= 20.19"
  [[ -d $LAB_ROOT/report/node_modules ]] || die_env "the report's dependencies are missing: run 'cd report && npm ci' first"
  exec node "$LAB_ROOT/report/bin/lab-report.js" ${args[@]+"${args[@]}"}
}

# verb_hint WORD: "; did you mean 'NEAREST'?" for a mistyped verb or experiment name, else nothing.
verb_hint() {
  local names=(help test report compare up down destroy status logs shell fault resync smoke k8s) f near
  for f in "$LAB_ROOT"/experiments/*.yaml; do
    [[ -e $f ]] && names+=("$(basename "$f" .yaml)")
  done
  if near=$(nearest_word "$1" "${names[@]}"); then printf "; did you mean '%s'?" "$near"; fi
}

# rest_has FLAG: FLAG is among the verb's arguments (REST_ARGS), as FLAG VALUE or FLAG=VALUE.
rest_has() { [[ " ${REST_ARGS[*]} " == *" $1 "* || " ${REST_ARGS[*]} " == *" $1="* ]]; }

main() {
  local verb=${1:-}
  [[ -n $verb ]] || { usage >&2; exit 2; }
  shift
  case $verb in
    help | -h | --help) usage; return 0 ;;
    test)
      # The whole suite takes no flags: a flag it ignored started 13 minutes of tests.
      (($# == 0)) || die_usage "test takes no flags or arguments (got '$1'): it runs every suite; DEVELOPERS.md \"Tests\" says how to run one part"
      exec "$LAB_ROOT/test/run-all.sh"
      ;;
    report) verb_report "$@"; return ;;
    # ./run.sh --engine inmemory up: a flag before the verb was "an unknown verb"
    -*) die_usage "the verb comes first: ./run.sh VERB [flags] (got '$verb' before any verb; e.g. ./run.sh up --engine inmemory)" ;;
  esac
  # A TMPDIR that is not a writable folder failed later in mktemp and tee with their raw words,
  # and a run ended 0 with no results line.
  [[ -z ${TMPDIR:-} || ( -d $TMPDIR && -w $TMPDIR ) ]] ||
    die_env "TMPDIR='$TMPDIR' is not a writable folder (the runs keep their temporary files there): create it, or unset TMPDIR"
  VERB=$verb
  LAB_CALLER_DIR=$PWD # where a relative path the user typed starts (caller_path)
  cd "$LAB_ROOT"  # compose -f paths and paths inside compose files are relative to the repo root
  loader_deps_source >/dev/null # decided here, in the main shell, for every compose line of the run
  # compare parses the common flags itself: they are part of the comparison --resume restores.
  if [[ $verb == compare ]]; then
    verb_compare "$@"
    return
  fi
  parse_common_flags "$@"
  case $verb in
    up | down | destroy | status)
      ((${#REST_ARGS[@]} == 0)) || die_usage "$verb does not take '${REST_ARGS[0]}'"
      "verb_$verb"
      ;;
    logs | shell | resync | smoke) "verb_$verb" "${REST_ARGS[@]}" ;;
    fault)
      # --on k8s: the fault acts through the Kubernetes API (k8s/faults.sh)
      if rest_has --on; then
        k8s_load; k8s_run_fault "${REST_ARGS[@]}"
        return
      fi
      verb_fault "${REST_ARGS[@]}"
      ;;
    k8s)
      [[ -z $OPLOG_SIZE_MB ]] || die_usage "--oplog-size sizes the oplog of the Compose stack this lab starts, not of a Kubernetes cluster's"
      verb_k8s "${REST_ARGS[@]}"
      ;;
    *)
      # Any experiments/NAME.yaml is a verb: an experiment is its file, no list to edit here.
      experiment_exists "$verb" || die_usage "unknown verb '$verb'$(verb_hint "$verb")"
      # --on k8s: the loader runs as pods on a Kubernetes cluster (k8s/loaders.sh)
      if rest_has --on; then
        [[ -z $OPLOG_SIZE_MB ]] || die_usage "--oplog-size sizes the oplog of the Compose stack this lab starts, not of a Kubernetes cluster's"
        k8s_load; k8s_run_experiment "$verb" "${REST_ARGS[@]}"
        return
      fi
      verb_experiment "$verb" "${REST_ARGS[@]}"
      ;;
  esac
}

# Sourced by the bats tests to call functions one by one; executed by users.
if [[ ${BASH_SOURCE[0]} == "$0" ]]; then
  trap 'exit 130' INT
  main "$@"
fi
