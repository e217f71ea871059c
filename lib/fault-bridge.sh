# shellcheck shell=bash
# The bash side of the fault process's docker interface (loader/src/faults/protocol.js). A fault
# scenario runs as ONE long-lived process in the loader's image; every Docker action it needs is
# a request line on its stdout, performed here with compose() (so --dry-run prints it and the stub
# docker records it) and answered on its stdin. The ops (the rows of loader/src/faults/docker-ops.tsv),
# their argument checks, the refusal (rc 126, nothing run) and the request and reply lines:
# DEVELOPERS.md, "The Docker interface".

FAULT_REFUSED=126
FAULT_OPS_TSV=loader/src/faults/docker-ops.tsv

# fault_shard_members: the shard members, from the topology table (never written here).
fault_shard_members() { topology_services shard; }

# fault_is_member NAME: NAME is a shard member. A here-string, not < <(...): grep -q stops at the
# first match, and the members still written into its closed pipe (PIPE ignored while a fault
# process answers, fault_tool) printed "printf: write error: Broken pipe", now and then.
fault_is_member() { grep -qxF -- "$1" <<<"$(fault_shard_members)"; }

fault_running_services() { compose_probe ps --services --status running 2>/dev/null || true; }
fault_paused_services() { compose_probe ps --services --status paused 2>/dev/null || true; }

# probes (read-only; also under --dry-run): the shard members stopped (neither running nor
# paused: `up` starts them) and paused (`unpause` resumes them; `up` would not), whether netem ran
# One grep per member, not `grep -f` over the list: with no member running the pattern file is
# empty, and BSD grep before FreeBSD commit f823c6dc (2021, "empty pattern files should never
# match anything, and more importantly, -v should cause everything to be written") printed nothing
# for `grep -v -f` there and would name no member stopped; macOS ships a BSD grep.
fault_stopped_members() {
  local running m
  running=$(fault_running_services; fault_paused_services)
  for m in $(fault_shard_members); do grep -qxF "$m" <<<"$running" || echo "$m"; done
}
fault_paused_members() {
  local paused m
  paused=$(fault_paused_services)
  for m in $(fault_shard_members); do grep -qxF "$m" <<<"$paused" && echo "$m"; done
  return 0
}
fault_netem_image() { if docker image inspect lab-netem:local >/dev/null 2>&1; then echo yes; else echo no; fi; }
# the rollback files a member wrote (failover's evidence); the glob is the container's shell's
fault_ls_rollback() { compose exec -T "$1" sh -c 'ls -1 /data/db/rollback/*/removed.*.bson 2>/dev/null || true'; }

# fault_arg_ok NAME TYPE VALUE: one request argument, checked by its type (docker-ops.tsv's types
# column), so that a new argument name of a known type needs nothing here.
fault_arg_ok() {
  local name=$1 type=$2 value=$3 o others
  case $type in
    member) fault_is_member "$value" || FAULT_WHY="'$value' is not a shard member" ;;
    members)
      IFS=, read -r -a others <<<"$value"
      for o in "${others[@]}"; do fault_is_member "$o" || { FAULT_WHY="'$o' is not a shard member"; break; }; done ;;
    netem-delay) [[ $value =~ ^[0-9]+(us|ms|s)$ ]] || FAULT_WHY="bad netem delay '$value'" ;;
    netem-rate) [[ $value =~ ^[0-9]+(bit|kbit|mbit|gbit)$ ]] || FAULT_WHY="bad netem rate '$value'" ;;
    utc-time)
      [[ $value =~ ^[0-9]{4}-[0-9]{2}-[0-9]{2}T[0-9:.]+Z$ ]] ||
        FAULT_WHY="$name must be an ISO UTC time, got '$value'" ;;
    count) { is_uint "$value" && ((value >= 1)); } || FAULT_WHY="$name must be a whole number >= 1, got '$value'" ;;
    *) FAULT_WHY="argument '$name' has type '$type', which lib/fault-bridge.sh fault_arg_ok does not check" ;;
  esac
  [[ -z $FAULT_WHY ]]
}

