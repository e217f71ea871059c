# shellcheck shell=bash
# Experiment verbs: ./run.sh NAME [flags] for every experiments/NAME.yaml (seeds/004 gave the
# first three; an experiment is its file, the loader is loader/bin/lab-loader.js).
#   In a stack:  stands the engine's stack up if needed (verb_up), then runs compose/loader.yml's
#                loader one-shot on the stack network (the command line: that file's header).
#   --uri URI:   no Docker at all; loader/bin/lab-loader (node lab-loader.js) on this host against URI.
# Experiment flags are the loader's to check (experiment_loader_check; DEVELOPERS.md "Loader
# contract"); bash checks only the engine and profile (run.sh), where the loader runs (--uri or the
# stack, --via) and which flags go with which route. Exit codes: the loader's (loader/README.md
# "Exit codes"). The closing "results: DIR" line names the folder this run created, read from the
# loader's own closing line (EXPERIMENT_RESULTS), never `latest`: a run that wrote nothing prints none.

# Where the stack's loader connects (--via), by service name, with the root password file that
# compose/loader.yml mounts from .secrets/<engine>/ (never on a command line).
#   primary (default): the shard's replica set, so the driver talks to its primary. seeds/004 did
#            this on purpose ("we did not want to exercise the mongos or the config servers"),
#            and the collection is not sharded, so mongos would only add a hop to every op.
#   mongos:  through the router, as an application of a sharded cluster would.
# The users exist on the shard too (compose/init/init.js), so both log in the same way. Hosts and
# set come from compose/topology.tsv: the first shard set's members, or the first router.
experiment_stack_uri() {
  local set m hosts=()
  case $1 in
    primary)
      set=$(topology_sets shard | first_line)
      for m in $(topology_set_members "$set"); do hosts+=("$m:$(topology_field "$m" port)"); done
      local IFS=,
      echo "mongodb://${hosts[*]}/?replicaSet=$set"
      ;;
    mongos)
      m=$(topology_services router | first_line)
      echo "mongodb://$m:$(topology_field "$m" port)/"
      ;;
    *) return 1 ;;
  esac
}
EXPERIMENT_SECRETS=/run/lab-secrets

# experiments_usage: one line per experiments/NAME.yaml: its name and first comment line.
experiments_usage() {
  local f name desc
  for f in "$LAB_ROOT"/experiments/*.yaml; do
    [[ -f $f ]] || continue
    name=$(basename "$f" .yaml)
    desc=$(sed -n '1s/^# *//p' "$f")
    printf '  %-24s%s\n' "$name" "${desc#"$name": }"
  done | wrap_lines 26
}

# experiment_help NAME: ./run.sh NAME --help: the experiment's line, ./run.sh's routing flags and
# the flags the loader says NAME takes (`lab-loader flags NAME`: defaults from the file, as it loads
# it, then its workload kind's own), within 120 columns.
experiment_help() {
  local name=$1
  printf 'Usage: ./run.sh %s [--engine E | --uri URI] [flags]\n' "$name"
  experiments_usage | grep -E "^  $name( |\$)" || true
  printf '\nExperiment flags:\n'
  experiment_flags_usage "$name"
  printf '\nCommon flags and every other verb: ./run.sh help\n'
}

# experiment_exists NAME: experiments/NAME.yaml is there (and NAME is a plain name, not a path).
experiment_exists() {
  is_name "$1" && [[ -f $LAB_ROOT/experiments/$1.yaml ]]
}

# experiment_flags_usage [NAME]: ./run.sh help's "Experiment flags" (NAME --help's with NAME):
# ./run.sh's own routing flags, then the flags the loader takes, from the loader (`lab-loader
# flags`: one help for both, its defaults read from the experiment files), as the fault flags come
# from lab-fault.js.
experiment_flags_usage() {
  cat <<USAGE | wrap_lines 26
  --uri URI               run the loader on this host against URI (any cluster); no Docker
  --via primary|mongos    in the stack: straight to the shard's primary, as seeds/004 did
                          (default), or through mongos
  --tool lab|ycsb         ycsb-a: ycsb runs YCSB 0.17.0 itself on the stack with the same
                          parameters (images/ycsb), written as the same summary.json
  With --uri the results are filed under the engine the server reports unless --engine says
  otherwise. Durations: a number and a unit, 500ms, 30s, 2m, 1h (decimals allowed).
  Results: results/<experiment>/<engine>/<UTC time>/ (summary.json, timeline.ndjson); latest -> newest.
USAGE
  if loader_on_host; then
    node "$LAB_ROOT/loader/bin/lab-loader.js" flags ${1:+"$1"} --experiments-dir "$LAB_ROOT/experiments"
  else
    echo "  (the loader's flags: node loader/bin/lab-loader.js flags${1:+ $1}, after 'cd loader && npm ci')"
  fi
}

