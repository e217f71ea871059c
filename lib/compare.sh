# shellcheck shell=bash
# ./run.sh compare, in the forms compare_usage (below) prints. One comparison (README.md "Comparing
# engines: the report"): every side (an engine's stack, or an existing cluster at a URI) runs the
# experiment N times, interleaved (loader/src/compare/plan.js), one run at a time through
# verb_experiment (lib/experiment.sh): the same run as `./run.sh EXPERIMENT --engine E --repeat 1`.
# State: results/.comparisons/ID/ (git-ignored with results/; the report skips dot folders), or
# DIR/.comparisons/ID/ with --results-dir DIR (--uri sides: their runs, state and report under DIR;
# stored absolute, so --resume ID --results-dir DIR works from any directory):
#   args     the compare command's own arguments (NUL-separated, mode 600: a URI may hold a user
#            name), every secret masked (redact_secrets): results/ is what users copy, share and
#            attach to a bug report, so it holds no password, ever
#   (the arguments as typed, with their passwords, are in .secrets/.comparisons/ID instead, mode
#   600 in a 700 folder beside the stacks' secrets and git-ignored with them, and only while
#   --resume may still need them: removed once every position is complete, or by
#   `compare --abandon ID`. Written only when a secret was masked, and the user is told where;
#   --resume reads them, else args. `--resume ID --uri NAME=URI` replaces a side's URI (a wrong
#   password or host: resuming alone would fail the same way), stored again the same way.)
#   abandoned  present once `compare --abandon ID` gave the comparison up: no resume
#   plan.tsv position<TAB>side, the order
#   runs.tsv position<TAB>side<TAB>complete|incomplete|interrupted<TAB>exit code<TAB>results folder
#            one line per run made, appended after each run
# A position is done when runs.tsv has a complete line for it; --resume runs the others in plan
# order. What is done, the plan's order and a resume's arguments are decided by loader/src/compare
# (asked through loader/bin/lab-compare.js); this file performs what they decide. Nothing here
# writes into a run's folder: the loader writes it, the report reads it.
# Exit codes: 0 every run complete, 1 some run incomplete or an environment error, 2 bad input,
# 130 interrupted (the state says what is missing; the resume command is printed).

COMPARE_RESULTS_DIR="" # --results-dir, absolute (caller_path); empty: the checkout's results/
COMPARE_DEFAULT_REPEAT=4                # two ABBA blocks: the smallest balanced count with n = 4 a side
COMPARE_ID=""
COMPARE_EXPERIMENT=""
COMPARE_REPEAT=""
COMPARE_SIDES=()      # side names in the order given
declare -gA COMPARE_URI=() # side -> URI (--uri sides only)
COMPARE_FLAGS=()      # experiment flags passed to every run
COMPARE_ARGS=()       # the command's arguments, as stored for --resume
COMPARE_POSITIONS=()  # position<TAB>side<TAB>done|todo, in plan order (loader/src/compare/state.js)

compare_usage() {
  cat <<'USAGE'
  compare EXPERIMENT --engines A,B[,C] [--repeat N] [experiment flags]
  compare EXPERIMENT --uri NAME=URI --uri NAME=URI [--repeat N] [experiment flags]
  compare --resume ID [--uri NAME=URI ...]
                          run only what an interrupted comparison is missing (--uri: replace a
                          side's stored URI, e.g. a wrong password)
  compare --abandon ID    give a comparison up: the passwords kept for its resume are removed
                          every side N times (default 4), interleaved A B B A A B B A (never all
                          of A first), each engine's stack up for its run and down after; prints
                          the plan and its length first, ends with the report of exactly these
                          runs; --dry-run prints the whole plan and every command
USAGE
}

# compare_node_ready: node is here (compare_decide asks it every decision), else one line, exit 1.
compare_node_ready() {
  command -v node >/dev/null 2>&1 ||
    die_env "node is not installed: compare keeps its plan and state with Node.js >= 20.19 (loader/bin/lab-compare.js)"
}

# compare_decide ARRAY DELIM DECISION ARGS...: what loader/bin/lab-compare.js decides (the plan's
# order, what the state says is done, the resumed arguments; this file performs it), its output
# records (DELIM-separated: '' for NUL) into ARRAY. Its refusal is said as compare's own: exit 2
# bad input, 1 the environment.
compare_decide() {
  local -n compare_decided=$1
  local delim=$2 decision_file decision_rc=0 why
  shift 2
  compare_node_ready
  decision_file=$(mktemp "${TMPDIR:-/tmp}/lab-compare-decision.XXXXXX")
  node "$LAB_ROOT/loader/bin/lab-compare.js" "$@" >"$decision_file" 2>"$decision_file.err" || decision_rc=$?
  why=$(cat "$decision_file.err")
  # shellcheck disable=SC2034  # the caller's array (a name reference), filled here
  mapfile -d "$delim" -t compare_decided <"$decision_file"
  rm -f "$decision_file" "$decision_file.err"
  case $decision_rc in
    0) ;;
    2) die_usage "$why" ;;
    1) die_env "$why" ;;
    *) die_env "loader/bin/lab-compare.js $1 failed (exit $decision_rc): $why" ;;
  esac
}

# compare_new_id: cmp-<UTC second>-<4 hex>, unique enough for one host's comparisons.
compare_new_id() { printf 'cmp-%s-%04x\n' "$(date -u +%Y%m%dT%H%M%SZ)" $((RANDOM * 2 % 65536)); }

compare_results_root() { echo "${COMPARE_RESULTS_DIR:-$LAB_ROOT/results}"; }
compare_state_dir() { echo "$(compare_results_root)/.comparisons/$1"; }
# compare_state_shown ID: the state folder as messages name it (relative to the checkout by default).
compare_state_shown() { local d; d=$(compare_state_dir "$1"); d=${d%/}; echo "${d#"$LAB_ROOT"/}/"; }
# compare_cmd resume|abandon: the command that resumes this comparison, or gives it up (and
# removes its kept passwords). Quoted as a shell needs it (quote_cmd): a --results-dir with a
# space pasted back split in two.
compare_cmd() {
  quote_cmd ./run.sh compare "--$1" "$COMPARE_ID" ${COMPARE_RESULTS_DIR:+--results-dir "$COMPARE_RESULTS_DIR"}
}