# fault_action_argv OP ARGS...: FAULT_ARGV = the command for one request (docker-ops.tsv's command
# column, its {placeholders} replaced by the checked arguments, word by word: no shell reads them)
# and FAULT_KIND its kind (action|probe|hook), or returns 1 with FAULT_WHY when it is refused.
# Pure: runs nothing.
fault_action_argv() {
  local op=${1:-} names typelist i template word key
  shift || true
  FAULT_ARGV=() FAULT_WHY="" FAULT_KIND=""
  if ! [[ $op =~ ^[a-z][a-z-]*$ ]] || ! names=$(table_field "$LAB_ROOT/$FAULT_OPS_TSV" "$op" args); then
    FAULT_WHY="unknown docker action '$op'"
    return 1
  fi
  FAULT_KIND=$(table_field "$LAB_ROOT/$FAULT_OPS_TSV" "$op" kind)
  local -a want=() types=() args=("$@") words=() list=()
  [[ $names == - ]] || IFS=, read -r -a want <<<"$names"
  typelist=$(table_field "$LAB_ROOT/$FAULT_OPS_TSV" "$op" types) || typelist=""
  [[ $typelist == - ]] || IFS=, read -r -a types <<<"$typelist"
  if ((${#types[@]} != ${#want[@]})); then
    FAULT_WHY="docker action '$op': $FAULT_OPS_TSV gives ${#want[@]} argument(s) and ${#types[@]} type(s)"
    return 1
  fi
  (($# == ${#want[@]})) || { FAULT_WHY="docker action '$op' takes ${#want[@]} argument(s), got $#"; return 1; }
  for i in "${!want[@]}"; do fault_arg_ok "${want[i]}" "${types[i]}" "${args[i]}" || return 1; done
  local -A value=([project]="$(stack_project)") type_of=()
  for i in "${!want[@]}"; do value[${want[i]}]=${args[i]} type_of[${want[i]}]=${types[i]}; done
  template=$(table_field "$LAB_ROOT/$FAULT_OPS_TSV" "$op" command) || template=""
  read -r -a words <<<"$template"
  ((${#words[@]})) || { FAULT_WHY="docker action '$op' has no command in $FAULT_OPS_TSV"; return 1; }
  for word in "${words[@]}"; do
    # a word that is a list argument alone: one word per member of its comma list
    if [[ $word =~ ^\{([a-z]+)\}$ && ${type_of[${BASH_REMATCH[1]}]:-} == members ]]; then
      IFS=, read -r -a list <<<"${value[${BASH_REMATCH[1]}]}"
      FAULT_ARGV+=("${list[@]}")
      continue
    fi
    while [[ $word =~ \{([a-z]+)\} ]]; do
      key=${BASH_REMATCH[1]}
      [[ -v "value[$key]" ]] || { FAULT_WHY="docker action '$op': {$key} in its command is not one of its arguments"; FAULT_ARGV=(); return 1; }
      word=${word//"{$key}"/"${value[$key]}"}
    done
    FAULT_ARGV+=("$word")
  done
  case ${FAULT_ARGV[0]} in
    compose | run | fault_* | experiment_hook_*) ;;
    *) FAULT_WHY="docker action '$op': its command must start with compose, run, a fault_ or an experiment_hook_ function"; FAULT_ARGV=(); return 1 ;;
  esac
}

# fault_answer LINE: perform one request line, print its reply line. Under --dry-run compose()
# prints an action's command (shown to the user here) and the reply carries no output; a probe
# runs and answers as in a real run. A stack hook is refused here: it is asked for by `check`.
fault_answer() {
  local -a words
  IFS=$'\t' read -r -a words <<<"$1"
  local id=${words[1]:-0} rc=0 out=""
  if fault_action_argv "${words[@]:2}" && [[ $FAULT_KIND == hook ]]; then
    FAULT_WHY="'${words[2]}' is a stack hook: the scenario's hooks() asks for it before its process starts"
  fi
  if [[ -n $FAULT_WHY ]]; then
    warn "refused: $FAULT_WHY"
    printf '%s\t%s\t%s\n' "$id" "$FAULT_REFUSED" "$(printf '%s' "$FAULT_WHY" | base64 | tr -d '\n')"
    return 0
  fi
  out=$("${FAULT_ARGV[@]}") || rc=$?
  if [[ $DRY_RUN == 1 && $FAULT_KIND == action ]]; then printf '%s\n' "$out" >&"${FAULT_STDOUT:-2}"; out=""; fi
  printf '%s\t%s\t%s\n' "$id" "$rc" "$(printf '%s' "$out" | base64 | tr -d '\n')"
}

# fault_bridge CMD...: run CMD (the fault process) with its stdin and stdout on two FIFOs, answer
# its requests until it ends; return its exit code. FIFOs, not coproc: a process that ends at once
# takes coproc's file descriptors with it before bash can copy them. The process runs in a
# process group of its own, and a SIGINT or SIGTERM bash gets is relayed to it as a line on its
# stdin (`@lab-signal<TAB>SIGTERM`, protocol.js), never as a kill. Sent to the whole group (Ctrl-C,
# timeout(1)), the signal reached `docker compose run` too, which forwards it to the process
# (docker/compose v2.40.3 pkg/compose/run.go RunOneOffContainer, ForwardAllSignals) or ends: with
# the kill from here that made two signals, which the process takes as "exit now, unhealed". The
# process counts each path apart all the same (runner.js), heals, writes its aborted summary and
# ends; the bridge answers until then and returns 130 (SIGINT) or 143 (SIGTERM), as run.sh does.
fault_bridge() {
  local line rfd wfd pid fifo rc=0 interrupted=0 # interrupted: the exit code of the signal relayed
  fifo=$(mktemp -d "${TMPDIR:-/tmp}/lab-fault-bridge.XXXXXX")
  mkfifo "$fifo/in" "$fifo/out"
  # a process group of its own (set -m): a signal to run.sh's group (Ctrl-C, timeout(1)) never
  # reaches docker compose run, which on it ended the run and took the process with it before it
  # had healed (seen in the Docker suite with Compose 2.40.3 under the docker CLI); the signal
  # reaches the process once, relayed by bash on its stdin (below)
  set -m
  "$@" <"$fifo/in" >"$fifo/out" &
  pid=$!
  set +m
  # the same order as the child's redirections (in, then out), so neither open waits forever
  exec {wfd}>"$fifo/in" {rfd}<"$fifo/out" {FAULT_STDOUT}>&1
  rm -rf "$fifo"
  local saved_traps
  saved_traps=$(trap -p INT TERM PIPE) # run.sh's own (exit 130 on INT) come back afterwards
  trap 'interrupted=130; printf "@lab-signal\tSIGINT\n" 2>/dev/null >&"$wfd" || true' INT
  trap 'interrupted=143; printf "@lab-signal\tSIGTERM\n" 2>/dev/null >&"$wfd" || true' TERM
  # a process that died mid-request must not take bash down with SIGPIPE on the reply
  trap '' PIPE
  local st
  while :; do
    IFS= read -r line <&"$rfd" && st=0 || st=$?
    # a trapped signal interrupts read (status > 128): keep answering, the process is healing
    if ((st > 128)); then continue; fi
    ((st == 0)) || break
    if [[ $line == "@lab-docker"$'\t'* ]]; then
      fault_answer "$line" >&"$wfd" || true
    elif ((LAB_WRAP > 0 && ${#line} > LAB_WRAP)); then
      # the process's own line (its plan, its progress) within LAB_WRAP, continuation indented
      # two more than the line. The wrapping awk ignores INT and TERM: the signal is the
      # process's to act on (relayed above), and a signal to run.sh's whole group that killed awk
      # mid-line ended run.sh (set -e, pipefail) before the process said it had healed, its last
      # lines lost ("write /dev/stdout: broken pipe", the Docker suite on a slow host). Killed
      # before it ignores them, the line is printed as it came.
      local lead=${line%%[! ]*}
      (trap '' INT TERM; wrap_lines $((${#lead} + 2)) "$LAB_WRAP" <<<"$line") || printf '%s\n' "$line"
    else
      printf '%s\n' "$line"
    fi
  done
  exec {wfd}>&- {rfd}<&- {FAULT_STDOUT}>&-
  while :; do
    wait "$pid" && rc=0 || rc=$?
    kill -0 "$pid" 2>/dev/null || break # ended (not just a signal interrupting wait)
  done
  trap - INT TERM PIPE
  eval "$saved_traps"
  ((interrupted)) && return "$interrupted"
  return "$rc"
}

# fault_process SCENARIO ARGS...: the scenario's one long-lived fault process (lab-fault.js run,
# in the fault-tool service), its docker requests answered by fault_bridge. Under --dry-run the
# command is printed and the process runs with --dry-run: it prints its plan and asks for each
# docker action, which the bridge prints and does not run. The dry run's process runs in the
# fault-tool container only while the stack is up (then the plan names the live primary); with the
# stack down, or no Docker at all, it runs on this host with Node.js (the plan needs no cluster),
# and without Node.js one line says what the plan needs. A dry run never starts a container.
fault_process() {
  local -a argv
  mapfile -t argv < <(compose_argv run --rm --no-deps -T fault-tool run "$@" --engine "$ENGINE")
  if [[ $DRY_RUN == 1 ]]; then
    run "${argv[@]}" # printed, not run
    if ! fault_stack_up; then
      if ! loader_on_host; then
        info "dry run: the $1 plan comes from the fault process, which needs the $ENGINE stack up or Node.js with 'cd loader && npm ci' on this host"
        return 0
      fi
      argv=(node "$LAB_ROOT/loader/bin/lab-fault.js" run "$@" --engine "$ENGINE")
    fi
    argv+=(--dry-run)
  fi
  fault_bridge "${argv[@]}"
}