# experiment_loader_check NAME URI LOADER_ARGS...: the loader's own parser and experiment-file
# checks (`lab-loader check`, which connects to nothing), run before anything starts, also under
# --dry-run (it changes nothing), where it also prints the kind's settings and their sources. Its
# one-line message is ours; exit 2. The loader also says what ./run.sh needs of the experiment
# (loader/src/cli/stack-requests.js): EXPERIMENT_FACTS (kind, database, clients, smoke) and
# EXPERIMENT_HOOKS (the kind's stack hooks, request lines). On this host when it has Node.js, else
# in the loader's image (a stack run builds it anyway); a dry run without either has no facts.
# URI "": a stack run's, which the loader parses when it starts in the stack (experiment_stack_uri
# builds it from the topology): the check leaves --uri out and so does not load the driver.
# EXPERIMENT_CHECK_CACHE (a folder; compare sets it): each answer kept by its arguments, the
# --comparison position aside (the check's answer does not depend on it), so that compare asks the
# loader once per side, not once per position (a dry run of --repeat 100: 2.5 s each, 8 min).
declare -A EXPERIMENT_FACTS=()
EXPERIMENT_HOOKS=()
EXPERIMENT_CHECK_LINES=
EXPERIMENT_CHECK_CACHE=""
experiment_loader_check() {
  local name=$1 uri=$2 out rc=0 line key="" a prev=""
  shift 2
  EXPERIMENT_FACTS=() EXPERIMENT_HOOKS=() EXPERIMENT_CHECK_LINES=""
  if [[ -n $EXPERIMENT_CHECK_CACHE ]]; then
    key="$name"$'\x1f'"$uri"
    for a in "$@"; do
      [[ $prev == --comparison ]] && a=${a%:*}:N
      key+=$'\x1f'$a prev=$a
    done
    key=$(printf '%s' "$key" | cksum | tr ' ' _)
  fi
  if [[ -n $key && -f $EXPERIMENT_CHECK_CACHE/$key.rc ]]; then
    out=$(cat "$EXPERIMENT_CHECK_CACHE/$key.out") rc=$(cat "$EXPERIMENT_CHECK_CACHE/$key.rc")
  elif loader_on_host; then
    # the URI in the loader's environment (experiment_on_host says why)
    out=$(LAB_LOADER_URI=$uri node "$LAB_ROOT/loader/bin/lab-loader.js" check "$name" --experiments-dir "$LAB_ROOT/experiments" "$@" 2>&1) || rc=$?
  elif [[ $DRY_RUN == 1 ]]; then
    info "note: node or loader/node_modules not found on this host: the loader checks the flags when it starts (in its image), and says then what else the experiment needs of the stack"
    return 0
  else
    out=$(compose --profile loader run --rm --no-deps --build -T --entrypoint node loader \
      /lab/loader/bin/lab-loader.js check "$name" --experiments-dir /lab/experiments ${uri:+--uri "$uri"} "$@" 2>&1) || rc=$?
  fi
  if [[ -n $key && ! -f $EXPERIMENT_CHECK_CACHE/$key.rc ]]; then
    printf '%s' "$out" >"$EXPERIMENT_CHECK_CACHE/$key.out" && echo "$rc" >"$EXPERIMENT_CHECK_CACHE/$key.rc"
  fi
  if ((rc)); then
    # its error line, else its last (a warning may come first)
    out=$(grep -m1 '^error: ' <<<"$out" || grep . <<<"$out" | tail -1)
    ((rc == 2)) && die_usage "${out#error: }"
    die_env "the loader could not check the flags (exit $rc): ${out#error: }"
  fi
  local -a w
  while IFS= read -r line; do
    line=${line%$'\r'}
    case $line in
      @lab-fact$'\t'*) IFS=$'\t' read -r -a w <<<"$line" && EXPERIMENT_FACTS[${w[1]}]=${w[2]:-} ;;
      @lab-docker$'\t'*) EXPERIMENT_HOOKS+=("$line") ;;
      *) [[ -z $line ]] || EXPERIMENT_CHECK_LINES+=${EXPERIMENT_CHECK_LINES:+$'\n'}$line ;;
    esac
  done <<<"$out"
  # the kind's settings, shown by a dry run (EXPERIMENT_CHECK_DEFER=1: the caller shows them after
  # checks of its own that must come first)
  [[ $DRY_RUN != 1 || -z $EXPERIMENT_CHECK_LINES || ${EXPERIMENT_CHECK_DEFER:-0} == 1 ]] || printf '%s\n' "$EXPERIMENT_CHECK_LINES"
}

# experiment_hooks PHASE NAME VIA LOADER_ARGS...: perform the stack hooks the loader asked for
# (EXPERIMENT_HOOKS; docker-ops.tsv rows of kind hook whose command is an experiment_hook_
# function), each at PHASE (after: the loader's run ended well).
experiment_hooks() {
  local phase=$1 line rc=0
  shift
  local -a w
  for line in ${EXPERIMENT_HOOKS[@]+"${EXPERIMENT_HOOKS[@]}"}; do
    IFS=$'\t' read -r -a w <<<"$line"
    { fault_action_argv "${w[@]:2}" && [[ $FAULT_KIND == hook && ${FAULT_ARGV[0]} == experiment_hook_* ]]; } ||
      die_env "the loader asked for '${w[2]:-}' as a stack hook: ${FAULT_WHY:-not an experiment hook in $FAULT_OPS_TSV}"
    "${FAULT_ARGV[0]}" "$phase" "$@" || rc=$?
  done
  return "$rc"
}