# compare_secret_file ID: where comparison ID's arguments with their passwords are kept until it
# is complete (the header says why not in results/).
compare_secret_file() { echo "$LAB_ROOT/.secrets/.comparisons/$1"; }

# compare_store_args DIR: COMPARE_ARGS into DIR/args with every secret masked, and as typed into
# compare_secret_file when a secret was masked.
compare_store_args() {
  local dir=$1 a masked=() secret=0 file
  for a in "${COMPARE_ARGS[@]}"; do
    masked+=("$(redact_secrets "$a")")
    [[ ${masked[-1]} == "$a" ]] || secret=1
  done
  (umask 077 && printf '%s\0' "${masked[@]}" >"$dir/args")
  file=$(compare_secret_file "$COMPARE_ID")
  if ((!secret)); then
    rm -f "$file" # a resume that replaced the last URI with a password by one without
    return 0
  fi
  (umask 077 && mkdir -p "${file%/*}" && printf '%s\0' "${COMPARE_ARGS[@]}" >"$file") ||
    die_env "cannot keep the --uri passwords for --resume in ${file#"$LAB_ROOT"/}"
  chmod 700 "$LAB_ROOT/.secrets" "${file%/*}"
  info "the --uri passwords, as typed, are kept for --resume in ${file#"$LAB_ROOT"/} (mode 600) until every run is complete; remove them sooner with: $(compare_cmd abandon)"
}

