# shellcheck shell=bash
# The bash side of the fault process's docker interface (loader/src/faults/protocol.js). A fault
# scenario runs as ONE long-lived process in the loader's image; every Docker action it needs is
# a request line on its stdout, performed here with compose() (so --dry-run prints it and the stub
# docker records it) and answered on its stdin. Only the actions below exist: anything else, or a
# member that is not a shard member of compose/topology.tsv, is refused (rc 126) and runs nothing.
#   request  "@lab-docker<TAB>id<TAB>op<TAB>arg..."     any other stdout line is printed as is
#   reply    "id<TAB>rc<TAB>base64(stdout of the action)"

FAULT_REFUSED=126

# fault_shard_members: the shard members, from the topology table (never written here).
fault_shard_members() { topology_services shard; }

fault_is_member() { grep -qxF -- "$1" < <(fault_shard_members); }

# fault_action_argv OP ARGS...: FAULT_ARGV = the command for one request, or returns 1 with
# FAULT_WHY when it is refused. Pure: runs nothing.
fault_action_argv() {
  local op=$1 m=${2:-}
  shift
  FAULT_ARGV=() FAULT_WHY=""
  local -A nargs=([stop]=1 [start]=1 [kill]=1 [up]=1 [rm]=1 [volume-rm]=1 [netem-slow]=3 [netem-partition]=2 [netem-heal]=1 [logs]=2 [ls-rollback]=1)
  [[ -n ${nargs[$op]:-} ]] || { FAULT_WHY="unknown docker action '$op'"; return 1; }
  (($# == nargs[$op])) || { FAULT_WHY="docker action '$op' takes ${nargs[$op]} argument(s), got $#"; return 1; }
  fault_is_member "$m" || { FAULT_WHY="'$m' is not a shard member"; return 1; }
  case $op in
    stop | start) FAULT_ARGV=(compose "$op" "$m") ;;
    kill) FAULT_ARGV=(compose kill -s SIGKILL "$m") ;;
    up) FAULT_ARGV=(compose up -d --no-deps "$m") ;;
    rm) FAULT_ARGV=(compose rm -f "$m") ;;
    volume-rm) FAULT_ARGV=(run docker volume rm "$(stack_project)_$m-data") ;;
    netem-slow)
      [[ $2 =~ ^[0-9]+(us|ms|s)$ && $3 =~ ^[0-9]+(bit|kbit|mbit|gbit)$ ]] || { FAULT_WHY="netem-slow: bad delay/rate '$2' '$3'"; return 1; }
      FAULT_ARGV=(compose run --rm --no-deps "netem-$m" slow "$2" "$3") ;;
    netem-partition)
      local others o
      IFS=, read -r -a others <<<"$2"
      for o in "${others[@]}"; do fault_is_member "$o" || { FAULT_WHY="'$o' is not a shard member"; return 1; }; done
      FAULT_ARGV=(compose run --rm --no-deps "netem-$m" partition "${others[@]}") ;;
    netem-heal) FAULT_ARGV=(compose run --rm --no-deps "netem-$m" heal) ;;
    logs)
      [[ $2 =~ ^[0-9]{4}-[0-9]{2}-[0-9]{2}T[0-9:.]+Z$ ]] || { FAULT_WHY="logs: --since must be an ISO UTC time, got '$2'"; return 1; }
      FAULT_ARGV=(compose logs --no-color --no-log-prefix --since "$2" "$m") ;;
    ls-rollback) FAULT_ARGV=(compose exec -T "$m" sh -c 'ls -1 /data/db/rollback/*/removed.*.bson 2>/dev/null || true') ;;
  esac
}

# fault_answer LINE: perform one request line, print its reply line. Under --dry-run compose()
# prints the command (shown to the user here) and the reply carries no output.
fault_answer() {
  local -a words
  IFS=$'\t' read -r -a words <<<"$1"
  local id=${words[1]:-0} rc=0 out=""
  if ! fault_action_argv "${words[@]:2}"; then
    warn "refused: $FAULT_WHY"
    printf '%s\t%s\t%s\n' "$id" "$FAULT_REFUSED" "$(printf '%s' "$FAULT_WHY" | base64 | tr -d '\n')"
    return 0
  fi
  out=$("${FAULT_ARGV[@]}") || rc=$?
  if [[ $DRY_RUN == 1 ]]; then printf '%s\n' "$out" >&"${FAULT_STDOUT:-2}"; out=""; fi
  printf '%s\t%s\t%s\n' "$id" "$rc" "$(printf '%s' "$out" | base64 | tr -d '\n')"
}

# fault_bridge CMD...: run CMD (the fault process) with its stdin and stdout on two FIFOs, answer
# its requests until it ends; return its exit code. FIFOs, not coproc: a process that ends at once
# takes coproc's file descriptors with it before bash can copy them. Ctrl-C/TERM are passed on to
# the process (a background job's SIGINT is ignored otherwise): it heals, writes its aborted
# summary and ends; the bridge answers until then and returns 130.
fault_bridge() {
  local line rfd wfd pid fifo rc=0 interrupted=0
  fifo=$(mktemp -d "${TMPDIR:-/tmp}/lab-fault-bridge.XXXXXX")
  mkfifo "$fifo/in" "$fifo/out"
  "$@" <"$fifo/in" >"$fifo/out" &
  pid=$!
  # the same order as the child's redirections (in, then out), so neither open waits forever
  exec {wfd}>"$fifo/in" {rfd}<"$fifo/out" {FAULT_STDOUT}>&1
  rm -rf "$fifo"
  local saved_traps
  saved_traps=$(trap -p INT TERM PIPE) # run.sh's own (exit 130 on INT) come back afterwards
  trap 'interrupted=1; kill -INT "$pid" 2>/dev/null || true' INT
  trap 'interrupted=1; kill -TERM "$pid" 2>/dev/null || true' TERM
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
  ((interrupted)) && return 130
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
    printf '+ %s\n' "$(quote_cmd "${argv[@]}")"
    if ! fault_stack_up; then
      if ! command -v node >/dev/null 2>&1 || [[ ! -d $LAB_ROOT/loader/node_modules/mongodb ]]; then
        info "dry run: the $1 plan comes from the fault process, which needs the $ENGINE stack up or Node.js with 'cd loader && npm ci' on this host"
        return 0
      fi
      argv=(node "$LAB_ROOT/loader/bin/lab-fault.js" run "$@" --engine "$ENGINE")
    fi
    argv+=(--dry-run)
  fi
  fault_bridge "${argv[@]}"
}