# experiment_results_from FILE: the folders named by the loader's closing "results: DIR" lines in
# FILE (one per repetition with --repeat), one per line, in order, relative to the repository (the
# stack's loader sees the repository's results/ as /lab/results/); nothing when the loader wrote
# no folder.
experiment_results_from() {
  local dir
  tr -d '\r' <"$1" | sed -n 's/^results: \(.*\)$/\1/p' | awk '!seen[$0]++' | while IFS= read -r dir; do
    [[ $dir != /lab/results/* ]] || dir=${dir#/lab/}
    echo "${dir#"$LAB_ROOT"/}"
  done
}
# experiment_forward SIG GROUP: pass SIG to the loader's process group once. timeout(1) and
# service managers signal run.sh and its whole group, so one SIGTERM can reach run.sh twice within
# microseconds; forwarded twice, the loader took the second as "stop now" and forced its exit. A
# repeat within 0.5 s is that echo and is dropped; a later one is the user's and is passed on.
# EPOCHREALTIME is bash 5's; on 4.4 every signal is passed on, as before.
experiment_forward() {
  local now=${EPOCHREALTIME/./} last_var="EXPERIMENT_LAST_$1"
  if [[ -n $now && -n ${!last_var:-} ]] && ((now - ${!last_var} < 500000)); then return 0; fi
  printf -v "$last_var" '%s' "$now"
  kill -s "$1" -- "-$2" 2>/dev/null || true
}

# experiment_run_loader CMD...: run the loader (node or compose run) with its stdout shown as it
# comes and also kept, to learn which folder this run created (EXPERIMENT_RESULTS). tee -i: a
# Ctrl-C reaches the loader, which prints its table and closing lines; tee must still copy them.
# The loader's own "results: DIR" lines are kept, not shown: verb_experiment prints each folder
# once, relative to the repository (the stack's loader names it as the container sees it); the
# filter ignores SIGINT as tee does, so the lines after a Ctrl-C still come through.
EXPERIMENT_RESULTS=""
experiment_run_loader() {
  EXPERIMENT_RESULTS=""
  if [[ $DRY_RUN == 1 ]]; then
    run "$@"
    return
  fi
  local out rc=1
  out=$(mktemp "${TMPDIR:-/tmp}/lab-loader-out.XXXXXX")
  # The loader, tee and the filter run as a process group of their own (set -m), and a SIGINT or
  # SIGTERM to run.sh, whether sent to run.sh alone (kill PID) or to its whole group (Ctrl-C in a
  # terminal, timeout(1), a service manager), is passed to that group once: the loader stops
  # cleanly and prints its table and results line, exactly once per signal (a second one forces
  # its exit). tee, the filter and the subshells ignore both (inherited from `trap ''` when they
  # start) and stay to show the lines; the loader sets its own handlers over the inherited
  # "ignore" (node, and docker's signal forwarding, do). A signal ignored here was the old way,
  # and a kill to run.sh alone was then lost: the run went on to its end and exited 0.
  # stdin from /dev/null: a background group that reads the terminal would be stopped (SIGTTIN).
  # A hang-up (SIGHUP: the terminal closed, its shell hangs up the job, not the loader's own group)
  # is passed on as SIGTERM, which the loader handles as a stop; untrapped it ended run.sh at once
  # and left the loader running, its run never recorded.
  # A terminal that goes away (EIO on every write) ends grep, the filter that shows the lines; tee
  # ignores SIGPIPE so that it goes on copying the loader's closing lines into the file: without
  # them the run's folder was unknown here and a comparison recorded its position with none.
  # The loader's stderr is the terminal (fd 4); the group's own is /dev/null, where bash reports
  # a loader killed outright ("Killed"): experiment_killed says it in words instead.
  # LAB_RUN_DIRS_FILE: the loader writes each folder there as it creates it (src/run/runner.js).
  # A signal while the group's id is read (ps, a moment on a busy host) is kept and passed on
  # once it is known: ignored there, a single SIGTERM (timeout, a service manager) was lost.
  local traps group pipeline hup=0 pending=""
  traps=$(trap -p INT TERM HUP)
  trap '' INT TERM HUP
  : >"$out.dirs"
  set -m
  { local r=0; LAB_RUN_DIRS_FILE=$out.dirs "$@" </dev/null 2>&4 4>&- || r=$?; echo "$r" >"$out.rc"; } 4>&2 2>/dev/null |
    (trap '' PIPE; exec tee -i "$out") | (trap '' INT; exec grep --line-buffered -v '^results: ') &
  pipeline=$!
  set +m
  trap 'pending=INT' INT
  trap 'pending=TERM' TERM
  trap 'hup=1; pending=TERM' HUP
  process_group group "$pipeline"
  trap 'experiment_forward INT "$group"' INT
  trap 'experiment_forward TERM "$group"' TERM
  trap 'hup=1; experiment_forward TERM "$group"' HUP
  [[ -z $pending ]] || experiment_forward "$pending" "$group"
  wait_ended "$pipeline" || true # its exit code is the loader's, in $out.rc
  trap - INT TERM HUP
  eval "$traps"
  rc=$(cat "$out.rc" 2>/dev/null || echo 1)
  if ((hup)); then
    info "hang-up (SIGHUP): the loader was stopped as by SIGTERM; what it measured is kept, marked incomplete"
    rc=129
  fi
  EXPERIMENT_RESULTS=$(experiment_results_from "$out")
  experiment_killed "$rc" "$out.dirs"
  rm -f "$out" "$out.rc" "$out.dirs"
  return "$rc"
}

# experiment_killed RC DIRS_FILE: after a loader killed outright (RC 128 + a signal it could not
# handle: SIGKILL from the OOM killer or kill -9, 137), the terminal is put back as it was (the
# progress bar hides the cursor and turns line wrap off, and only the loader could undo it), and
# each folder it created (DIRS_FILE) without its closing "results:" line is named, marked as
# killed in its summary.json by the loader (lib/summary-merge.sh summary_mark_incomplete: the
# placeholder's exit_code null becomes RC), and added to
# EXPERIMENT_RESULTS: its "results:" line then says the folder and that it holds nothing measured.
EXPERIMENT_KILLED="" # the folders of a killed loader, one a line
experiment_killed() {
  local rc=$1 dirs_file=$2 dir sig reason
  EXPERIMENT_KILLED=""
  ((rc > 128)) || return 0
  case $rc in 129 | 130 | 143) return 0 ;; esac # handled: the loader stopped and saved
  # \e[?25h shows the cursor, \e[?7h turns autowrap back on (the bar's cli-progress turned them off)
  [[ ! -t 2 ]] || printf '\e[?25h\e[?7h' >&2 2>/dev/null || true
  sig=$(kill -l "$((rc - 128))" 2>/dev/null || echo "signal $((rc - 128))")
  reason="the loader was killed by SIG${sig#SIG} (exit $rc: the kernel's OOM killer or kill -9) before it could save: nothing it measured is kept"
  info "$reason"
  while IFS= read -r dir; do
    [[ -n $dir ]] || continue
    case $dir in "$LAB_ROOT"/*) dir=${dir#"$LAB_ROOT"/} ;; esac
    grep -qxF -- "$dir" <<<"$EXPERIMENT_RESULTS" && continue
    summary_mark_incomplete "$reason" "$rc" "$dir" 2>/dev/null || true
    EXPERIMENT_KILLED+=${EXPERIMENT_KILLED:+$'\n'}$dir
    EXPERIMENT_RESULTS+=${EXPERIMENT_RESULTS:+$'\n'}$dir
  done <"$dirs_file"
}

EXPERIMENT_RESULTS_DIR="" # --results-dir, absolute (caller_path); empty: the checkout's results/
verb_experiment() {
  local name=$1 uri="" via="" password_file="" tool="" flag value rc=0
  shift
  local loader_args=()
  local FLAG VALUE SHIFT_BY
  EXPERIMENT_RESULTS_DIR=""
  while (($#)); do
    split_flag "$@" || die_usage "$name does not take '$1'"
    flag=$FLAG value=$VALUE
    shift "$SHIFT_BY"
    # A flag without a value: routing flags are bash's (needs a value); any other goes to the
    # loader alone, whose parser says whether it is unknown (--verbose) or needs a value (--docs).
    ((!VALUE_EMPTY)) || empty_value_error "$flag"
    if [[ -z $value ]]; then
      case $flag in
        --uri | --via | --password-file | --tool | --loaders) die_usage "$flag needs a value" ;;
        *) loader_args+=("$flag"); continue ;;
      esac
    fi
    case $flag in
      --uri) [[ -z $uri ]] || die_usage "--uri is given twice: an experiment runs against one cluster (compare --uri NAME=URI --uri NAME=URI runs several)"; uri=$value ;;
      --via) via=$value ;;
      # what compare (the comparison a run belongs to) and the stack's loader (its image) record
      # for a run: typed by hand they would forge its provenance in summary.json
      --comparison | --image)
        [[ ${COMPARE_RUNNING:-0} == 1 && $flag == --comparison ]] ||
          die_usage "$flag is set by ./run.sh itself (compare names the comparison, the stack its image): not a flag to give"
        loader_args+=("$flag" "$value")
        ;;
      --password-file) password_file=$value ;;
      --tool) tool=$value ;; # lab (the loader, default) or ycsb (YCSB itself: lib/ycsb.sh)
      # where the user stands, not the checkout run.sh works in (the loader would take it from there)
      --results-dir) EXPERIMENT_RESULTS_DIR=$(caller_path "$value") ;;
      # several loaders are pods of a Job: only the Kubernetes path has them (lib/k8s.sh)
      --loaders) die_usage "--loaders runs that many loader pods on Kubernetes: it goes with --on k8s (./run.sh $name --on k8s --loaders $value)" ;;
      *) loader_args+=("$flag" "$value") ;;
    esac
  done
  [[ -z $via || $via == primary || $via == mongos ]] || die_usage "--via needs primary or mongos (got '$via')"
  [[ -z $password_file || -r $password_file ]] || die_usage "--password-file: cannot read '$password_file'"
  if [[ -z $uri && ( -n $password_file || " ${loader_args[*]} " == *" --username "* ) ]]; then
    die_usage "--password-file and --username go with --uri (the stack's loader uses the stack's own secret)"
  fi
  [[ -z $uri || -z $via ]] || die_usage "--via chooses where the stack's loader connects; with --uri the URI says it"
  # --profile, --mongos, --journal-path and --oplog-size (run.sh's STACK_FLAGS_GIVEN, in the order
  # given) shape the stack this lab starts: with --uri they would be dropped, recorded nowhere, so
  # the first is refused.
  if [[ -n $uri ]]; then
    case ${STACK_FLAGS_GIVEN[0]:-} in
      --profile) die_usage "--profile does not apply to --uri: it sizes the cluster this lab starts, and the one at --uri has its own (describe it with --label, e.g. --label platform=aws-m5.large)" ;;
      --mongos) die_usage "--mongos does not apply to --uri: it sets how many routers this lab starts; name the routers to use in the URI" ;;
      --journal-path) die_usage "--journal-path does not apply to --uri: it places the journals of the cluster this lab starts" ;;
      --oplog-size) die_usage "--oplog-size does not apply to --uri: it sizes the oplog of the cluster this lab starts (the loader records the one at --uri from the server)" ;;
    esac
  fi
  # the stack's loader writes into the checkout's results/, mounted in its container
  [[ -n $uri || -z $EXPERIMENT_RESULTS_DIR ]] ||
    die_usage "--results-dir goes with --uri (the stack's loader writes into this checkout's results/)"
  if [[ -z $uri && " ${loader_args[*]} " == *" --metrics-port "* ]]; then
    die_usage "--metrics-port goes with --uri (the stack's loader serves 9464 on the stack network, where Prometheus scrapes it)"
  fi
  [[ -z $tool || $tool == lab || $tool == ycsb ]] || die_usage "--tool needs lab or ycsb (got '$tool')"
  # A --uri run is labelled with --engine when it was given (any word), else the loader files it
  # under the engine the server reports: run.sh's ENGINE is wiredtiger both when --engine
  # wiredtiger is given and when no --engine is; ENGINE_GIVEN tells the two apart.
  local label=""
  # shellcheck disable=SC2153  # ENGINE is run.sh's
  [[ $ENGINE_GIVEN != 1 ]] || label=$ENGINE
  if [[ $tool == ycsb ]]; then
    # --tool ycsb runs only experiments of YCSB's own workloads: the loader's check refuses
    # another, naming those it runs (bash reads no YAML), first, whatever else was given: with
    # --uri, "drop --uri" would name the wrong problem for an experiment it cannot run at all.
    EXPERIMENT_CHECK_DEFER=1 experiment_loader_check "$name" "" --tool ycsb "${loader_args[@]}"
    [[ -z $uri ]] || die_usage "--tool ycsb runs YCSB in a container on the stack network: drop --uri (--via primary|mongos chooses where it connects)"
    [[ $DRY_RUN != 1 || -z $EXPERIMENT_CHECK_LINES ]] || printf '%s\n' "$EXPERIMENT_CHECK_LINES"
    # shellcheck source=lib/ycsb.sh
    source "$LAB_ROOT/lib/ycsb.sh"
    ycsb_experiment "$name" "${via:-primary}" "${loader_args[@]}" || rc=$?
  elif [[ -n $uri ]]; then
    # --uri runs the loader on this host: what it lacks there is said first (else its check would
    # run in the loader's image)
    [[ $DRY_RUN == 1 ]] || experiment_host_loader_ready
    experiment_loader_check "$name" "$uri" ${label:+--engine "$label"} ${password_file:+--password-file "$password_file"} "${loader_args[@]}"
    experiment_on_host "$name" "$uri" "$label" "$password_file" "${loader_args[@]}" || rc=$?
  else
    experiment_loader_check "$name" "" "${loader_args[@]}"
    experiment_in_stack "$name" "${via:-primary}" "${loader_args[@]}" || rc=$?
    # what the kind asked of the stack after its run (bulk_import: seeds/001's journal-off case)
    ((rc)) || experiment_hooks after "$name" "${via:-primary}" "${loader_args[@]}" || rc=$?
  fi
  # The folders this run created, one per repetition (none: no results line; never an older run's).
  # A closed stdout (| head) drops these lines, and run.sh still ends with the loader's code: the
  # loader stopped cleanly and marked its summary; SIGPIPE would make it 141 instead.
  local dir note
  trap '' PIPE
  while IFS= read -r dir; do
    [[ -n $dir ]] || continue
    note=""
    ! grep -qxF -- "$dir" <<<"$EXPERIMENT_KILLED" || note=" (incomplete: the loader was killed, exit $rc; nothing measured is kept)"
    echo "results: $dir$note" 2>/dev/null || true
  done <<<"$EXPERIMENT_RESULTS"
  trap - PIPE
  return "$rc"
}

# experiment_host_loader_ready: node and the loader's dependencies on this host (--uri runs the
# loader here), else exit 1 naming the fix.
experiment_host_loader_ready() {
  command -v node >/dev/null 2>&1 ||
    die_env "node is not installed: --uri runs the loader on this host and needs Node.js >= 20.19 (or drop --uri to run it in the stack)"
  [[ -d $LAB_ROOT/loader/node_modules/mongodb ]] ||
    die_env "the loader's dependencies are missing: run 'cd loader && npm ci --omit=dev' first"
}

# experiment_on_host NAME URI LABEL PASSWORD_FILE LOADER_ARGS...: the loader as a host process.
experiment_on_host() {
  local name=$1 uri=$2 label=$3 password_file=$4
  shift 4
  local args=("$name" ${label:+--engine "$label"} --results-dir "${EXPERIMENT_RESULTS_DIR:-$LAB_ROOT/results}" "$@")
  [[ -n $password_file ]] && args+=(--password-file "$password_file")
  # The experiment file is read from this checkout (not the loader's own folder's).
  args+=(--experiments-dir "$LAB_ROOT/experiments")
  # bin/lab-loader: node with the GC flags the loader's CPUs call for (one CPU: --single-threaded-gc).
  # The URI goes in the loader's environment, not its arguments: `ps` shows a process's arguments
  # to every user of the host, password and all (a --resume's URIs come from .secrets/), and its
  # environment to its own user only (/proc/PID/environ, mode 400). A dry run prints it masked.
  if [[ $DRY_RUN == 1 ]]; then
    EXPERIMENT_RESULTS=""
    run "LAB_LOADER_URI=$uri" "$LAB_ROOT/loader/bin/lab-loader" "${args[@]}"
    return 0
  fi
  LAB_LOADER_URI=$uri experiment_run_loader "$LAB_ROOT/loader/bin/lab-loader" "${args[@]}"
}

# experiment_image_ref IMAGE: IMAGE with the digest Docker pulled it by (mongo:8.0@sha256:...), or
# IMAGE alone when Docker has none for it (a local build) or under --dry-run.
experiment_image_ref() {
  local digest=""
  [[ $DRY_RUN == 1 ]] ||
    digest=$(docker image inspect --format '{{if .RepoDigests}}{{index .RepoDigests 0}}{{end}}' "$1" 2>/dev/null || true)
  if [[ $digest == *@sha256:* ]]; then echo "$1@${digest#*@}"; else echo "$1"; fi
}

# experiment_stack_not_up: the services of a partly running stack that are not up (one a line).
experiment_stack_not_up() {
  local state svc
  state=$(cluster_ps)
  while IFS= read -r svc; do
    [[ -n $svc ]] || continue
    service_up "$state" "$svc" || echo "$svc"
  done < <(cluster_services)
}

# experiment_in_stack NAME VIA LOADER_ARGS...: the loader container on the stack as it is.
# A stopped stack is started (verb_up); a running one is never touched: `run --no-deps` keeps
# Compose from recreating the shard members whose configuration differs from the file's (after
# `fault stale-secondary` or `replica-lag --method failpoint` set LAB_SHARD_EXTRA_ARGS), which
# would cost a cold cache on wiredtiger and an empty shard on inmemory. A partly running stack
# is named, with the command that brings it back, and nothing starts.
experiment_in_stack() {
  local name=$1 via=$2
  shift 2
  # --metrics-host 0.0.0.0: Prometheus scrapes loader:9464 over the stack network; no host port.
  local args=("$name" --uri "$(experiment_stack_uri "$via")" --password-file "$EXPERIMENT_SECRETS/root-password"
    --metrics-host 0.0.0.0 --engine "$ENGINE" "$@")
  if [[ $MONITORING == 1 ]] && ! left_out grafana; then
    args+=(--grafana-url http://grafana:3000 --grafana-password-file "$EXPERIMENT_SECRETS/grafana-admin-password")
  fi
  if [[ $DRY_RUN != 1 ]] && stack_has_running; then
    local missing
    missing=$(experiment_stack_not_up | paste -sd' ' -)
    [[ -z $missing ]] ||
      die_env "the $ENGINE stack is only partly up (not up: $missing); an experiment runs on the stack as it is and does not restart members: bring it back with './run.sh up --engine $ENGINE' (after a fault: './run.sh fault heal --engine $ENGINE'), then run the experiment again"
  fi
  verb_up # starts a stopped stack; says "already up" otherwise
  # After up, so the image is pulled; the digest pins what "mongo:8.0" meant on the day of the run.
  args+=(--image "mongodb=$(experiment_image_ref "$(engine_field "$ENGINE" image)")")
  # For summary.json: the resource profile the stack runs with (a --uri run has none), where the
  # shard members' journals are (--journal-path: storage.journal_path) and their --oplogSize when
  # --oplog-size set it (storage.oplog_mb).
  args+=(--profile "$PROFILE" ${JOURNAL_PATH:+--journal-path "$JOURNAL_PATH"} ${OPLOG_SIZE_MB:+--oplog-size "$OPLOG_SIZE_MB"})
  # Docker would create a missing bind-mount source as root; the loader runs as the user.
  run mkdir -p "$LAB_ROOT/results"
  local since rc=0
  since=$(date -u +%Y-%m-%dT%H:%M:%S)
  # Each shard member's block writes over the loader's invocation (lib/block-writes.sh): read
  # right before it starts and after it ends.
  [[ $DRY_RUN == 1 ]] || block_writes_before
  experiment_run_loader compose --profile loader run --rm --no-deps --build --use-aliases loader "${args[@]}" || rc=$?
  if [[ $DRY_RUN != 1 ]]; then
    block_writes_after || true
    # A member killed for memory during the run (it may have gone on, failed over): incomplete.
    experiment_oom_check "$since" || rc=1
    # The shard members' data directories on disk, into the run's summary.json footprint.
    experiment_data_dirs || true
    # what was measured, merged by the loader into each summary.json (lib/summary-merge.sh)
    summary_merge_measured || rc=1
  fi
  return "$rc"
}

# experiment_data_dirs: each shard member's data directory size on disk after the run (`du -sb
# /data/db` inside the member, what seeds/004 measured with `du -sh`: data, indexes, journal,
# oplog and, on MMAPv1, preallocated files), for summary.json footprint.data_dir_bytes
# {member: bytes} of each folder this run created (EXPERIMENT_RESULTS; lib/summary-merge.sh): the
# loader's container sees no member volume. A member that does not answer is left out; none:
# nothing is changed.
experiment_data_dirs() {
  local svc out bytes pairs=() obj dir note
  while IFS= read -r svc; do
    # stdin from /dev/null: compose exec -T forwards it and would eat the rest of the member list
    out=$(compose exec -T "$svc" du -sb /data/db </dev/null 2>/dev/null) || continue
    bytes=${out%%[[:space:]]*}
    [[ $bytes =~ ^[0-9]+$ ]] && pairs+=("\"$svc\": $bytes")
  done < <(topology_services shard)
  ((${#pairs[@]})) || return 0
  obj="{$(summary_join "${pairs[@]}")}"
  note='"du -sb /data/db in each shard member after the run (./run.sh): data, indexes, journal, oplog and any preallocated files"'
  summary_measured data_dir_bytes "$obj" data_dir_note "$note"
  while IFS= read -r dir; do
    [[ -n $dir && -f $LAB_ROOT/$dir/summary.json ]] || continue
    info "$dir: shard members' data directories on disk: $obj bytes (summary.json footprint.data_dir_bytes)"
  done <<<"$EXPERIMENT_RESULTS"
}

# experiment_hook_journal_off PHASE NAME VIA LOADER_ARGS... (the bulk_import kind's stack hook,
# loader/src/kinds/bulk_import.js hooks): seeds/001's import without a journal, after the
# bulk-import cases, on an engine whose server line allows it (engines table nojournal: which and
# why, DEVELOPERS.md). The shard members are restarted with --nojournal one at a time (Compose
# recreates each and waits until it is healthy), the loader runs the journal-off case alone
# (--members-journal off; it checks getCmdLineOpts itself, and holds the set's
# writeConcernMajorityJournalDefault false for it: SERVER-49428, loader/src/kinds/durability/journal-majority.js),
# and the members are restarted as the stack defines them, journal on. On an engine that cannot:
# said once.
experiment_hook_journal_off() {
  [[ $1 == after ]] || return 0
  local name=$2 via=$3 rc=0 before
  shift 3
  if ! engine_is "$ENGINE" nojournal; then
    info "journal off: not run on $ENGINE (compose/engines.tsv nojournal: no; its members cannot run without a journal, or it has none)"
    return 0
  fi
  info "journal off: restarting the $ENGINE shard members with --nojournal, one at a time (compose/engines.tsv nojournal: yes)"
  local saved=("${STACK_EXTRA_ENV[@]}")
  STACK_EXTRA_ENV+=("LAB_SHARD_EXTRA_ARGS=$(stack_shard_args_with --nojournal)") # beside a fault's kept arguments
  experiment_journal_restart --nojournal " restarts it with its journal"
  before=$EXPERIMENT_RESULTS
  experiment_in_stack "$name" "$via" "$@" --members-journal off || rc=$?
  EXPERIMENT_RESULTS=$(printf '%s\n%s\n' "$before" "$EXPERIMENT_RESULTS" | grep . || true)
  info "journal off: restarting the $ENGINE shard members with their journal"
  STACK_EXTRA_ENV=("${saved[@]}")
  experiment_journal_restart "its journal"
  return "$rc"
}

# experiment_journal_restart WITH [HINT_END]: the shard members recreated as STACK_EXTRA_ENV now
# defines them (with WITH), one at a time, each waited on until healthy; one that is not: exit 1.
experiment_journal_restart() {
  local m
  for m in $(topology_services shard); do
    compose up -d --no-deps --wait "$m" ||
      die_env "journal off: $m did not come back healthy with $1: './run.sh down --engine $ENGINE' then './run.sh up --engine $ENGINE'${2:-}"
  done
}

# experiment_oom_check SINCE: the stack's containers the kernel killed for memory (Docker's
# State.OOMKilled) since SINCE (UTC, YYYY-MM-DDTHH:MM:SS: the run's start); each results folder of
# this run (EXPERIMENT_RESULTS) is marked incomplete with that reason (oom_killed, merged by the
# loader: lib/summary-merge.sh), and the check returns 1.
# A member killed mid-run may leave the run to finish on a new primary with numbers that look
# whole: the loader cannot see the kernel's kill from its container.
experiment_oom_check() {
  local since=$1 names=() killed=() name svc oom running finished dir reason list
  mapfile -t names < <(docker ps -a --filter "label=com.docker.compose.project=$(stack_project)" --format '{{.Names}}' 2>/dev/null)
  ((${#names[@]})) || return 0
  while IFS='|' read -r name svc oom running finished; do
    [[ $oom == true ]] || continue
    # Still running (a process of it killed), or stopped by the kill since the run began.
    [[ $running == true || ! ${finished:0:19} < $since ]] || continue
    killed+=("${svc:-${name#/}}")
  done < <(docker inspect --format '{{.Name}}|{{index .Config.Labels "com.docker.compose.service"}}|{{.State.OOMKilled}}|{{.State.Running}}|{{.State.FinishedAt}}' "${names[@]}" 2>/dev/null)
  ((${#killed[@]})) || return 0
  reason="killed for memory during the run (Docker OOMKilled): ${killed[*]}; the profile's memory limit (compose/profiles.tsv data_mem, cfg_mem) is too small for this engine and load"
  warn "$reason"
  list=$(printf '"%s", ' "${killed[@]}")
  summary_measured oom_killed "[${list%, }]" oom_reason "$(summary_json_string "$reason")"
  while IFS= read -r dir; do
    [[ -n $dir && -f $LAB_ROOT/$dir/summary.json ]] || continue
    info "$dir: marked incomplete (summary.json complete false, reason, oom_killed)"
  done <<<"$EXPERIMENT_RESULTS"
  return 1
}

# smoke_experiments ENGINE (lib/smoke.sh hook): every experiments/NAME.yaml at a tiny scale through
# the stack, with the flags of its `smoke:` line (each experiment file says how to run it small;
# a file without one fails the smoke rather than running at the seed's size), then the
# summary.json that very run wrote (smoke_result_grep: a folder made since smoke_lab began, never
# `latest`, which may be an older run's) says complete and records the storage engine the engines
# table expects, as the shard reports it. Returns 1 if any check failed.
smoke_experiments() {
  local engine=$1 exp file flags want where said rc=0
  want=$(engine_field "$engine" server_engine 2>/dev/null || true)
  # Each file's smoke: flags are the loader's to read (its check); a dry run on a host without it
  # cannot ask (a real smoke asks in the loader's image).
  if [[ $DRY_RUN == 1 ]] && ! loader_on_host; then
    info "dry run: the experiments at their smoke: sizes are not listed: the loader reads those flags (node and loader/node_modules on this host, or the loader's image in a real smoke)"
    return 0
  fi
  # each file's flags asked of the loader once (a node process each), for both loops below
  local -A smoke_flags=()
  local exps=()
  for file in "$LAB_ROOT"/experiments/*.yaml; do
    exps+=("$(basename "$file" .yaml)")
    smoke_flags[${exps[-1]}]=$(experiment_smoke_flags "$file")
  done
  if [[ $DRY_RUN == 1 ]]; then # the dry runs side by side (lib/smoke.sh smoke_prefetch), printed in order below
    for exp in "${exps[@]}"; do
      # shellcheck disable=SC2086  # the flags are words on purpose
      [[ -z ${smoke_flags[$exp]} ]] || smoke_prefetch "$exp" ${smoke_flags[$exp]}
    done
  fi
  for exp in "${exps[@]}"; do
    flags=${smoke_flags[$exp]}
    if [[ -z $flags ]]; then
      smoke_check "$engine: $exp has a smoke: line (its tiny-scale flags)" false || rc=1
      continue
    fi
    # shellcheck disable=SC2086  # the flags are words on purpose
    smoke_check "$engine: $exp runs to completion in the stack ($flags)" smoke_lab "$exp" $flags || rc=1
    [[ $DRY_RUN == 1 ]] && continue
    # a run is filed under the engine the server reports: on the Docker suite's stand-in that is
    # results/NAME/standin/ (never under a real engine), where its summary is then read
    where=$engine
    if ! smoke_new_result "$exp" "$engine" >/dev/null 2>&1 && smoke_new_result "$exp" standin >/dev/null 2>&1; then
      where=standin
    fi
    smoke_check "$engine: $exp summary.json of this run is complete" \
      smoke_result_grep "$exp" "$where" summary.json '"complete": true' || rc=1
    said="$engine: $exp summary.json of this run records storage engine $want as the server reports it"
    if [[ -n $want && $where == standin ]]; then
      smoke_skip "$said" "$SMOKE_STANDIN_WHY"
    elif [[ -n $want ]]; then
      smoke_check "$said" smoke_result_grep "$exp" "$engine" summary.json "\"engine_reported\": \"$want\"" || rc=1
    fi
  done
  return "$rc"
}

# experiment_smoke_flags FILE: the flags of FILE's `smoke:` key as the loader reads it (its check's
# smoke fact), e.g. smoke: "--preload-docs 20000 --clients 1,2 --duration 10s"; nothing when the
# file has none (or under a dry run with no loader on this host).
experiment_smoke_flags() {
  experiment_loader_check "$(basename "$1" .yaml)" "" >/dev/null
  printf '%s' "${EXPERIMENT_FACTS[smoke]:-}"
}