# compare_resume_args ID NAME=URI...: COMPARE_ARGS = the stored arguments of comparison ID (the
# kept ones with their passwords, else args), each --uri side named here holding its new URI
# (loader/src/compare/resume.js decides; a missing or abandoned state, or a side whose password
# is no longer kept, is refused there: nothing started).
compare_resume_args() {
  local id=$1 hint=()
  shift
  # the state looked for in the checkout's results/: the refusal says where else it may be
  [[ -n $COMPARE_RESULTS_DIR ]] || hint=(--hint-results-dir)
  # the new URIs on stdin, NUL-separated: a password in one stays off node's command line
  compare_decide COMPARE_ARGS '' resume-args "$id" --comparisons "$(compare_results_root)/.comparisons" \
    --secrets "$LAB_ROOT/.secrets/.comparisons" --shown "$(compare_state_shown "")" ${hint[@]+"${hint[@]}"} \
    < <((($#)) && printf '%s\0' "$@")
  COMPARE_ID=$id
}

# compare_resume_place FOUND: the results folder the stored arguments name (COMPARE_RESULTS_DIR,
# absolute) is FOUND, where the resume found the state; one moved since is refused (exit 2):
# runs.tsv names each run's folder by its absolute path, so a resume there would run nothing and
# call the comparison complete, and a run would be written back under the old path.
compare_resume_place() {
  local found=$1 stored
  stored=$(compare_results_root)
  [[ $stored != "$found" ]] || return 0
  if [[ -d $stored && -d $found && $(cd "$stored" && pwd -P) == "$(cd "$found" && pwd -P)" ]]; then return 0; fi
  die_usage "--resume $COMPARE_ID: the comparison was made with --results-dir $stored, and its state is now in $found: a moved results folder cannot be resumed (its runs are recorded by their paths); move it back, or report what it has: ./run.sh report --results-dir $(quote_cmd "$found")"
}

# compare_abandon ID: comparison ID given up: its kept passwords removed, its state marked (no
# resume); its runs stay where they are, for the report.
compare_abandon() {
  local id=$1 dir secret
  # shellcheck disable=SC2034  # check-id says nothing, or refuses
  local -a no_output=()
  compare_decide no_output $'\n' check-id --abandon "$id"
  dir=$(compare_state_dir "$id")
  secret=$(compare_secret_file "$id")
  # Given no --results-dir, the one the kept arguments name: the state is marked there, and not
  # only the passwords removed (a resume there was still offered)
  if [[ -z $COMPARE_RESULTS_DIR && ! -d $dir && -r $secret ]]; then
    local a prev=""
    while IFS= read -r -d '' a; do
      if [[ $prev == --results-dir ]]; then COMPARE_RESULTS_DIR=$a; break; fi
      if [[ $a == --results-dir=* ]]; then COMPARE_RESULTS_DIR=${a#*=}; break; fi
      prev=$a
    done <"$secret"
    dir=$(compare_state_dir "$id")
  fi
  [[ -r $dir/plan.tsv || -e $secret ]] || die_usage "--abandon: no comparison $id in $(compare_state_shown "")$([[ -n $COMPARE_RESULTS_DIR ]] || echo " (add its --results-dir DIR)")"
  run rm -f "$secret"
  [[ ! -d $dir ]] || run touch "$dir/abandoned"
  [[ $DRY_RUN == 1 ]] || info "comparison $id abandoned: its typed --uri passwords are removed (${secret#"$LAB_ROOT"/}); its runs and state stay in $(compare_state_shown "$id")"
}

# compare_parse ARGS...: the compare-specific flags (after run.sh's common flags); experiment
# flags are kept for every run and checked by the loader (compare_check).
compare_parse() {
  local FLAG VALUE SHIFT_BY engines="" name uri
  COMPARE_EXPERIMENT=${1:-}
  [[ -n $COMPARE_EXPERIMENT && $COMPARE_EXPERIMENT != --* ]] || die_usage "compare needs an experiment: ./run.sh compare EXPERIMENT --engines A,B"
  experiment_exists "$COMPARE_EXPERIMENT" || die_usage "compare: unknown experiment '$COMPARE_EXPERIMENT'$(verb_hint "$COMPARE_EXPERIMENT")"
  shift
  while (($#)); do
    split_flag "$@" || die_usage "compare does not take '$1'"
    ((!VALUE_EMPTY)) || empty_value_error "$FLAG"
    shift "$SHIFT_BY"
    # A flag without a value: compare's own need one; any other goes to the loader's check, which
    # says whether it is unknown (--verbose was called one that "needs a value") or needs one.
    if [[ -z $VALUE ]]; then
      case $FLAG in
        --engines | --results-dir | --uri | --repeat | --resume) die_usage "$FLAG needs a value" ;;
        *) COMPARE_FLAGS+=("$FLAG"); continue ;;
      esac
    fi
    case $FLAG in
      --engines) [[ -z $engines ]] || die_usage "--engines is given twice: name every engine in one list (--engines A,B,C)"; engines=$VALUE ;;
      --results-dir)
        COMPARE_RESULTS_DIR=$(caller_path "$VALUE")
        COMPARE_FLAGS+=(--results-dir "$COMPARE_RESULTS_DIR")
        ;;
      --uri)
        # die_usage masks a password in what it quotes
        name=${VALUE%%=*} uri=${VALUE#*=}
        [[ $VALUE == *=* && $name != *://* ]] ||
          die_usage "--uri needs NAME=URI (e.g. --uri atlas=mongodb+srv://user@c0.example/), got '$VALUE'"
        compare_side_name_check --uri "$name"
        [[ $uri =~ ^mongodb(\+srv)?://.+$ ]] ||
          die_usage "--uri $name=URI: '$uri' is not a mongodb:// URI (e.g. mongodb://127.0.0.1:27017/)"
        [[ -z ${COMPARE_URI[$name]:-} ]] || die_usage "--uri: the name '$name' is given twice (each side needs its own)"
        COMPARE_URI[$name]=$uri
        COMPARE_SIDES+=("$name")
        ;;
      --repeat)
        parse_count --repeat "$VALUE" 1 100 || die_usage "$COUNT_ERROR"
        COMPARE_REPEAT=$COUNT
        ;;
      --resume) die_usage "--resume ID goes alone: ./run.sh compare --resume ID (the comparison's flags are stored with it)" ;;
      --group | --comparison) die_usage "$FLAG is set by compare itself (one comparison id, one run per position)" ;;
      --tool) die_usage "--tool: compare runs the lab's loader on every side (run YCSB with ./run.sh ycsb-a --tool ycsb)" ;;
      --on | --loaders) die_usage "$FLAG: compare runs on Docker or on --uri clusters, not on Kubernetes" ;;
      *) COMPARE_FLAGS+=("$FLAG" "$VALUE") ;;
    esac
  done
  [[ -z $engines || ${#COMPARE_SIDES[@]} -eq 0 ]] || die_usage "compare takes --engines (the lab's stacks) or --uri NAME=URI (existing clusters), not both"
  if [[ -n $engines ]]; then
    [[ $engines =~ ^[^,]+(,[^,]+)+$ ]] || die_usage "--engines needs two or more engines, comma-separated (e.g. --engines mmapv1,rocksdb), got '$engines'"
    IFS=, read -r -a COMPARE_SIDES <<<"$engines"
    local e seen=" "
    for e in "${COMPARE_SIDES[@]}"; do
      validate_engine "$e"
      [[ $seen != *" $e "* ]] || die_usage "--engines: '$e' is given twice"
      seen+="$e "
    done
  elif ((${#COMPARE_SIDES[@]} < 2)); then
    die_usage "compare needs two or more sides: --engines A,B or --uri NAME=URI given twice or more"
  fi
  # ENGINE_GIVEN and STACK_FLAGS_GIVEN: run.sh's common flags, read for what compare cannot use.
  # shellcheck disable=SC2153
  [[ $ENGINE_GIVEN != 1 ]] || die_usage "--engine names one engine: compare takes --engines A,B (or --uri NAME=URI twice)"
  if ((${#COMPARE_URI[@]})); then
    [[ -z ${STACK_FLAGS_GIVEN[0]:-} ]] || die_usage "${STACK_FLAGS_GIVEN[0]} does not apply to --uri sides: it sizes the stacks this lab starts"
    [[ " ${COMPARE_FLAGS[*]} " != *" --via "* ]] || die_usage "--via chooses where the stack's loader connects; with --uri each URI says it"
  else
    local f
    for f in --password-file --username --metrics-port --results-dir; do
      [[ " ${COMPARE_FLAGS[*]} " != *" $f "* ]] || die_usage "$f goes with --uri sides (the stacks' loader uses each stack's own secret)"
    done
  fi
  COMPARE_REPEAT=${COMPARE_REPEAT:-$COMPARE_DEFAULT_REPEAT}
}

# compare_side_name_check FLAG NAME: NAME can name a side. It names the side's results folder
# (results/EXPERIMENT/NAME/), so: a plain folder name (letters, digits, . _ -, not starting with a
# dot: the report skips dot folders), short enough for any file system (a folder name is at most
# 255 bytes, and the loader writes deeper paths under it), and none the lab keeps for itself: the
# report skips every folder named report (its own output), and latest is the link to the newest run.
COMPARE_NAME_MAX=64
COMPARE_RESERVED_NAMES=(report latest) # common/names.js RESERVED_NAMES, the loader's list for --engine
compare_side_name_check() {
  local flag=$1 name=$2
  [[ -n $name ]] || die_usage "$flag: the side's name before = is empty (e.g. --uri prod=mongodb://host/)"
  ((${#name} <= COMPARE_NAME_MAX)) ||
    die_usage "$flag: the side's name is ${#name} characters, at most $COMPARE_NAME_MAX (it names the side's results folder)"
  is_name "$name" ||
    die_usage "$flag: the side's name '$name' may hold only letters, digits, . _ - (it names the side's results folder)"
  [[ " ${COMPARE_RESERVED_NAMES[*]} " != *" $name "* ]] ||
    die_usage "$flag: '$name' is a folder name the lab keeps (the report skips report/, latest is a link): choose another"
}

# compare_run_args SIDE POSITION: the experiment verb's arguments for one run.
compare_run_args() {
  local side=$1 pos=$2
  RUN_ARGS=("$COMPARE_EXPERIMENT")
  [[ -z ${COMPARE_URI[$side]:-} ]] || RUN_ARGS+=(--uri "${COMPARE_URI[$side]}")
  RUN_ARGS+=(${COMPARE_FLAGS[@]+"${COMPARE_FLAGS[@]}"} --repeat 1 --comparison "$COMPARE_ID:$side:$pos")
}

# compare_check: every side's runs checked by the loader's own parser before anything starts
# (experiment_loader_check: one line, exit 2), with the --comparison flag the runs will carry.
compare_check() {
  local side uri label
  for side in "${COMPARE_SIDES[@]}"; do
    uri=${COMPARE_URI[$side]:-} label=$side # a --uri side's runs are labelled with its name
    if [[ -z $uri ]]; then
      # the engine's memory against the profile, as its `up` would check it (exit 2 in one line)
      # shellcheck disable=SC2030,SC2031,SC2034  # ENGINE is read by stack_memory_check, in this subshell only
      (ENGINE=$side; stack_memory_check) || exit $?
      label="" # the stack's URI: the loader parses it in the stack (experiment_loader_check)
    fi
    experiment_loader_check "$COMPARE_EXPERIMENT" "$uri" ${label:+--engine "$label"} ${COMPARE_FLAGS[@]+"${COMPARE_FLAGS[@]}"} --repeat 1 --comparison "$COMPARE_ID:$side:1"
  done
}

# compare_estimate: the plan's length, from the loader's own reading of the flags (lab-loader
# estimate: the measured steps of one run); what cannot be known in advance is named, not guessed.
compare_estimate() {
  local todo=$1 line seconds preload parts=() extra=""
  line=$(node "$LAB_ROOT/loader/bin/lab-loader.js" estimate "$COMPARE_EXPERIMENT" --experiments-dir "$LAB_ROOT/experiments" \
    ${COMPARE_FLAGS[@]+"${COMPARE_FLAGS[@]}"} 2>/dev/null) || line=""
  seconds=$(sed -n 's/.*seconds=\([0-9a-z]*\).*/\1/p' <<<"$line")
  preload=$(sed -n 's/.*preload=\([0-9]*\).*/\1/p' <<<"$line")
  ((${#COMPARE_URI[@]})) || parts+=("the stack's up and down")
  [[ ${preload:-0} == 0 ]] || parts+=("the preload of $preload documents")
  if ((${#parts[@]})); then extra="per run ${parts[0]}${parts[1]:+ and ${parts[1]}}"; fi
  if [[ $seconds =~ ^[0-9]+$ ]]; then
    say "$(printf 'estimate: %d run(s) x %s measured = %s%s%s' "$todo" "$(compare_hms "$seconds")" "$(compare_hms $((seconds * todo)))" \
      "$([[ $line == *bound=at-most* ]] && echo ' at most (a search may stop earlier)')" "${extra:+, plus $extra (not known in advance)}")"
  elif [[ -z $line ]]; then
    printf 'estimate: %d run(s); not computed here (node or loader/node_modules missing)\n' "$todo"
  else
    printf 'estimate: %d run(s); their steps end by their work (documents, operations), not by time: not known in advance\n' "$todo"
  fi
}

compare_hms() {
  local s=$1
  if ((s >= 3600)); then printf '%dh%02dm' $((s / 3600)) $((s % 3600 / 60))
  elif ((s >= 60)); then printf '%dm%02ds' $((s / 60)) $((s % 60))
  else printf '%ds' "$s"; fi
}

# compare_print_plan: what will run, in order, before anything starts.
compare_print_plan() {
  local pos side todo=0 mark row uri room line
  local kind="engines ${COMPARE_SIDES[*]}"
  ((${#COMPARE_URI[@]})) && kind="existing clusters ${COMPARE_SIDES[*]}"
  # say: wrapped at 120 columns (four engines ran it to 126)
  say "comparison $COMPARE_ID: $COMPARE_EXPERIMENT on $kind, $COMPARE_REPEAT run(s) each, interleaved"
  for line in "${COMPARE_POSITIONS[@]}"; do
    IFS=$'\t' read -r pos side mark <<<"$line"
    if [[ $mark == "done" ]]; then mark="done"; else mark="to run" todo=$((todo + 1)); fi
    if [[ -n ${COMPARE_URI[$side]:-} ]]; then
      row=$(printf '  %3d  %-16s %-7s ' "$pos" "$side" "$mark")
      uri=$(redact_secrets "${COMPARE_URI[$side]}")
      # A URI longer than the row's room (LAB_WRAP columns) keeps its start and its end (hosts,
      # then options) around a "...": the user typed it whole; the row only says which it is.
      room=$((LAB_WRAP - ${#row}))
      if ((LAB_WRAP > 0 && ${#uri} > room && room > 20)); then
        uri="${uri:0:$(((room - 3) * 2 / 3))}...${uri: -$(((room - 3) - (room - 3) * 2 / 3))}"
      fi
      printf '%s%s\n' "$row" "$uri"
    else
      printf '  %3d  %-16s %s\n' "$pos" "$side" "$mark"
    fi
  done
  if ((COMPARE_REPEAT % 2)); then
    echo "note: an odd --repeat leaves the last round unbalanced (its first side runs earlier); an even one cancels a linear drift"
  fi
  if ((${#COMPARE_URI[@]})); then
    echo "each run: the loader on this host against the side's URI (nothing brought up or down)"
  else
    echo "each run: the engine's stack up, the experiment once (the loader drops and reloads its collection), the stack down;"
    echo "  kept between runs: each engine's volumes (data files) and .secrets/<engine>/, the images; inmemory keeps nothing"
  fi
  compare_estimate "$todo"
  # a dry run writes no state: there would be nothing to resume
  [[ $DRY_RUN == 1 ]] || compare_state_line
}

# compare_state_line: where the state is and the resume command, on one line where it fits
# LAB_WRAP; else (an absolute --results-dir ran it to 195 columns) the folder on its line and
# the command wrapped between words with a trailing backslash, still one command to paste.
compare_state_line() {
  local line
  line="state: $(compare_state_shown "$COMPARE_ID")  (resume: $(compare_cmd resume))"
  if ((LAB_WRAP <= 0 || ${#line} <= LAB_WRAP)); then
    printf '%s\n' "$line"
    return 0
  fi
  say "state: $(compare_state_shown "$COMPARE_ID")"
  echo "resume with:"
  quote_words ./run.sh compare --resume "$COMPARE_ID" ${COMPARE_RESULTS_DIR:+--results-dir "$COMPARE_RESULTS_DIR"}
  print_cmd "${QUOTED[@]}" | sed '1s/^+ /  /'
}

# compare_out LINE: LINE on stdout; when stdout is closed (| head ended, the terminal is gone),
# said once on stderr and the rest of stdout sent to /dev/null: the comparison goes on.
COMPARE_STDOUT_CLOSED=0
compare_out() {
  printf '%s\n' "$1" 2>/dev/null && return 0
  ((COMPARE_STDOUT_CLOSED)) && return 0
  COMPARE_STDOUT_CLOSED=1
  exec >/dev/null
  info "the output was closed (e.g. | head): the comparison goes on, its lines no longer shown; the state keeps every run"
}

# compare_forward SIGNAL: a signal this shell got (its trap), counted, and every one not yet passed
# on passed to the running run's group; with no run (between two runs, or before the run has a
# group), none is passed on: compare_one passes it once the run has one, the loop starts no other.
COMPARE_CHILD=""                         # the running run's process group, while compare_one waits
COMPARE_SIGNAL="" COMPARE_SIGNALS=0 COMPARE_FORWARDED=0 # the last signal; how many came, passed on
compare_forward() {
  COMPARE_SIGNAL=$1
  COMPARE_SIGNALS=$((COMPARE_SIGNALS + 1))
  compare_forward_pending
}
compare_forward_pending() {
  [[ -n $COMPARE_CHILD ]] || return 0
  while ((COMPARE_FORWARDED < COMPARE_SIGNALS)); do
    COMPARE_FORWARDED=$((COMPARE_FORWARDED + 1))
    kill -"$COMPARE_SIGNAL" -- "-$COMPARE_CHILD" 2>/dev/null || true
  done
}

# compare_one SIDE POSITION: one run in a subshell (a die in it ends that run, not the comparison's
# bookkeeping), its folders written to FILE; the engine's stack brought down after, whatever the
# run did. Returns the run's exit code.
# The run is a process group of its own, started in the background and waited for: bash runs a
# trap only once a foreground child has ended, so a signal to this shell alone (kill PID, timeout)
# let the run go on to its end. Waited for, the trap runs at once and passes the signal on to the
# run's group (compare_forward), which stops as a run stops on Ctrl-C; its own group, so that a
# Ctrl-C or a hang-up to this job reaches the run once, through here, never twice (a second signal
# forces the loader's exit). stdin /dev/null: a background group reading the terminal is stopped.
# COMPARE_RUN_OUT, not a local: the run's EXIT trap reads it in whatever function the run is in,
# and one with an `out` of its own (experiment_run_loader) would have taken that one.
COMPARE_RUN_OUT=""
compare_one() {
  local side=$1 pos=$2 rc=0
  COMPARE_RUN_OUT=$3
  compare_run_args "$side" "$pos"
  set -m
  (
    ENGINE=$side
    ENGINE_GIVEN=1
    # shellcheck disable=SC2034  # read by verb_experiment: this --comparison is compare's own
    COMPARE_RUNNING=1
    trap 'printf "%s\n" "$EXPERIMENT_RESULTS" >"$COMPARE_RUN_OUT"' EXIT
    verb_experiment "${RUN_ARGS[@]}"
  ) </dev/null &
  COMPARE_CHILD=$!
  set +m
  # a stop that came since the loop's check, before the run had its group: passed on now
  compare_forward_pending
  # the run's exit code is bash's (a signal that ended it: 128 + N; its EXIT trap's $? would say 0)
  wait_ended "$COMPARE_CHILD" || rc=$?
  COMPARE_CHILD=""
  if [[ -z ${COMPARE_URI[$side]:-} ]]; then
    # Down after every run: engines run one at a time (same ports), and the next side's run must
    # not share the host with this one's idle stack.
    (ENGINE=$side; trap '' INT HUP; verb_down) || warn "$side: down failed; stop it with './run.sh down --engine $side' before resuming"
  fi
  return "$rc"
}

# compare_report: the report of exactly this comparison's runs (every folder in runs.tsv).
compare_report() {
  local dirs=() f
  f=$(compare_state_dir "$COMPARE_ID")/runs.tsv
  compare_decide dirs $'\n' folders "$f"
  if ((${#dirs[@]} == 0)); then
    info "no run of $COMPARE_ID wrote results: no report"
    return 0
  fi
  local again="./run.sh report${COMPARE_RESULTS_DIR:+ --results-dir $COMPARE_RESULTS_DIR} ${dirs[*]}"
  if ! command -v node >/dev/null 2>&1 || [[ ! -d $LAB_ROOT/report/node_modules ]]; then
    info "the report needs Node.js and 'cd report && npm ci'; then: $again"
    return 0
  fi
  # --results-dir: the report lands beside these runs, in results/report/ (or DIR/report/).
  # A Ctrl-C or a hang-up here stops only the report: every run is made and recorded, and this
  # says how to get it. The report's own exit (130, 129) tells: bash runs no trap for a SIGINT its
  # child handled; an untrapped SIGHUP would end this shell at once, saying nothing.
  local rc=0
  trap ':' INT HUP
  (trap - INT HUP; cd "$LAB_ROOT" && exec node report/bin/lab-report.js --results-dir "$(compare_results_root)" "${dirs[@]}") || rc=$?
  trap 'exit 130' INT
  trap - HUP
  if ((rc == 130 || rc == 129)); then
    info "interrupted during the report: every run is kept; get the report with: $again"
    exit "$rc"
  fi
  ((rc == 0)) || warn "the report failed; run it again with: $again"
}

# compare_lock: one comparison at a time on a results folder: DIR/.comparisons/.lock made (mkdir,
# atomic) with this shell's pid and the comparison's id. Two at once (the same servers, the same
# stacks, or both) each warned that the other interferes and both ended exit 0 with no run a
# sample. One held by a live process: exit 1 naming it, nothing started; one whose process is gone
# (killed outright) is taken over. Released at exit. Two comparisons on the same servers from
# different results folders are caught run by run instead (compare_overlapped).
COMPARE_LOCK=""
COMPARE_PLAN_TMP="" # a new plan until it is moved into the state folder
compare_lock() {
  local dir owner pid id
  dir=$(compare_results_root)/.comparisons
  mkdir -p "$dir" 2>/dev/null || die_env "cannot create the comparison's state in ${dir%/.comparisons}/ (not writable?): pass --results-dir DIR on a writable disk, or make it writable"
  dir+=/.lock
  if ! mkdir "$dir" 2>/dev/null; then
    owner=$(cat "$dir/owner" 2>/dev/null || true)
    read -r pid id _ <<<"$owner"
    if [[ $pid =~ ^[0-9]+$ ]] && kill -0 "$pid" 2>/dev/null; then
      die_env "another comparison (${id:-?}, pid $pid) is running on this results folder ($(compare_state_shown "")): two at once interfere and neither's runs are a sample; wait for it to end, or stop it"
    fi
    rm -rf "$dir" # its process is gone
    mkdir "$dir" 2>/dev/null || die_env "cannot take the comparison lock $dir"
  fi
  printf '%s %s\n' "$$" "$COMPARE_ID" >"$dir/owner"
  COMPARE_LOCK=$dir
}
# compare_on_exit: the EXIT trap: the lock released, the kept check answers removed, and a new
# plan not yet moved into the state folder removed (a refusal after the plan is made: another
# comparison running, a stack up, a failed preflight).
# shellcheck disable=SC2317  # called by the EXIT trap
compare_on_exit() {
  [[ -z $COMPARE_LOCK ]] || rm -rf "$COMPARE_LOCK"
  COMPARE_LOCK=""
  [[ -z $EXPERIMENT_CHECK_CACHE ]] || rm -rf "$EXPERIMENT_CHECK_CACHE"
  [[ -z $COMPARE_PLAN_TMP ]] || rm -f "$COMPARE_PLAN_TMP"
}

# compare_overlapped DIR: the run in DIR overlapped another loader against the same server and
# collection (summary.json concurrent_runs not empty: src/run/run-registry.js); it is then marked
# incomplete (complete false, the reason, exit_code 1), not a sample: resume runs it again.
COMPARE_OVERLAP_REASON="another loader ran against the same server and collection during this run"
COMPARE_OVERLAP_REASON+=" (summary.json concurrent_runs): not a sample of the engine alone; compare --resume runs it again"
compare_overlapped() {
  local n
  n=$(summary_fact "$(summary_facts "$1" 2>/dev/null)" concurrent_runs)
  [[ $n =~ ^[0-9]+$ ]] && ((n > 0)) || return 1
  summary_mark_incomplete "$COMPARE_OVERLAP_REASON" 1 "$1"
}

# compare_any_overlapped FILE: some folder of FILE (one a line) overlapped (compare_overlapped).
compare_any_overlapped() {
  local dir hit=1
  while IFS= read -r dir; do
    [[ -n $dir ]] && compare_overlapped "$dir" && hit=0
  done <"$1"
  return "$hit"
}

# compare_preflight: what would fail every position, said once before position 1 (each position
# failed with it, each error printed twice, and the advice after each failed the same way):
# Docker and Compose for the lab's stacks, node and the loader for --uri sides, and room on the
# results folder's disk (the loader's own reserve, 128 KiB, and as much again for the state).
COMPARE_SPACE_PROBE_KIB=256
compare_preflight_tools() {
  if ((${#COMPARE_URI[@]})); then experiment_host_loader_ready; else preflight_docker; fi
}
compare_preflight() {
  local probe
  probe=$(compare_state_dir "$COMPARE_ID")
  probe=${probe%/*}/.lock/space-probe
  if ! head -c $((COMPARE_SPACE_PROBE_KIB * 1024)) /dev/zero 2>/dev/null >"$probe"; then
    rm -f "$probe"
    die_env "cannot write $COMPARE_SPACE_PROBE_KIB KiB into $(compare_state_shown ""): its disk is full or not writable (nothing was run): free space there$( ((${#COMPARE_URI[@]} == 0)) || echo ", or pass --results-dir DIR on a disk with room")"
  fi
  rm -f "$probe"
}

# compare_uri_hint: with --uri sides, how resume fixes a side's wrong URI (words to append).
compare_uri_hint() {
  ((${#COMPARE_URI[@]} == 0)) || echo " (a wrong URI or password: add --uri NAME=URI to replace that side's)"
}

# compare_help: ./run.sh compare --help, compare's own part of the help.
compare_help() {
  echo "Usage: ./run.sh compare EXPERIMENT --engines A,B | --uri NAME=URI --uri NAME=URI [flags]"
  compare_usage
  echo "  --results-dir DIR       with --uri sides: their runs, the comparison's state and report under DIR"
  echo "  --resume ID [--results-dir DIR] [--uri NAME=URI ...]"
  echo "                          DIR: where a comparison run with --results-dir DIR keeps its state"
  echo "                          --uri NAME=URI: replaces side NAME's stored URI (a wrong password or host)"
  echo "  --abandon ID [--results-dir DIR]"
  echo "                          removes the URIs kept for ID's resume, as typed (.secrets/.comparisons/ID)"
  echo "Experiment flags (every run gets them): ./run.sh EXPERIMENT --help; every other verb: ./run.sh help"
}

verb_compare() {
  local resume="" abandon="" a rest=() given_dir="" new_uris=()
  # --dry-run is how this invocation runs, not part of the comparison: never stored.
  for a in "$@"; do
    case $a in
      -h | --help) compare_help; exit 0 ;;
      --dry-run) DRY_RUN=1 ;;
      --resume | --resume=*) resume=1; rest+=("$a") ;;
      --abandon | --abandon=*) abandon=1; rest+=("$a") ;;
      *) rest+=("$a") ;;
    esac
  done
  [[ -z $resume || -z $abandon ]] || die_usage "--resume and --abandon go apart: resume a comparison, or give it up"
  export DRY_RUN
  # A relative --results-dir is the user's directory's, and stored absolute: --resume may be typed
  # anywhere.
  local i
  for ((i = 0; i < ${#rest[@]}; i++)); do
    case ${rest[i]} in
      --results-dir=?*) given_dir=$(caller_path "${rest[i]#*=}"); rest[i]=--results-dir=$given_dir ;;
      --results-dir) if [[ -n ${rest[i + 1]:-} && ${rest[i + 1]} != --* ]]; then given_dir=$(caller_path "${rest[i + 1]}"); rest[i + 1]=$given_dir; fi ;;
    esac
  done
  if [[ -n $resume || -n $abandon ]]; then
    # --resume ID [--results-dir DIR] [--uri NAME=URI ...]: the stored command replaces the
    # arguments (only --dry-run, and a side's new URI, may come with it); DIR says where the state
    # is. --abandon ID [--results-dir DIR]: the comparison given up.
    local FLAG VALUE SHIFT_BY id="" ids verb=--resume
    [[ -z $abandon ]] || verb=--abandon
    COMPARE_RESULTS_DIR=$given_dir
    while ((${#rest[@]})); do
      split_flag "${rest[@]}" ||
        die_usage "$verb ID takes only --results-dir DIR$([[ -n $abandon ]] || echo ", --uri NAME=URI") and --dry-run (got '${rest[0]}')"
      case $FLAG in
        --abandon)
          [[ -n $VALUE ]] || die_usage "--abandon needs the comparison's ID (printed when it started)"
          id=$VALUE
          ;;
        --uri)
          [[ -z $abandon ]] || die_usage "--abandon ID takes no --uri: it removes the stored ones"
          [[ -n $VALUE ]] || die_usage "--uri needs NAME=URI"
          new_uris+=("$VALUE")
          ;;
        --resume)
          if [[ -z $VALUE ]]; then
            # the ids under the results root with a position not done
            local resumable_ids=()
            compare_decide resumable_ids $'\n' resumable "$(compare_results_root)/.comparisons"
            ids=${resumable_ids[*]}
            [[ -n $ids ]] && ids="resumable here: $ids" || ids="none is resumable in $(compare_state_shown "")"
            die_usage "--resume needs the comparison's ID (printed when it started): $ids"
          fi
          id=$VALUE
          ;;
        --results-dir) [[ -n $VALUE ]] || die_usage "--results-dir needs a value" ;;
        *) die_usage "$verb ID takes only --results-dir DIR$([[ -n $abandon ]] || echo ", --uri NAME=URI") and --dry-run (got '$FLAG'): the comparison's other flags are stored with it" ;;
      esac
      rest=("${rest[@]:SHIFT_BY}")
    done
    if [[ -n $abandon ]]; then
      compare_abandon "$id"
      return 0
    fi
    compare_resume_args "$id" ${new_uris[@]+"${new_uris[@]}"}
  else
    COMPARE_ARGS=(${rest[@]+"${rest[@]}"})
  fi
  # run.sh's common flags (--profile, --no-monitoring, ...) are among the stored arguments, and
  # parsed here rather than by run.sh so that --resume restores them.
  REST_ARGS=() STACK_FLAGS_GIVEN=()
  parse_common_flags ${COMPARE_ARGS[@]+"${COMPARE_ARGS[@]}"}
  compare_parse ${REST_ARGS[@]+"${REST_ARGS[@]}"}
  [[ -z $resume ]] || compare_resume_place "${given_dir:-$LAB_ROOT/results}"
  [[ -n $COMPARE_ID ]] || COMPARE_ID=$(compare_new_id)
  # The loader asked once per side, not once per position (experiment_loader_check): compare_check
  # asks before position 1, and each run would ask again with the same words (a dry run of
  # --repeat 100 took 8 minutes). Each run's loader still reads the file and flags when it starts.
  EXPERIMENT_CHECK_CACHE=$(mktemp -d "${TMPDIR:-/tmp}/lab-compare-checks.XXXXXX")
  trap compare_on_exit EXIT
  # node for --uri sides: said before the loader is asked to check the flags (without node it ran
  # in the loader's image, and without Docker that said a cut-off warning); Docker and Compose for
  # the stacks after it (bad flags are said without asking Docker anything)
  [[ $DRY_RUN == 1 || ${#COMPARE_URI[@]} -eq 0 ]] || experiment_host_loader_ready
  # every decision is Node's: said before the loader checks the flags (in its image, without node)
  compare_node_ready
  compare_check
  [[ $DRY_RUN == 1 ]] || compare_preflight_tools
  local state
  state=$(compare_state_dir "$COMPARE_ID")
  COMPARE_PLAN_FILE=$state/plan.tsv
  if [[ -z $resume ]]; then
    local plan=()
    compare_decide plan $'\n' plan "$COMPARE_REPEAT" "${COMPARE_SIDES[@]}"
    COMPARE_PLAN_FILE=$(mktemp "${TMPDIR:-/tmp}/lab-compare-plan.XXXXXX")
    COMPARE_PLAN_TMP=$COMPARE_PLAN_FILE
    printf '%s\n' "${plan[@]}" >"$COMPARE_PLAN_FILE"
  fi
  # every position of the plan, done or to do (position<TAB>side<TAB>done|todo): what is done now
  # stays done while this comparison runs the rest
  compare_decide COMPARE_POSITIONS $'\n' positions "$COMPARE_PLAN_FILE" "$state/runs.tsv"
  # one comparison at a time on a results folder; then what would fail every position (a dry run
  # runs nothing)
  if [[ $DRY_RUN != 1 ]]; then
    compare_lock
    compare_preflight
  fi
  if [[ $DRY_RUN != 1 && -z $resume && ${#COMPARE_URI[@]} -eq 0 ]]; then
    # Every run starts its engine from a stopped stack: a stack left up would be used as it is
    # by the first run of its engine and hold the ports against the others.
    local p
    for p in $(running_lab_projects); do
      die_env "the '${p#lab-}' engine's stack is running: a comparison brings each engine up and down itself; stop it with './run.sh down --engine ${p#lab-}'"
    done
  fi
  # A closed output (| head, a terminal gone) must not end the comparison by SIGPIPE, in its plan
  # (| head -2 ended it there, exit 141, nothing run) or between two runs with no report and no
  # resume line: the signal is caught (a trap, not an ignore, so that the programs started here
  # keep the usual one), the failed write noticed by compare_out, and the rest of the output goes
  # to /dev/null; the messages on stderr stay.
  trap ':' PIPE
  compare_out "$(compare_print_plan)"
  if [[ $DRY_RUN == 1 ]]; then
    local pos side mark line
    for line in "${COMPARE_POSITIONS[@]}"; do
      IFS=$'\t' read -r pos side mark <<<"$line"
      [[ $mark != "done" ]] || continue
      compare_out "run $pos: $side"
      compare_run_args "$side" "$pos"
      # shellcheck disable=SC2034  # COMPARE_RUNNING: read by verb_experiment
      (ENGINE=$side; ENGINE_GIVEN=1; COMPARE_RUNNING=1; verb_experiment "${RUN_ARGS[@]}") |
        while IFS= read -r line; do redact_secrets "$line"; done
      # shellcheck disable=SC2030,SC2031,SC2034  # ENGINE is read by verb_down, in this subshell only
      [[ -n ${COMPARE_URI[$side]:-} ]] || (ENGINE=$side; verb_down)
    done
    echo "then: ./run.sh report <the folders of these runs>"
    return 0 # the check answers and the new plan are removed at exit (compare_on_exit)
  fi
  if [[ -z $resume ]]; then
    mkdir -p "$state" || die_env "cannot create $state"
    chmod 700 "$state"
    compare_store_args "$state"
    mv "$COMPARE_PLAN_FILE" "$state/plan.tsv"
    COMPARE_PLAN_FILE=$state/plan.tsv
    COMPARE_PLAN_TMP=""
  elif ((${#new_uris[@]})); then
    compare_store_args "$state" # the replaced URIs are what a later resume uses
  fi
  local pos side rc status out dir missing=0 interrupted=0 hopeless=0 stopped_after=0
  # each side's last run failed without writing a folder (it failed before measuring anything):
  # once every side's has, the rest would fail the same way, and the comparison stops
  local -A failed_bare=()
  out=$(mktemp "${TMPDIR:-/tmp}/lab-compare-out.XXXXXX")
  # A Ctrl-C, SIGTERM or SIGHUP (the terminal closed: its shell hangs up the whole job), to this
  # shell alone or to its group, is noted and passed on to the run (compare_forward), whose loader
  # stops and keeps what it measured (experiment_run_loader; a hang-up as SIGTERM); the run is
  # recorded and its stack brought down before the comparison stops (run.sh's own INT trap would
  # exit at once, and a hang-up not trapped ended this shell at once, 129, the loader still going).
  COMPARE_STOP=0
  trap 'COMPARE_STOP=130; compare_forward INT' INT
  trap 'COMPARE_STOP=143; compare_forward TERM' TERM
  trap 'COMPARE_STOP=129; compare_forward HUP' HUP
  local mark line
  for line in "${COMPARE_POSITIONS[@]}"; do
    IFS=$'\t' read -r pos side mark <<<"$line"
    [[ $mark != "done" ]] || continue
    # a stop noted during the last run (below) or between two: no run is started after it
    if ((COMPARE_STOP)); then interrupted=$COMPARE_STOP; break; fi
    compare_out "== run $pos of $COMPARE_ID: $side"
    : >"$out"
    rc=0
    compare_one "$side" "$pos" "$out" || rc=$?
    # a run that shared its server with another loader is no sample: marked, and run again on resume
    if ((rc == 0)) && compare_any_overlapped "$out"; then
      warn "run $pos ($side): $COMPARE_OVERLAP_REASON"
      rc=1
    fi
    case $rc in 0) status=complete ;; 129 | 130 | 143) status=interrupted ;; *) status=incomplete ;; esac
    # One line per folder the run wrote; one with the folder empty when it wrote none.
    while IFS= read -r dir; do
      printf '%s\t%s\t%s\t%s\t%s\n' "$pos" "$side" "$status" "$rc" "$dir" >>"$state/runs.tsv"
    done < <(grep . "$out" || echo)
    if [[ $status == complete ]] && ((COMPARE_STOP)); then
      # The stop came as the run was ending, too late to stop its loader: the run is complete,
      # kept as such (marked interrupted it was run again on resume and counted twice), and the
      # comparison stops before the next.
      info "run $pos ($side) ran to its end before the stop took effect: kept, complete"
      stopped_after=1
      interrupted=$COMPARE_STOP
      break
    fi
    if [[ $status != complete ]]; then
      missing=$((missing + 1))
      [[ $status == interrupted ]] && { interrupted=$rc; break; }
      if grep -q . "$out"; then failed_bare[$side]=0; else failed_bare[$side]=1; fi
      local s all=1
      for s in "${COMPARE_SIDES[@]}"; do [[ ${failed_bare[$s]:-0} == 1 ]] || all=0; done
      if ((all)); then hopeless=1; break; fi
      warn "run $pos ($side) did not complete (exit $rc): kept and marked; the comparison goes on"
    else
      failed_bare[$side]=0
    fi
  done
  trap 'exit 130' INT
  trap - TERM HUP
  rm -f "$out"
  if ((hopeless)); then
    info "every side's last run failed before it measured anything (no results folder): the rest would fail the same way, so the comparison stops at run $pos; fix the error above, then: $(compare_cmd resume)$(compare_uri_hint)"
    return 1
  fi
  if ((interrupted)); then
    ((interrupted != 129)) || info "hang-up (SIGHUP: the terminal closed?): the run's loader was stopped"
    info "interrupted $( ((stopped_after)) && echo after || echo at) run $pos: what ran is kept in $(compare_state_shown "$COMPARE_ID"); resume with: $(compare_cmd resume)"
    return "$interrupted"
  fi
  # Every position complete: nothing left to resume, so the typed URIs go before the report,
  # which an interruption may end.
  ((missing)) || rm -f "$(compare_secret_file "$COMPARE_ID")"
  compare_report
  if ((missing)); then
    info "$missing run(s) did not complete: $(compare_cmd resume) runs them again$(compare_uri_hint)"
    return 1
  fi
}
