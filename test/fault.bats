#!/usr/bin/env bats
# ./run.sh fault SCENARIO and ./run.sh resync (lib/fault.sh) with the stub docker on PATH: usage
# errors (the modules' own, through `lab-fault.js check`), --dry-run plans, the stack hooks and the
# docker command lines of real runs (the stub answers the live probes from rules). verb_up and
# verb_destroy belong to lib/cluster.sh and are replaced by recorders here, so these tests pin only
# the fault part's own commands. $W is a copy of the repository's run.sh, lib/, compose/ and the
# loader's code (its node_modules linked), so a test may add a scenario module to it.

# Tests export variables (STUB_DOCKER_LOG_ENV) in their own subshells, on purpose.
# shellcheck disable=SC2030,SC2031

load lib/bats-tracing # trace_test_lines_only

setup() {
  trace_test_lines_only
  REPO=$(cd "$BATS_TEST_DIRNAME/.." && pwd)
  W=$BATS_TEST_TMPDIR/lab
  mkdir -p "$W"
  # common/ beside loader/, as in the repository and the loader image: the loader requires it
  cp -r "$REPO/run.sh" "$REPO/lib" "$REPO/compose" "$REPO/common" "$W/"
  mkdir -p "$W/loader"
  cp -r "$REPO/loader/bin" "$REPO/loader/src" "$REPO/loader/package.json" "$W/loader/"
  ln -s "$REPO/loader/node_modules" "$W/loader/node_modules"
  cat >"$W/lab.sh" <<'EOF'
#!/usr/bin/env bash
# run.sh with the cluster verbs recorded instead of run (they are lib/cluster.sh's to test)
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/run.sh"
verb_up() { echo "VERB_UP extra=[${STACK_EXTRA_ENV[*]}] dry=$DRY_RUN" >>"$STUB_DOCKER_LOG"; }
verb_destroy() { echo "VERB_DESTROY yes=$ASSUME_YES dry=$DRY_RUN" >>"$STUB_DOCKER_LOG"; }
main "$@"
EOF
  chmod +x "$W/lab.sh"
  export PATH="$REPO/test/stub:$PATH"
  export STUB_DOCKER_LOG=$BATS_TEST_TMPDIR/docker.log STUB_DOCKER_RULES=$BATS_TEST_TMPDIR/rules
  # whole command lines and messages on one line (test_helper.bash setup_lab says why)
  export LAB_WRAP=0
  : >"$STUB_DOCKER_LOG"
  : >"$STUB_DOCKER_RULES"
}

# real_fault_process: `docker compose ... run ... fault-tool run ARGS` runs the real fault process
# (node loader/bin/lab-fault.js run ARGS, of the copy) here instead of in a container; every other
# docker call goes to the stub. (A dry run with the stack down runs it on the host anyway.)
real_fault_process() {
  mkdir -p "$BATS_TEST_TMPDIR/bin"
  cat >"$BATS_TEST_TMPDIR/bin/docker" <<EOF
#!/usr/bin/env bash
args=("\$@")
for ((i = 0; i < \${#args[@]} - 1; i++)); do
  if [[ \${args[i]} == fault-tool && \${args[i+1]} == run ]]; then
    printf '%s\n' "\$*" >>"\$STUB_DOCKER_LOG"
    exec node "$W/loader/bin/lab-fault.js" "\${args[@]:i+1}" --results-dir "$W/results" --password-file /dev/null
  fi
done
exec "$REPO/test/stub/docker" "\$@"
EOF
  chmod +x "$BATS_TEST_TMPDIR/bin/docker"
  export PATH="$BATS_TEST_TMPDIR/bin:$PATH"
}

rule() { printf '%s\t%s\t%s\n' "$1" "$2" "${3:-}" >>"$STUB_DOCKER_RULES"; }
stack_up() { rule '*ps --services --status running*' 0 'shard01-a\nshard01-b\nshard01-c\nmongos\ncfg1\ncfg2\ncfg3'; }
logged() { grep -qF -- "$1" "$STUB_DOCKER_LOG"; }
not_logged() { if grep -qF -- "$1" "$STUB_DOCKER_LOG"; then echo "unexpected docker call: $1" >&2; return 1; fi; }
line_of() { grep -nF -- "$1" "$STUB_DOCKER_LOG" | head -1 | cut -d: -f1; }
# mutating: any recorded docker call other than the read-only probes (ps, image inspect)
mutating() { grep -vE ' ps --services --status (running|paused)$|^image inspect |^VERB_' "$STUB_DOCKER_LOG" || true; }
# scenarios: the scenario modules in the copy, as run.sh names them (from the registry, the
# folder: a new scenario changes no list here)
scenarios() { find "$W/loader/src/faults/scenarios" -maxdepth 1 -name '*.js' -printf '%f\n' | sed 's/\.js$//' | LC_ALL=C sort | paste -sd' '; }

# ---- usage errors (exit 2, nothing run) -------------------------------------------------------------
@test "fault without a scenario or with an unknown one: exit 2 naming the scenarios" {
  run "$W/lab.sh" fault
  [ "$status" -eq 2 ]
  [[ $output == *"fault needs a scenario (choose one of: $(scenarios))"* ]]
  [[ $(scenarios) == *"failover heal replica-lag"* ]]
  run "$W/lab.sh" fault meltdown --engine wiredtiger
  [ "$status" -eq 2 ]
  [[ $output == *"unknown fault scenario 'meltdown'"* ]]
  [ ! -s "$STUB_DOCKER_LOG" ]
}

@test "failover on an engine without reliable majority reads (engines.tsv majority_reads no): one line, exit 2, no docker call" {
  local e
  for e in mmapv1 rocksdb; do
    run "$W/lab.sh" fault failover --w majority --engine "$e"
    [ "$status" -eq 2 ]
    [[ $output == *"error: fault failover does not apply to engine $e: its verdict reads every write back with readConcern majority, which this engine does not serve reliably (compose/engines.tsv majority_reads: no)"* ]]
    run "$W/lab.sh" fault failover --w 1 --engine "$e" --dry-run
    [ "$status" -eq 2 ]
  done
  [ ! -s "$STUB_DOCKER_LOG" ]
  # the other scenarios still apply there, and failover still applies to the rest
  run "$W/lab.sh" fault replica-lag --method failpoint --engine mmapv1 --dry-run
  [ "$status" -eq 0 ]
  run "$W/lab.sh" fault failover --w 1 --engine percona-wt --dry-run
  [ "$status" -eq 0 ]
}

@test "bad member, method, threshold and misplaced flags: exit 2 before any docker call" {
  run "$W/lab.sh" fault replica-lag --member shard02-a
  [ "$status" -eq 2 ]; [[ $output == *"unknown member 'shard02-a' (choose one of: shard01-a shard01-b shard01-c)"* ]]
  run "$W/lab.sh" fault replica-lag --method pause
  [ "$status" -eq 2 ]; [[ $output == *"unknown --method 'pause' (choose one of: fsync failpoint netem)"* ]]
  run "$W/lab.sh" fault replica-lag --threshold soon
  [ "$status" -eq 2 ]; [[ $output == *"--threshold 'soon' is not a duration"* ]]
  run "$W/lab.sh" fault replica-lag --threshold 1s
  [ "$status" -eq 2 ]
  run "$W/lab.sh" fault replica-lag --w 1
  [ "$status" -eq 2 ]; [[ $output == *"fault replica-lag does not take --w"* ]]
  run "$W/lab.sh" fault stale-secondary --oplog-size-mb tiny
  [ "$status" -eq 2 ]
  run "$W/lab.sh" fault failover
  [ "$status" -eq 2 ]; [[ $output == *"fault failover needs --w 1 or --w majority"* ]]
  run "$W/lab.sh" fault failover --w 2
  [ "$status" -eq 2 ]
  run "$W/lab.sh" fault failover --w 1 --how unplug
  [ "$status" -eq 2 ]
  run "$W/lab.sh" fault heal --member shard01-a
  [ "$status" -eq 2 ]
  run "$W/lab.sh" resync
  [ "$status" -eq 2 ]; [[ $output == *"resync needs a member"* ]]
  run "$W/lab.sh" resync mongos
  [ "$status" -eq 2 ]
  run "$W/lab.sh" resync shard01-c extra
  [ "$status" -eq 2 ]
  [ ! -s "$STUB_DOCKER_LOG" ]
}

@test "an unknown flag is called unknown even without a value; a known one without a value says so" {
  for args in "replica-lag --bogus" "failover --bogus --w 1"; do
    # shellcheck disable=SC2086  # the words on purpose
    run "$W/lab.sh" fault $args
    [ "$status" -eq 2 ]
    [[ $output == *"does not take --bogus"* ]]
  done
  for args in "replica-lag --member" "replica-lag --member --method fsync" "failover --w="; do
    # shellcheck disable=SC2086
    run "$W/lab.sh" fault $args
    [ "$status" -eq 2 ]
    [[ $output == *"needs a value"* ]]
  done
  [ ! -s "$STUB_DOCKER_LOG" ]
}

@test "help lists the fault flags" {
  run "$W/lab.sh" help
  [ "$status" -eq 0 ]
  [[ $output == *"--method M"* && $output == *"--oplog-size-mb N"* && $output == *"--w 1|majority"* && $output == *"resync MEMBER"* ]]
}

# ---- a scenario is one module ---------------------------------------------------------------
@test "a new scenario is one module: help lists it with its flags, check refuses its bad flags, --dry-run plans it" {
  cp "$REPO/loader/test/faults/fixtures/scenarios/pause-member.js" "$W/loader/src/faults/scenarios/"
  real_fault_process
  run "$W/lab.sh" help
  [ "$status" -eq 0 ]
  [[ $output == *"one of: $(scenarios)"* && $(scenarios) == *pause-member* ]]
  [[ $output == *"fault pause-member      pause one member, ping the set --rounds times, unpause it"* ]]
  [[ $output == *"--member NAME         the member to pause: shard01-a|shard01-b|shard01-c (required)"* ]]
  [[ $output == *"--rounds N            pings while it is paused (default 3)"* ]]
  run "$W/lab.sh" fault pause-member --member shard01-b --rounds x --dry-run
  [ "$status" -eq 2 ]
  [[ $output == *"error: --rounds must be a whole number >= 1 (got 'x')"* ]]
  [ ! -s "$STUB_DOCKER_LOG" ]
  run "$W/lab.sh" fault pause-member --member shard01-b --dry-run
  [ "$status" -eq 0 ]
  [[ $output == *" run --rm --no-deps -T fault-tool run pause-member --member shard01-b --engine wiredtiger"* ]]
  [[ $output == *"1. docker compose pause shard01-b"*"3. docker compose unpause shard01-b"* ]]
  [[ $output == *"-p lab-wiredtiger "*" pause shard01-b"* && $output == *"-p lab-wiredtiger "*" unpause shard01-b"* ]]
  logged "VERB_UP extra=[] dry=1"
  [ "$(mutating | grep -vc ' fault-tool run pause-member ')" -eq 0 ]
}

@test "stack hooks: only check's may ask for them; at run time the bridge refuses one (126)" {
  bridge $'1\tsmall-oplog\t16' $'2\trunning-stack'
  [ "$status" -eq 0 ]
  [ "$(replies | grep -c ' 126 ')" -eq 2 ]
  replies | grep -qF "1 126 'small-oplog' is a stack hook"
  [ "$(grep -vc '^info ' "$STUB_DOCKER_LOG")" -eq 0 ]
}

@test "one list of docker ops: every row of docker-ops.tsv is a command bash can run (a new op is one row)" {
  # shellcheck source=/dev/null
  source "$W/run.sh"
  ENGINE=wiredtiger
  local op types kind n=0
  # a sample value of each argument type (docker-ops.tsv's types column)
  declare -A sample=([member]=shard01-a [members]="shard01-b,shard01-c" [netem-delay]=100ms [netem-rate]=64kbit
    [utc-time]=2026-01-01T00:00:00Z [count]=16)
  while IFS=$'\t' read -r op _ types kind _; do
    local -a a=()
    [[ $types == - ]] || for x in ${types//,/ }; do a+=("${sample[$x]}"); done
    fault_action_argv "$op" "${a[@]}" || { echo "row '$op': $FAULT_WHY" >&2; return 1; }
    [ "$FAULT_KIND" = "$kind" ]
    # no placeholder left, and a function named by a row exists in lib/
    [[ "${FAULT_ARGV[*]}" != *"{"* ]] || { echo "row '$op': ${FAULT_ARGV[*]}" >&2; return 1; }
    [[ ${FAULT_ARGV[0]} == compose || ${FAULT_ARGV[0]} == run ]] || declare -F "${FAULT_ARGV[0]}" >/dev/null ||
      { echo "row '$op': no function ${FAULT_ARGV[0]} in lib/" >&2; return 1; }
    n=$((n + 1))
  done < <(table_rows "$W/loader/src/faults/docker-ops.tsv")
  [ "$n" -ge 20 ]
  # a row added to the table is a command at once; a placeholder that is not an argument is refused
  printf 'freeze\tmember\tmember\taction\tunpause\tcompose pause {member}\nbroken\tmember\tmember\taction\t-\tcompose stop {membr}\n' >>"$W/loader/src/faults/docker-ops.tsv"
  fault_action_argv freeze shard01-b
  [ "${FAULT_ARGV[*]}" = "compose pause shard01-b" ]
  if fault_action_argv broken shard01-b; then echo "a misspelt placeholder was run" >&2; return 1; fi
  [[ $FAULT_WHY == *"{membr} in its command is not one of its arguments"* ]]
}

@test "a new op with new argument names of known types is one row: checked by type, no bash edited" {
  # shellcheck source=/dev/null
  source "$W/run.sh"
  ENGINE=wiredtiger
  printf 'cut-off\ttarget,peers,hold\tmember,members,netem-delay\taction\t-\tcompose run netem-{target} cut {peers} {hold}\n' \
    >>"$W/loader/src/faults/docker-ops.tsv"
  fault_action_argv cut-off shard01-a shard01-b,shard01-c 2s
  [ "${FAULT_ARGV[*]}" = "compose run netem-shard01-a cut shard01-b shard01-c 2s" ]
  # each argument checked by its type: a non-member, a member list with a stranger, a bad delay
  if fault_action_argv cut-off cfg1 shard01-b 2s; then echo "a non-member target was allowed" >&2; return 1; fi
  [ "$FAULT_WHY" = "'cfg1' is not a shard member" ]
  if fault_action_argv cut-off shard01-a shard01-b,cfg1 2s; then echo "a non-member peer was allowed" >&2; return 1; fi
  [ "$FAULT_WHY" = "'cfg1' is not a shard member" ]
  if fault_action_argv cut-off shard01-a shard01-b soon; then echo "a bad delay was allowed" >&2; return 1; fi
  [ "$FAULT_WHY" = "bad netem delay 'soon'" ]
  # a type bash does not know, or a row whose types do not match its arguments, is refused by name
  printf 'odd\tlabel\tcolour\taction\t-\tcompose stop {label}\nshort\tmember,hold\tmember\taction\t-\tcompose stop {member}\n' \
    >>"$W/loader/src/faults/docker-ops.tsv"
  if fault_action_argv odd red; then echo "an unknown type was allowed" >&2; return 1; fi
  [[ $FAULT_WHY == *"argument 'label' has type 'colour', which lib/fault-bridge.sh fault_arg_ok does not check"* ]]
  if fault_action_argv short shard01-a 1s; then echo "a row short of types was run" >&2; return 1; fi
  [[ $FAULT_WHY == *"gives 2 argument(s) and 1 type(s)"* ]]
}

# ---- --dry-run plans -----------------------------------------------------------------------------------
@test "replica-lag --dry-run: the real fault process prints its plan (fsyncLock on the member, thresholds, flow control); nothing changed" {
  real_fault_process
  run "$W/lab.sh" fault replica-lag --engine wiredtiger --dry-run
  [ "$status" -eq 0 ]
  [[ $output == *" run --rm --no-deps -T fault-tool run replica-lag --engine wiredtiger"* ]]
  [[ $output == *"plan:"* && $output == *"member: shard01-c by default"*"method: fsync"*"threshold: 30 s"* ]]
  [[ $output == *"flow control"*"does not engage"* ]]
  [[ $output == *"background write load through mongos"* ]]
  [[ $output == *"fsyncLock on shard01-c itself"*"fsyncUnlock"* ]]
  [[ $output == *"until >= 30 s"* && $output == *"until it is < 2 s"* ]]
  logged "VERB_UP extra=[] dry=1"
  [ "$(mutating | grep -vc ' fault-tool run replica-lag ')" -eq 0 ]
  [ ! -e "$W/results/fault-replica-lag" ]
}

@test "replica-lag --method failpoint --dry-run: says it restarts members with enableTestCommands; the process plans the failpoint" {
  real_fault_process
  run "$W/lab.sh" fault replica-lag --method failpoint --member shard01-b --dry-run
  [ "$status" -eq 0 ]
  [[ $output == *"RESTARTED into a test-only configuration"* ]]
  [[ $output == *"LAB_SHARD_EXTRA_ARGS=--setParameter\\ enableTestCommands=1"* || $output == *"'LAB_SHARD_EXTRA_ARGS=--setParameter enableTestCommands=1'"* ]]
  [[ $output == *"fault-tool run replica-lag --method failpoint --member shard01-b --engine wiredtiger"* ]]
  [[ $output == *"configureFailPoint rsSyncApplyStop alwaysOn on shard01-b"*"heal: mode off"* ]]
  logged "VERB_UP extra=[LAB_SHARD_EXTRA_ARGS=--setParameter enableTestCommands=1] dry=1"
  [ "$(mutating | grep -vc ' fault-tool run replica-lag ')" -eq 0 ]
}

@test "replica-lag --method netem --dry-run: the process asks the sidecar in the member's namespace to slow and heal it; the bridge prints both" {
  real_fault_process
  run "$W/lab.sh" fault replica-lag --method netem --member shard01-a --threshold 1m --dry-run
  [ "$status" -eq 0 ]
  [[ $output == *"run --rm --no-deps netem-shard01-a slow 100ms 64kbit"* ]]
  [[ $output == *"run --rm --no-deps netem-shard01-a heal"* ]]
  [[ $output == *"threshold: 60 s"* ]]
  [ "$(mutating | grep -vc ' fault-tool run replica-lag ')" -eq 0 ]
}

# ---- netem's absence found before the fault starts ------------------------------
# The stub answers the probe as Docker Desktop's WSL2 kernel would (no sch_netem): tc's error is
# the kernel's extack for ENOENT, linux net/sched/sch_api.c qdisc_create "Specified qdisc kind is
# unknown" (microsoft/WSL#6065 quotes the older wording "Specified qdisc not found").
NETEM_PROBE='run --rm --network none --cap-add NET_ADMIN lab-netem:local probe'
@test "replica-lag --method netem on a kernel without netem (WSL2): one line naming tc's error and the methods that work, exit 1, nothing started" {
  stack_up
  rule "$NETEM_PROBE" 3 'netem-missing: Error: Specified qdisc kind is unknown.'
  run "$W/lab.sh" fault replica-lag --method netem
  [ "$status" -eq 1 ]
  [ "$(grep -c '^error: ' <<<"$output")" -eq 1 ]
  [[ $output == *"error: netem is missing from this Docker host's kernel (tc: Error: Specified qdisc kind is unknown.; Docker Desktop's WSL2 kernel has none: microsoft/WSL#6065): use --method fsync|failpoint instead (wiredtiger's fault_methods, compose/engines.tsv)"* ]]
  [ "$(line_of ' build netem-shard01-a')" -lt "$(line_of "$NETEM_PROBE")" ]
  not_logged VERB_UP
  not_logged "fault-tool"
  not_logged "netem-shard01-a slow"
  # an older tc says it the RTNETLINK way; the engine's own methods are named
  : >"$STUB_DOCKER_RULES"
  stack_up
  rule "$NETEM_PROBE" 3 'netem-missing: RTNETLINK answers: No such file or directory'
  sed -i 's/^\(mmapv1\t.*\t\)fsync,failpoint,netem\t/\1failpoint,netem\t/' "$W/compose/engines.tsv"
  run "$W/lab.sh" fault replica-lag --method netem --engine mmapv1
  [ "$status" -eq 1 ]
  [[ $output == *"(tc: RTNETLINK answers: No such file or directory; "*"use --method failpoint instead (mmapv1's fault_methods"* ]]
}

@test "lab-netem probe (images/netem): adds and removes a netem qdisc; a kernel without netem is exit 3 with tc's first line" {
  local bin=$BATS_TEST_TMPDIR/netem-bin
  mkdir -p "$bin"
  printf '#!/bin/sh\necho "1: lo: <LOOPBACK,UP> mtu 65536"\necho "2: eth0@if9: <BROADCAST,UP> mtu 1500"\n' >"$bin/ip"
  # shellcheck disable=SC2016  # the stub's own $* and $2, expanded when it runs
  printf '#!/bin/sh\necho "tc $*" >>"%s"\n[ -z "$TC_FAIL" ] || { [ "$2" = add ] && { echo "$TC_FAIL" >&2; exit 2; }; }\nexit 0\n' "$BATS_TEST_TMPDIR/tc.log" >"$bin/tc"
  chmod +x "$bin/ip" "$bin/tc"
  PATH="$bin:$PATH" TC_FAIL='' run sh "$REPO/images/netem/lab-netem.sh" probe
  [ "$status" -eq 0 ]
  grep -qxF "tc qdisc add dev eth0 root netem delay 0ms" "$BATS_TEST_TMPDIR/tc.log"
  grep -qxF "tc qdisc del dev eth0 root" "$BATS_TEST_TMPDIR/tc.log"
  : >"$BATS_TEST_TMPDIR/tc.log"
  PATH="$bin:$PATH" TC_FAIL='Error: Specified qdisc kind is unknown.' run sh "$REPO/images/netem/lab-netem.sh" probe
  [ "$status" -eq 3 ]
  [ "$output" = "netem-missing: Error: Specified qdisc kind is unknown." ]
  not_logged_in() { ! grep -qF "$1" "$2"; }
  not_logged_in "qdisc del" "$BATS_TEST_TMPDIR/tc.log"
}

@test "replica-lag --method netem where the kernel has netem: the probe passes, then up and the fault process" {
  stack_up
  rule "$NETEM_PROBE" 0 'netem: available (lo)'
  run "$W/lab.sh" fault replica-lag --method netem
  [ "$status" -eq 0 ]
  [ "$(line_of "$NETEM_PROBE")" -lt "$(line_of VERB_UP)" ]
  logged "fault-tool run replica-lag --method netem --engine wiredtiger"
}

@test "stale-secondary --dry-run: destroy + small oplog (bash), then the real fault process's plan; the bridge prints stop, start, logs" {
  real_fault_process
  run "$W/lab.sh" fault stale-secondary --engine wiredtiger --oplog-size-mb 8 --dry-run
  [ "$status" -eq 0 ]
  [[ $output == *"DESTROY the wiredtiger cluster"*"--oplogSize 8"* ]]
  [[ $output == *" run --rm --no-deps -T fault-tool run stale-secondary --oplog-size-mb 8 --engine wiredtiger"* ]]
  [[ $output == *"oplog: 8 MB on every shard member"* && $output == *"BOTH other members"* ]]
  [[ $output == *" stop shard01-c"* && $output == *" start shard01-c"* ]]
  [[ $output == *"logs --no-color --no-log-prefix --since "*" shard01-c"* ]]
  [[ $output == *"./run.sh resync shard01-c --engine wiredtiger"* ]]
  logged "VERB_DESTROY yes=0 dry=1"
  logged "VERB_UP extra=[LAB_SHARD_EXTRA_ARGS=--oplogSize 8] dry=1"
  [ "$(line_of VERB_DESTROY)" -lt "$(line_of VERB_UP)" ]
  [ "$(mutating | grep -vc ' fault-tool run stale-secondary ')" -eq 0 ]
  [ ! -e "$W/results/fault-stale-secondary" ]
}

@test "stale-secondary --dry-run on inmemory explains the initial sync (the engine's keeps_data)" {
  real_fault_process
  run "$W/lab.sh" fault stale-secondary --engine inmemory --dry-run
  [ "$status" -eq 0 ]
  [[ $output == *"inmemory: a restarted member has no data at all, so it initial-syncs by itself"* ]]
}

@test "failover --dry-run, stack down, no loader on this host: the command and one line saying what the plan needs; no container started" {
  rm "$W/loader/node_modules"
  run "$W/lab.sh" fault failover --w 1 --dry-run
  [ "$status" -eq 0 ]
  [[ $output == *"note: node or loader/node_modules not found on this host: the fault process checks the failover flags when it starts"* ]]
  [[ $output == *" run --rm --no-deps -T fault-tool run failover --w 1 "* ]]
  [[ $output == *"dry run: the failover plan comes from the fault process, which needs the wiredtiger stack up or Node.js with 'cd loader && npm ci' on this host"* ]]
  ! grep -q ' fault-tool run ' "$STUB_DOCKER_LOG" || { echo "a dry run started the fault container: $(cat "$STUB_DOCKER_LOG")"; false; }
}

@test "failover --dry-run: one fault process (printed, run with --dry-run), its plan; nothing changed" {
  real_fault_process
  run "$W/lab.sh" fault failover --w majority --how kill --dry-run
  [ "$status" -eq 0 ]
  [[ $output == *" run --rm --no-deps -T fault-tool run failover --w majority --how kill --engine wiredtiger"* ]]
  [[ $output == *"(decided at run time: the shard primary then)"* ]]
  [[ $output == *"docker compose kill -s SIGKILL PRIMARY"* ]]
  [[ $output == *"no new primary seen = no verdict (UNKNOWN)"* ]]
  [ "$(mutating | grep -vc ' fault-tool run failover ')" -eq 0 ]
  [ ! -e "$W/results/fault-failover" ]
}

@test "failover --dry-run with the live primary known: the bridge prints its partition, heal and rollback listing" {
  stack_up # the dry run's process runs in the fault-tool container only while the stack is up
  rule '*fault-tool run failover --w 1 --engine wiredtiger --dry-run' 0 '  primary now: shard01-b; write concern w:1; fault: partition\n@lab-docker\t1\tnetem-partition\tshard01-b\tshard01-a,shard01-c\n@lab-docker\t2\tnetem-heal\tshard01-b\n@lab-docker\t3\tls-rollback\tshard01-b'
  run "$W/lab.sh" fault failover --w 1 --dry-run
  [ "$status" -eq 0 ]
  [[ $output == *"primary now: shard01-b; write concern w:1; fault: partition"* ]]
  [[ $output == *"run --rm --no-deps netem-shard01-b partition shard01-a shard01-c"* ]]
  [[ $output == *"run --rm --no-deps netem-shard01-b heal"* ]]
  [[ $output == *"exec -T shard01-b sh -c"*"/data/db/rollback/"* ]]
  [ "$(mutating | grep -vc ' fault-tool run failover ')" -eq 0 ]
}

@test "resync --dry-run: the real fault process prints its plan, the bridge prints stop, rm, volume rm, up; nothing changed" {
  real_fault_process
  run "$W/lab.sh" resync shard01-b --dry-run
  [ "$status" -eq 0 ]
  [[ $output == *" run --rm --no-deps -T fault-tool run resync --member shard01-b --engine wiredtiger"* ]]
  [[ $output == *"member: shard01-b; its data volume (mounted at /data/db) is removed"* ]]
  [[ $output == *" stop shard01-b"* && $output == *" rm -f shard01-b"* ]]
  [[ $output == *"+ docker volume rm lab-wiredtiger_shard01-b-data"* ]]
  [[ $output == *" up -d --no-deps --no-recreate shard01-b"* ]]
  [[ $output == *"wait until shard01-b is SECONDARY"* ]]
  [ "$(mutating | grep -vc ' fault-tool run resync ')" -eq 0 ]
  [ ! -e "$W/results/fault-resync" ]
}

# ---- real runs against the stub ------------------------------------------------------------------------------
@test "replica-lag run: up, image, one fault process (no one-shot steps); its netem requests run in order; its verdict and exit code" {
  stack_up
  rule '*fault-tool run replica-lag --method netem --threshold 20s --engine wiredtiger' 0 'member: shard01-c (SECONDARY, seen from shard01-a)\n@lab-docker\t1\tnetem-slow\tshard01-c\t100ms\t64kbit\n@lab-docker\t2\tnetem-heal\tshard01-c\nverdict: PASS: replica-lag shard01-c via netem: peak lag 21.0 s'
  run "$W/lab.sh" fault replica-lag --engine wiredtiger --method netem --threshold 20s
  [ "$status" -eq 0 ]
  logged "VERB_UP extra=[] dry=0"
  [ "$(line_of VERB_UP)" -lt "$(line_of 'build fault-tool')" ]
  [ "$(line_of 'build fault-tool')" -lt "$(line_of 'fault-tool run replica-lag')" ]
  [ "$(line_of 'fault-tool run replica-lag')" -lt "$(line_of 'netem-shard01-c slow 100ms 64kbit')" ]
  [ "$(line_of 'netem-shard01-c slow')" -lt "$(line_of 'netem-shard01-c heal')" ]
  [ "$(grep -cE 'fault-tool( |$)' "$STUB_DOCKER_LOG")" -eq 2 ] # build + the one process
  not_logged "fault-tool state"
  not_logged "fault-tool pick-secondary"
  not_logged "fault-load"
  [[ $output == *"verdict: PASS: replica-lag shard01-c via netem"* ]]
}

@test "without --member the process picks the live SECONDARY (no --member passed); with --member it is passed on" {
  stack_up
  run "$W/lab.sh" fault replica-lag
  [ "$status" -eq 0 ]
  logged "fault-tool run replica-lag --engine wiredtiger"
  not_logged "--member"
  run "$W/lab.sh" fault replica-lag --member shard01-b
  logged "fault-tool run replica-lag --member shard01-b --engine wiredtiger"
}

@test "replica-lag on a member that is not a secondary: the process's refusal (exit 2) is run.sh's exit code" {
  stack_up
  rule '*fault-tool run replica-lag*--member shard01-a*' 2 'error: shard01-a is not a SECONDARY now; pick one that is'
  run "$W/lab.sh" fault replica-lag --member shard01-a
  [ "$status" -eq 2 ]
  [[ $output == *"shard01-a is not a SECONDARY now"* ]]
  not_logged "netem-"
}

@test "replica-lag whose verdict is FAIL: the process's exit code 1 is run.sh's" {
  stack_up
  rule '*fault-tool run replica-lag*' 1 'verdict: FAIL: replica-lag shard01-c via fsync: peak lag 12.0 s (threshold 30 s) NOT reached'
  run "$W/lab.sh" fault replica-lag
  [ "$status" -eq 1 ]
  [[ $output == *"verdict: FAIL"* ]]
}

@test "stale-secondary without --yes on a cluster of unknown oplog size: exit 2, nothing destroyed" {
  run "$W/lab.sh" fault stale-secondary
  [ "$status" -eq 2 ]
  [[ $output == *"DESTROYS the wiredtiger cluster's data"*"rerun with --yes"* ]]
  not_logged VERB_DESTROY
  not_logged VERB_UP
}

@test "stale-secondary reuses a cluster whose oplogs already have the size" {
  stack_up
  rule '*fault-tool oplog-size --expect 16' 0 '{"shard01-a":16,"shard01-b":16,"shard01-c":16}'
  run "$W/lab.sh" fault stale-secondary
  [ "$status" -eq 0 ]
  [[ $output == *"already has 16 MB oplogs"* ]]
  not_logged VERB_DESTROY
  logged "VERB_UP extra=[LAB_SHARD_EXTRA_ARGS=--oplogSize 16] dry=0"
  logged "fault-tool run stale-secondary --engine wiredtiger"
}

@test "stale-secondary --yes: destroy, up, image, one fault process (no one-shot steps); its stop/start/logs requests run in order" {
  stack_up
  rule '*fault-tool oplog-size --expect 16' 4 '{"shard01-a":990,"shard01-b":990,"shard01-c":990}'
  rule '*logs --no-color --no-log-prefix --since 2026-11-21T08:00:00.000Z shard01-c' 0 'Too stale to catch up'
  rule '*fault-tool run stale-secondary --member shard01-c --engine wiredtiger' 0 '@lab-docker\t1\tstop\tshard01-c\n@lab-docker\t2\tstart\tshard01-c\n@lab-docker\t3\tlogs\tshard01-c\t2026-11-21T08:00:00.000Z\nverdict: PASS: stale-secondary: shard01-c is RECOVERING'
  run "$W/lab.sh" fault stale-secondary --yes --member shard01-c
  [ "$status" -eq 0 ]
  logged "VERB_DESTROY yes=1 dry=0"
  [ "$(line_of VERB_DESTROY)" -lt "$(line_of VERB_UP)" ]
  [ "$(line_of VERB_UP)" -lt "$(line_of 'build fault-tool')" ]
  [ "$(line_of 'build fault-tool')" -lt "$(line_of 'fault-tool run stale-secondary')" ]
  [ "$(line_of 'fault-tool run stale-secondary')" -lt "$(line_of ' stop shard01-c')" ]
  [ "$(line_of ' stop shard01-c')" -lt "$(line_of ' start shard01-c')" ]
  [ "$(line_of ' start shard01-c')" -lt "$(line_of 'logs --no-color --no-log-prefix --since 2026-11-21T08:00:00.000Z shard01-c')" ]
  # oplog-size probe (the small-oplog hook) + build + the one process; no optime/evidence/summarize
  # steps, no load container
  [ "$(grep -cE 'fault-tool( |$)' "$STUB_DOCKER_LOG")" -eq 3 ]
  not_logged "fault-load"
  [[ $output == *"verdict: PASS: stale-secondary"* ]]
}

@test "stale-secondary whose verdict is not PASS: the process's exit code is run.sh's" {
  stack_up
  rule '*fault-tool oplog-size --expect 16' 0 ''
  rule '*fault-tool run stale-secondary*' 1 'verdict: FAIL: stale-secondary: shard01-c is RECOVERING, too-stale log line NOT seen'
  run "$W/lab.sh" fault stale-secondary
  [ "$status" -eq 1 ]
  [[ $output == *"too-stale log line NOT seen"* ]]
}

@test "failover --how kill: up, image, one fault process; its kill/start/rollback listing requests run in order; its verdict and exit code" {
  stack_up
  rule '*exec -T shard01-a sh -c*' 0 '/data/db/rollback/4b5c/removed.2026-11-21T08-00-00.0.bson'
  rule '*fault-tool run failover --w 1 --how kill --engine wiredtiger' 0 '@lab-docker\t1\tkill\tshard01-a\n@lab-docker\t2\tstart\tshard01-a\n@lab-docker\t3\tls-rollback\tshard01-a\nverdict: PASS: failover w:1: 10 attempted'
  run "$W/lab.sh" fault failover --w 1 --how kill
  [ "$status" -eq 0 ]
  [ "$(line_of VERB_UP)" -lt "$(line_of 'build fault-tool')" ]
  [ "$(line_of 'build fault-tool')" -lt "$(line_of 'fault-tool run failover')" ]
  [ "$(line_of 'fault-tool run failover')" -lt "$(line_of 'kill -s SIGKILL shard01-a')" ]
  [ "$(line_of 'kill -s SIGKILL shard01-a')" -lt "$(line_of ' start shard01-a')" ]
  [ "$(line_of ' start shard01-a')" -lt "$(line_of 'exec -T shard01-a sh -c')" ]
  [[ $output == *"verdict: PASS: failover w:1"* ]]
  not_logged "fault-tool writers"
}

@test "failover whose verdict is not PASS: the process's exit code is run.sh's" {
  stack_up
  rule '*fault-tool run failover*' 1 'verdict: UNKNOWN: failover w:majority: ... NO failover observed'
  run "$W/lab.sh" fault failover --w majority
  [ "$status" -eq 1 ]
  [[ $output == *"NO failover observed"* ]]
}

@test "heal with the stack down: exit 1 with how to start it" {
  run "$W/lab.sh" fault heal --engine inmemory
  [ "$status" -eq 1 ]
  [ -d "$W/results" ]   # created by us, not by the Docker daemon as root
  [[ $output == *"the inmemory stack is not up"*"./run.sh up --engine inmemory"* ]]
}

# Compose missing was blamed on the stack: heal and resync never start it, and their first probe
# (docker compose ps) failed as "no member running". Said as Compose missing, with the install hint.
@test "heal and resync with Compose missing: exit 1 saying so with the install hint, not 'not up'" {
  rule 'compose version*' 1 "docker: 'compose' is not a docker command."
  rule 'compose *' 125 'unknown flag: --project-directory'
  local verb missing="error: Docker Compose v2 is missing ('docker compose version' failed): install the"
  for verb in "fault heal" "resync shard01-b"; do
    # shellcheck disable=SC2086  # words on purpose
    run "$W/lab.sh" $verb
    [ "$status" -eq 1 ]
    [[ $output == *"$missing docker-compose-plugin package"* ]] ||
      { echo "$verb: $output"; false; }
    [[ $output != *"not up"* ]]
  done
}

# Without Node.js here the fault's flags are checked in the fault tool's image: its build, with
# no Compose, printed docker's whole help (96 lines) and then "building ... failed".
@test "fault heal --uri without the loader on this host and no Compose: one line saying Compose is missing" {
  rm "$W/loader/node_modules"
  rule 'compose version*' 1 "docker: 'compose' is not a docker command."
  rule 'compose *' 125 'unknown flag: --project-directory\n\nUsage:  docker [OPTIONS] COMMAND [ARG...]\n\nA self-suff'
  run "$W/lab.sh" fault heal --uri mongodb://127.0.0.1:1/
  [ "$status" -eq 1 ]
  [ "${lines[0]}" = "error: Docker Compose v2 is missing ('docker compose version' failed): install the$(
    ) docker-compose-plugin package; the standalone v1 'docker-compose' is not supported" ]
  [ "${#lines[@]}" -eq 1 ]
  [[ $(grep -c 'compose .* build' "$STUB_DOCKER_LOG") == 0 ]] # no image build was tried
}

@test "heal: the process asks bash for the Docker facts (probes) and its cleanup; its up/netem requests run" {
  rule '*ps --services --status running*' 0 'shard01-a\nshard01-b\nmongos'
  rule '*fault-tool run heal --engine wiredtiger' 0 '@lab-docker\t1\tstopped-members\n@lab-docker\t2\tnetem-image\n@lab-docker\t3\trm-fault-load\n@lab-docker\t4\tup\tshard01-c\n@lab-docker\t5\tnetem-heal\tshard01-a\nverdict: PASS: healed'
  run "$W/lab.sh" fault heal
  [ "$status" -eq 0 ]
  logged "image inspect lab-netem:local"
  [ "$(line_of 'fault-tool run heal')" -lt "$(line_of 'image inspect lab-netem:local')" ]
  [ "$(line_of 'image inspect lab-netem:local')" -lt "$(line_of 'rm -f lab-wiredtiger-fault-load')" ]
  [ "$(line_of 'rm -f lab-wiredtiger-fault-load')" -lt "$(line_of 'up -d --no-deps --no-recreate shard01-c')" ]
  logged "run --rm --no-deps netem-shard01-a heal"
  [[ $output == *"healed"* ]]
}

@test "heal --dry-run: the real process plans up for the stopped member, unpause for the paused one, netem off on every member" {
  real_fault_process
  rule '*ps --services --status running*' 0 'shard01-a\nmongos'
  rule '*ps --services --status paused*' 0 'shard01-b'
  rule 'image inspect lab-netem:local*' 0 ''
  run "$W/lab.sh" fault heal --dry-run
  [ "$status" -eq 0 ]
  [[ $output == *"start stopped shard members: shard01-c"* ]]
  [[ $output == *"unpause paused shard members: shard01-b"* ]]
  [[ $output == *" up -d --no-deps --no-recreate shard01-c"* ]]
  [[ $output == *" unpause shard01-b"* && $output != *" up -d --no-deps --no-recreate shard01-b"* ]]
  [[ $output == *"cannot undo: volume-rm"* ]]
  for m in shard01-a shard01-b shard01-c; do [[ $output == *"run --rm --no-deps netem-$m heal"* ]]; done
  [ "$(mutating | grep -vc ' fault-tool run heal ')" -eq 0 ]
}

@test "heal without the netem image: the real process hears 'no' from the probe and leaves the sidecars alone" {
  real_fault_process
  stack_up
  rule 'image inspect lab-netem:local*' 1 ''
  run "$W/lab.sh" fault heal --dry-run
  [ "$status" -eq 0 ]
  [[ $output == *"start stopped shard members: none"* ]]
  [[ $output == *"(skipped: the netem image was never built here, so no netem ran)"* ]]
  not_logged "netem-"
  [[ $output != *"netem-shard01"* ]]
  not_logged "up -d --no-deps"
}

@test "resync with the stack down: exit 1" {
  run "$W/lab.sh" resync shard01-c
  [ "$status" -eq 1 ]
  [[ $output == *"the wiredtiger stack is not up"* ]]
}

@test "resync of the primary: the process's refusal (exit 2) is run.sh's exit code, nothing removed" {
  stack_up
  rule '*fault-tool run resync --member shard01-a*' 2 'error: shard01-a is the PRIMARY; resync a secondary'
  run "$W/lab.sh" resync shard01-a
  [ "$status" -eq 2 ]
  [[ $output == *"shard01-a is the PRIMARY"* ]]
  not_logged "volume rm"
}

@test "resync of a secondary: one fault process; its requests become stop, rm, volume rm, up in its order" {
  stack_up
  rule '*fault-tool run resync --member shard01-c --engine wiredtiger' 0 '@lab-docker\t1\tstop\tshard01-c\n@lab-docker\t2\trm\tshard01-c\n@lab-docker\t3\tvolume-rm\tshard01-c\n@lab-docker\t4\tup\tshard01-c\nverdict: PASS: resync shard01-c'
  run "$W/lab.sh" resync shard01-c
  [ "$status" -eq 0 ]
  [ "$(grep -c 'fault-tool run ' "$STUB_DOCKER_LOG")" -eq 1 ]
  [ "$(line_of 'fault-tool run resync')" -lt "$(line_of ' stop shard01-c')" ]
  [ "$(line_of ' stop shard01-c')" -lt "$(line_of ' rm -f shard01-c')" ]
  [ "$(line_of ' rm -f shard01-c')" -lt "$(line_of 'volume rm lab-wiredtiger_shard01-c-data')" ]
  [ "$(line_of 'volume rm')" -lt "$(line_of 'up -d --no-deps --no-recreate shard01-c')" ]
  [[ $output == *"verdict: PASS: resync shard01-c"* ]]
}

# ---- the shard members' arguments are kept -------------------------------------
# compose_line ARGS: the regex of one exact compose command line as the stub logs it with
# STUB_DOCKER_LOG_ENV=LAB_SHARD_EXTRA_ARGS (the value first, then the arguments).
compose_line() { printf '^%scompose --project-directory %s -p lab-wiredtiger( -f [^ ]+)+ %s$' "$1" "$W" "$2"; }

@test "after stale-secondary, resync recreates the member with the 16 MB oplog the others have (kept in .state), not the stack's 1024" {
  export STUB_DOCKER_LOG_ENV=LAB_SHARD_EXTRA_ARGS
  stack_up
  rule '*fault-tool oplog-size --expect 16' 4 '{"shard01-a":990,"shard01-b":990,"shard01-c":990}'
  rule '*fault-tool run stale-secondary --member shard01-c --engine wiredtiger' 0 'verdict: PASS: stale-secondary: shard01-c is RECOVERING'
  rule '*fault-tool run resync --member shard01-c --engine wiredtiger' 0 '@lab-docker\t1\tstop\tshard01-c\n@lab-docker\t2\trm\tshard01-c\n@lab-docker\t3\tvolume-rm\tshard01-c\n@lab-docker\t4\tup\tshard01-c\nverdict: PASS: resync shard01-c'
  run "$W/lab.sh" fault stale-secondary --yes --member shard01-c
  [ "$status" -eq 0 ]
  [ "$(cat "$W/.state/wiredtiger/shard-extra-args")" = "--oplogSize 16" ]
  [[ $output == *"the wiredtiger shard members keep '--oplogSize 16' from now on"* ]]
  : >"$STUB_DOCKER_LOG"
  run "$W/lab.sh" resync shard01-c
  [ "$status" -eq 0 ]
  grep -qE -- "$(compose_line 'LAB_SHARD_EXTRA_ARGS=--oplogSize 16 ' 'up -d --no-deps --no-recreate shard01-c')" "$STUB_DOCKER_LOG"
  # the resync itself keeps what it found
  [ "$(cat "$W/.state/wiredtiger/shard-extra-args")" = "--oplogSize 16" ]
}

@test "failpoint after stale-secondary: the members are restarted with both arguments; heal starts a stopped member with them, never recreating it" {
  export STUB_DOCKER_LOG_ENV=LAB_SHARD_EXTRA_ARGS
  mkdir -p "$W/.state/wiredtiger" && echo "--oplogSize 16" >"$W/.state/wiredtiger/shard-extra-args"
  stack_up
  run "$W/lab.sh" fault replica-lag --method failpoint
  [ "$status" -eq 0 ]
  logged "VERB_UP extra=[LAB_SHARD_EXTRA_ARGS=--oplogSize 16 --setParameter enableTestCommands=1] dry=0"
  for m in shard01-a shard01-b shard01-c; do
    grep -qE -- "$(compose_line 'LAB_SHARD_EXTRA_ARGS=--oplogSize 16 --setParameter enableTestCommands=1 ' "up -d --no-deps --wait $m")" "$STUB_DOCKER_LOG"
  done
  [ "$(cat "$W/.state/wiredtiger/shard-extra-args")" = "--oplogSize 16 --setParameter enableTestCommands=1" ]
  : >"$STUB_DOCKER_LOG"
  rule '*fault-tool run heal --engine wiredtiger' 0 '@lab-docker\t1\tup\tshard01-c\nverdict: PASS: healed'
  run "$W/lab.sh" fault heal
  [ "$status" -eq 0 ]
  grep -qE -- "$(compose_line 'LAB_SHARD_EXTRA_ARGS=--oplogSize 16 --setParameter enableTestCommands=1 ' 'up -d --no-deps --no-recreate shard01-c')" "$STUB_DOCKER_LOG"
}

@test "kept shard arguments: a dry run records nothing; without a fault nothing is kept and the line has no LAB_SHARD_EXTRA_ARGS" {
  export STUB_DOCKER_LOG_ENV=LAB_SHARD_EXTRA_ARGS
  stack_up
  run "$W/lab.sh" fault replica-lag --method failpoint --dry-run
  [ "$status" -eq 0 ]
  [ ! -e "$W/.state" ]
  rule '*fault-tool run heal --engine wiredtiger' 0 '@lab-docker\t1\tup\tshard01-c\nverdict: PASS: healed'
  run "$W/lab.sh" fault heal
  [ "$status" -eq 0 ]
  grep -qE -- "$(compose_line '' 'up -d --no-deps --no-recreate shard01-c')" "$STUB_DOCKER_LOG"
}

@test "every scenario first builds the fault tool's image (the loader's), before any fault-tool step" {
  stack_up
  run "$W/lab.sh" fault heal
  [ "$status" -eq 0 ]
  logged "-p lab-wiredtiger -f compose/cluster.yml"
  [ "$(line_of ' build fault-tool')" -lt "$(line_of 'fault-tool run heal')" ]
}

@test "replica-lag --method failpoint run: members recreated one at a time with the flag, each back to healthy, before the fault process" {
  stack_up
  run "$W/lab.sh" fault replica-lag --method failpoint
  [ "$status" -eq 0 ]
  logged "VERB_UP extra=[LAB_SHARD_EXTRA_ARGS=--setParameter enableTestCommands=1] dry=0"
  [ "$(line_of 'up -d --no-deps --wait shard01-a')" -lt "$(line_of 'up -d --no-deps --wait shard01-b')" ]
  [ "$(line_of 'up -d --no-deps --wait shard01-b')" -lt "$(line_of 'up -d --no-deps --wait shard01-c')" ]
  [ "$(grep -c 'watch --until healthy --timeout 300 --phase restart' "$STUB_DOCKER_LOG")" -eq 3 ]
  [ "$(line_of 'up -d --no-deps --wait shard01-c')" -lt "$(line_of 'fault-tool run replica-lag --method failpoint')" ]
}

# smoke_faults_setup: run.sh sourced (not dry: the summary checks only run for real), then the CLI
# that smoke_lab starts ($W/run.sh) replaced by a fake that records its arguments and writes a
# fault scenario's results/fault-<scenario>/<engine>/<UTC>/summary.json as the real one does:
# "pass": false for the argument lists named in $W/fail (exit 0 all the same, so that only the
# summary check can catch it), nothing at all and exit 1 for those in $W/silent.
# (run.sh's run() shadows bats' run here, so these tests call functions directly.)
smoke_faults_setup() {
  # shellcheck source=/dev/null
  source "$W/run.sh"
  # shellcheck disable=SC2034  # read by the sourced smoke functions
  DRY_RUN=0
  : >"$W/fail"
  : >"$W/silent"
  cat >"$W/run.sh" <<'FAKE'
#!/usr/bin/env bash
set -eu
W=$(dirname "${BASH_SOURCE[0]}")
all="$*"; args=${all%% --engine *}
echo "LAB $args" >>"$STUB_DOCKER_LOG"
[[ $1 == fault && $2 != heal ]] || exit 0
grep -qxF -- "$args" "$W/silent" && exit 1
eng=${all##*--engine }; eng=${eng%% *}
n=$(($(cat "$W/n" 2>/dev/null || echo 0) + 1)); echo "$n" >"$W/n"
dir=$W/results/fault-$2/$eng/20260101T0000$(printf %02d "$n")Z
mkdir -p "$dir"
pass=true; if grep -qxF -- "$args" "$W/fail"; then pass=false; fi
printf '{ "scenario": "%s", "params": { "member": "shard01-b" }, "pass": %s }\n' "$2" "$pass" >"$dir/summary.json"
ln -sfn "$(basename "$dir")" "$W/results/fault-$2/$eng/latest"
FAKE
  chmod +x "$W/run.sh"
}

@test "smoke_faults runs every scenario through the CLI and checks each summary" {
  smoke_faults_setup
  echo "fault failover --w 1 --threshold 20s" >"$W/fail" # never matches: --w 1 takes no threshold
  echo "fault failover --w 1" >>"$W/fail"                 # this scenario's summary says "pass": false
  local rc=0 out=$BATS_TEST_TMPDIR/out
  smoke_faults wiredtiger >"$out" || rc=$?
  for s in "fault replica-lag --method fsync" "fault replica-lag --method failpoint" "fault replica-lag --method netem" \
    "fault failover --w majority" "fault failover --w 1" "fault failover --w majority --how kill" \
    "fault stale-secondary --yes" "fault heal"; do
    logged "LAB $s"
  done
  logged "LAB resync shard01-b" # the member the stale-secondary summary names
  # each scenario's summary was read: 3 replica-lag + 3 failover + 1 stale-secondary, and the one
  # that says fail is the one failed check, which fails smoke_faults
  [ "$(grep -c '^\(not \)\{0,1\}ok [0-9]* - wiredtiger: .*: summary.json says pass$' "$out")" -eq 7 ] || { cat "$out" >&2; false; }
  [ "$(grep -c '^not ok' "$out")" -eq 1 ] || { cat "$out" >&2; false; }
  grep -q '^not ok [0-9]* - wiredtiger: fault failover --w 1: summary.json says pass$' "$out"
  [ "$rc" -ne 0 ]
}

@test "smoke_faults: every summary saying pass is a pass; inmemory skips fsync" {
  smoke_faults_setup
  local rc=0
  smoke_faults wiredtiger >"$BATS_TEST_TMPDIR/out" || rc=$?
  [ "$rc" -eq 0 ] || { cat "$BATS_TEST_TMPDIR/out" >&2; false; }
  [ "$(grep -c '^ok [0-9]* - wiredtiger: .*: summary.json says pass$' "$BATS_TEST_TMPDIR/out")" -eq 7 ]
  if grep -q '^not ok' "$BATS_TEST_TMPDIR/out"; then cat "$BATS_TEST_TMPDIR/out" >&2; return 1; fi
  : >"$STUB_DOCKER_LOG"
  # shellcheck disable=SC2034  # read by smoke_lab, as verb_smoke sets it
  ENGINE=inmemory
  smoke_faults inmemory >"$BATS_TEST_TMPDIR/out"
  not_logged "--method fsync"
  logged "LAB fault stale-secondary --yes"
}

@test "smoke_faults on a kernel without netem: replica-lag --method netem is a SKIP with the one line, the other scenarios run" {
  smoke_faults_setup
  rule "$NETEM_PROBE" 3 'netem-missing: Error: Specified qdisc kind is unknown.'
  local rc=0
  smoke_faults wiredtiger >"$BATS_TEST_TMPDIR/out" || rc=$?
  [ "$rc" -eq 0 ] || { cat "$BATS_TEST_TMPDIR/out" >&2; false; }
  grep -qE "^ok [0-9]+ - wiredtiger: fault replica-lag --method netem --threshold 10s # SKIP netem is missing from this Docker host's kernel \(tc: Error: Specified qdisc kind is unknown.; .*use --method fsync\|failpoint instead" "$BATS_TEST_TMPDIR/out"
  not_logged "LAB fault replica-lag --method netem"
  logged "LAB fault replica-lag --method failpoint"
  [ "$(grep -c '^ok [0-9]* - wiredtiger: .*: summary.json says pass$' "$BATS_TEST_TMPDIR/out")" -eq 6 ]
}

@test "smoke_faults reads the tables: replica-lag methods from the engine's fault_methods, the resync member only if the topology has it" {
  sed -i 's/^\(wiredtiger\t.*\t\)fsync,failpoint,netem\t/\1failpoint,netem\t/' "$W/compose/engines.tsv"
  smoke_faults_setup
  sed -i 's/"member": "shard01-b"/"member": "mongos"/' "$W/run.sh" # a summary naming no shard member
  smoke_faults wiredtiger >"$BATS_TEST_TMPDIR/out" || true
  not_logged "--method fsync"
  logged "LAB fault replica-lag --method failpoint"
  logged "LAB fault replica-lag --method netem"
  logged "LAB resync shard01-c" # the topology's default member, not the summary's "mongos"
  not_logged "resync mongos"
}

@test "smoke_faults: a scenario that wrote no summary is not judged by an earlier run's (latest)" {
  smoke_faults_setup
  echo "fault failover --w 1" >"$W/silent" # fails before writing anything; latest is --w majority's pass
  local rc=0
  smoke_faults wiredtiger >"$BATS_TEST_TMPDIR/out" 2>&1 || rc=$?
  [ "$rc" -ne 0 ]
  if grep -q '^ok [0-9]* - wiredtiger: fault failover --w 1: summary.json says pass$' "$BATS_TEST_TMPDIR/out"; then
    echo "an earlier run's summary passed the check" >&2
    return 1
  fi
  # the check ran, and failed on this run's missing folder (not for want of a check)
  grep -q '^not ok [0-9]* - wiredtiger: fault failover --w 1: summary.json says pass$' "$BATS_TEST_TMPDIR/out"
  grep -q 'no results/fault-failover/wiredtiger/ folder written by this smoke run' "$BATS_TEST_TMPDIR/out"
}

@test "compose/faults.yml renders with the real Compose v2: one netem sidecar per member namespace, fault-tool mounts" {
  local bin=$REPO/.tools/bin/docker-compose
  [ -x "$bin" ] || { echo "missing $bin: run 'bash test/install-tools.sh'" >&2; return 1; }
  # shellcheck source=/dev/null
  source "$REPO/run.sh"
  local envs=() json
  mapfile -t envs < <(stack_env)
  json=$(env "${envs[@]}" "$bin" --project-directory "$REPO" -p lab-wiredtiger -f compose/cluster.yml \
    -f compose/engines/wiredtiger.yml -f compose/faults.yml --profile faults config --format json)
  for m in shard01-a shard01-b shard01-c; do
    [ "$(jq -r --arg s "netem-$m" '.services[$s].network_mode' <<<"$json")" = "service:$m" ]
    [ "$(jq -r --arg s "netem-$m" '.services[$s].cap_add | join(",")' <<<"$json")" = "NET_ADMIN" ]
    [ "$(jq -r --arg s "netem-$m" '.services[$s].profiles | join(",")' <<<"$json")" = "faults" ]
  done
  # the loader's image, so experiments and faults run one build of the same code
  [ "$(jq -r '.services["fault-tool"].entrypoint | join(" ")' <<<"$json")" = "node /lab/loader/bin/lab-fault.js" ]
  [ "$(jq -r '.services["fault-tool"].build.dockerfile' <<<"$json")" = "images/loader/Dockerfile" ]
  jq -e '.services["fault-tool"].volumes[] | select(.target == "/lab/results")' <<<"$json" >/dev/null
  jq -e '.services["fault-tool"].volumes[] | select(.target == "/run/lab-secrets/root-password" and .read_only == true)' <<<"$json" >/dev/null
  # without the profile, `up` starts none of them
  json=$(env "${envs[@]}" "$bin" --project-directory "$REPO" -p lab-wiredtiger -f compose/cluster.yml \
    -f compose/engines/wiredtiger.yml -f compose/faults.yml config --format json)
  [ "$(jq '[.services | keys[] | select(startswith("netem-") or . == "fault-tool")] | length' <<<"$json")" -eq 0 ]
  # the stale-secondary flag reaches the shard members' command line, and only theirs
  json=$(env "${envs[@]}" "LAB_SHARD_EXTRA_ARGS=--oplogSize 16" "$bin" --project-directory "$REPO" -p lab-wiredtiger \
    -f compose/cluster.yml -f compose/engines/wiredtiger.yml -f compose/faults.yml config --format json)
  [[ $(jq -r '.services["shard01-c"].command | join(" ")' <<<"$json") == *"--oplogSize 16"* ]]
  [[ $(jq -r '.services["cfg1"].command | join(" ")' <<<"$json") != *"--oplogSize"* ]]
}

# ---- the fault process's docker interface (lib/fault-bridge.sh) -----------------------------------
# A fake fault process (bash, standing in for loader/src/faults/protocol.js) sends request lines
# and records the decoded replies; the bridge performs them with compose() against the stub docker.
bridge() { # bridge [--dry-run] REQUEST... -> $W/replies (one "rc output" line per request)
  local dry=0
  [[ $1 == --dry-run ]] && { dry=1; shift; }
  printf '%s\n' "$@" >"$BATS_TEST_TMPDIR/requests"
  cat >"$BATS_TEST_TMPDIR/fake-process" <<'FAKE'
#!/usr/bin/env bash
echo "an ordinary line"
while IFS= read -r -u 3 req; do
  printf '@lab-docker\t%s\n' "$req"
  IFS=$'\t' read -r id rc b64
  printf '%s %s %s\n' "$id" "$rc" "$(printf '%s' "$b64" | base64 -d)" >>"$REPLIES"
done 3<"$REQUESTS"
exit 7
FAKE
  chmod +x "$BATS_TEST_TMPDIR/fake-process"
  cat >"$W/bridge.sh" <<'SH'
#!/usr/bin/env bash
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/run.sh"
ENGINE=wiredtiger DRY_RUN=$1
shift
rc=0
fault_bridge "$@" || rc=$?
echo "process exit $rc"
SH
  chmod +x "$W/bridge.sh"
  : >"$BATS_TEST_TMPDIR/replies"
  REPLIES=$BATS_TEST_TMPDIR/replies REQUESTS=$BATS_TEST_TMPDIR/requests run "$W/bridge.sh" "$dry" "$BATS_TEST_TMPDIR/fake-process"
}
replies() { cat "$BATS_TEST_TMPDIR/replies"; }

@test "bridge: each allowed request is one exact docker compose command line; the process's own lines and exit code pass through" {
  rule '*exec -T shard01-a sh -c*' 0 '/data/db/rollback/u1/removed.1.bson'
  bridge $'1\tstop\tshard01-c' $'2\tstart\tshard01-c' $'3\tkill\tshard01-a' $'4\tup\tshard01-b' $'5\trm\tshard01-b' \
    $'6\tvolume-rm\tshard01-b' $'7\tnetem-slow\tshard01-c\t100ms\t64kbit' $'8\tnetem-partition\tshard01-a\tshard01-b,shard01-c' \
    $'9\tnetem-heal\tshard01-a' $'10\tlogs\tshard01-c\t2026-01-01T00:00:00Z' $'11\tls-rollback\tshard01-a' \
    $'12\tpause\tshard01-b' $'13\tunpause\tshard01-b'
  [ "$status" -eq 0 ]
  [[ $output == *"an ordinary line"* ]]
  [[ $output == *"process exit 7"* ]]
  local c=" -p lab-wiredtiger "
  grep -qE -- "$c.* stop shard01-c$" "$STUB_DOCKER_LOG"
  grep -qE -- "$c.* start shard01-c$" "$STUB_DOCKER_LOG"
  grep -qE -- "$c.* kill -s SIGKILL shard01-a$" "$STUB_DOCKER_LOG"
  grep -qE -- "$c.* up -d --no-deps --no-recreate shard01-b$" "$STUB_DOCKER_LOG"
  grep -qE -- "$c.* rm -f shard01-b$" "$STUB_DOCKER_LOG"
  grep -qxF -- "volume rm lab-wiredtiger_shard01-b-data" "$STUB_DOCKER_LOG"
  grep -qE -- "$c.* run --rm --no-deps netem-shard01-c slow 100ms 64kbit$" "$STUB_DOCKER_LOG"
  grep -qE -- "$c.* run --rm --no-deps netem-shard01-a partition shard01-b shard01-c$" "$STUB_DOCKER_LOG"
  grep -qE -- "$c.* run --rm --no-deps netem-shard01-a heal$" "$STUB_DOCKER_LOG"
  grep -qE -- "$c.* logs --no-color --no-log-prefix --since 2026-01-01T00:00:00Z shard01-c$" "$STUB_DOCKER_LOG"
  grep -qE -- "$c.* pause shard01-b$" "$STUB_DOCKER_LOG"
  grep -qE -- "$c.* unpause shard01-b$" "$STUB_DOCKER_LOG"
  [ "$(grep -vc '^info ' "$STUB_DOCKER_LOG")" -eq 13 ]
  [ "$(replies | grep -c ' 0 ')" -eq 13 ]
  replies | grep -qxF "11 0 /data/db/rollback/u1/removed.1.bson"
}

@test "bridge: a failing docker action is answered with its exit code" {
  rule '*stop shard01-c' 1 ''
  bridge $'1\tstop\tshard01-c'
  [ "$status" -eq 0 ]
  replies | grep -qxF "1 1 "
}

@test "bridge: unknown actions, non-members and bad arguments are refused (126) and run nothing" {
  bridge $'1\tdown\tshard01-c' $'2\tstop\tcfg1' $'3\tstop\tshard01-c;rm' $'4\tnetem-slow\tshard01-c\t1h\t64kbit' \
    $'5\tnetem-partition\tshard01-a\tshard01-b,mongos' $'6\tlogs\tshard01-c\tyesterday' $'7\tstop' $'8\tstop\tshard01-c\textra'
  [ "$status" -eq 0 ]
  [ "$(grep -vc '^info ' "$STUB_DOCKER_LOG")" -eq 0 ]
  [ "$(replies | grep -c ' 126 ')" -eq 8 ]
  replies | grep -qF "1 126 unknown docker action 'down'"
  replies | grep -qF "2 126 'cfg1' is not a shard member"
  [[ $output == *"refused: unknown docker action 'down'"* ]]
}

@test "bridge --dry-run: prints each docker command, runs none, answers 0" {
  bridge --dry-run $'1\tkill\tshard01-a' $'2\tvolume-rm\tshard01-b'
  [ "$status" -eq 0 ]
  [ "$(grep -vc '^info ' "$STUB_DOCKER_LOG")" -eq 0 ]
  [[ $output == *"+ env "*"docker compose "*" -p lab-wiredtiger "*" kill -s SIGKILL shard01-a"* ]]
  [[ $output == *"+ docker volume rm lab-wiredtiger_shard01-b-data"* ]]
  [ "$(replies | grep -c ' 0 ')" -eq 2 ]
}

# signal_bridge HOW SIGNAL: fault_bridge (in a session of its own, INT and TERM at their defaults)
# runs a fake fault process that records each signal it gets and each line bash relays; on a
# relayed line it waits 1 s for any other copy of the signal, asks for its heal (start shard01-c)
# and exits 130. HOW: alone (the signal to bash's PID) or group (to the whole process group, as
# Ctrl-C or timeout(1) send it; the process, like docker compose run, would get it from the group
# too, were it not in a group of its own).
# LONG (optional): a line the process prints after "ready", longer than LAB_WRAP, so that bash is
# wrapping it (an awk on PATH that takes 3 s over it) when the signal comes.
# within_60s CMD...: CMD again every 0.1 s until it succeeds, for 60 s at most; its last status.
within_60s() {
  local _
  for _ in $(seq 599); do "$@" && return 0; sleep 0.1; done
  "$@"
}

signal_bridge() {
  local how=$1 sig=$2
  SEEN=$BATS_TEST_TMPDIR/seen
  : >"$SEEN"
  cat >"$BATS_TEST_TMPDIR/healer" <<'FAKE'
#!/usr/bin/env bash
trap 'echo "signal $BASHPID" >>"$SEEN"' INT TERM
echo ready
[[ -z ${LONG:-} ]] || echo "$LONG"
line=""
while :; do
  # a timeout (status above 128) polls again; the end of stdin (the bridge gone) ends the process:
  # polling a closed stdin spun a core for as long as the machine ran. What a timed-out read had
  # read of a line is kept (bash stores it in the variable): a relay read byte by byte across a
  # timeout on a busy host was split in two, neither half "@lab-signal", and the heal never came
  IFS= read -r -t 0.2 part && st=0 || st=$?
  line+=$part
  if ((st > 128)); then continue; fi
  ((st == 0)) || exit 1
  case $line in
    @lab-signal*)
      echo "relayed ${line#*$'\t'}" >>"$SEEN"
      sleep 1
      printf '@lab-docker\t1\tstart\tshard01-c\n'
      IFS=$'\t' read -r _ rc _
      echo "healed rc=$rc"
      exit 130 ;;
  esac
  line=""
done
FAKE
  chmod +x "$BATS_TEST_TMPDIR/healer"
  cat >"$W/bridge-signal.sh" <<'SH'
#!/usr/bin/env bash
set -euo pipefail # as run.sh, which calls the bridge (fault_process) outside any condition
source "$(dirname "${BASH_SOURCE[0]}")/run.sh"
ENGINE=wiredtiger DRY_RUN=0
trap 'echo "bridge exit $?"' EXIT
fault_bridge "$@"
SH
  chmod +x "$W/bridge-signal.sh"
  # the healer, a background job of bash, starts with SIGINT ignored; docker compose (Go) sets
  # its own handler over that (os/signal Notify), so the healer gets INT back at its default
  SEEN=$SEEN setsid env --default-signal=INT,TERM "$W/bridge-signal.sh" \
    env --default-signal=INT "$BATS_TEST_TMPDIR/healer" >"$BATS_TEST_TMPDIR/out" 2>&1 &
  local pid=$!
  # up to 60 s for the healer to be ready: sourcing run.sh on a host busy with the other lane can
  # take more than 5 s, and a signal before then would test nothing
  within_60s grep -q ready "$BATS_TEST_TMPDIR/out" ||
    { echo "the healer was not ready in 60 s: $(cat "$BATS_TEST_TMPDIR/out")" >&2; return 1; }
  # STARTED (optional): a file made once the step the signal must land in has begun (the slow awk
  # below): "ready" is printed before bash has even read the long line
  if [[ -n ${STARTED:-} ]]; then
    within_60s test -e "$STARTED" || { echo "$STARTED not made in 60 s: $(cat "$BATS_TEST_TMPDIR/out")" >&2; return 1; }
  fi
  if [[ $how == group ]]; then kill "-$sig" -- "-$pid"; else kill "-$sig" "$pid"; fi
  for _ in $(seq 100); do kill -0 "$pid" 2>/dev/null || break; sleep 0.1; done
  if kill -0 "$pid" 2>/dev/null; then
    # the fault process is in a group of its own (fault_bridge), out of reach of the bridge's
    kill -KILL -- "-$pid"
    pkill -KILL -f "$BATS_TEST_TMPDIR/healer" || true
    echo "the bridge did not end; the process saw: $(cat "$SEEN"); its output: $(cat "$BATS_TEST_TMPDIR/out")" >&2
    return 1
  fi
}

@test "bridge: SIGTERM to run.sh alone is relayed on the fault process's stdin, its heal request answered; exit 143" {
  signal_bridge alone TERM
  grep -qx "relayed SIGTERM" "$SEEN"
  grep -q "healed rc=0" "$BATS_TEST_TMPDIR/out"
  grep -q "bridge exit 143" "$BATS_TEST_TMPDIR/out"
  grep -qE " start shard01-c$" "$STUB_DOCKER_LOG"
}

@test "bridge: SIGTERM to the whole group reaches the fault process (a group of its own) once, by bash's relay, never as a kill; exit 143" {
  signal_bridge group TERM
  [ "$(grep -c '^signal ' "$SEEN")" -eq 0 ] || { cat "$SEEN"; false; }
  grep -qx "relayed SIGTERM" "$SEEN"
  grep -q "healed rc=0" "$BATS_TEST_TMPDIR/out"
  grep -q "bridge exit 143" "$BATS_TEST_TMPDIR/out"
}

@test "bridge: SIGTERM to the whole group while bash wraps a long line: the wrapping goes on, the heal is said; exit 143" {
  # awk on PATH slowed over wrap_lines's first program only (its -v ind=), the long line's: the
  # signal lands while it runs, once it has said so (a signal sent on "ready" alone reached the
  # bridge, on a busy host, before it had started wrapping: the line was printed as it came, as
  # fault_bridge means it to). Once: the heal's own warning is wrapped too, and 3 s more there
  # took the bridge past the 10 s it has to end in, three tests at a time on a busy host.
  mkdir -p "$BATS_TEST_TMPDIR/slow-awk"
  printf '#!/bin/sh\ncase " $* " in *" ind="*) [ -e "%s" ] || { : >"%s"; sleep 3; } ;; esac\nexec %s "$@"\n' \
    "$BATS_TEST_TMPDIR/wrapping" "$BATS_TEST_TMPDIR/wrapping" "$(command -v awk)" >"$BATS_TEST_TMPDIR/slow-awk/awk"
  chmod +x "$BATS_TEST_TMPDIR/slow-awk/awk"
  PATH=$BATS_TEST_TMPDIR/slow-awk:$PATH LAB_WRAP=40 LONG="progress: $(printf 'word %.0s' {1..20})" \
    STARTED=$BATS_TEST_TMPDIR/wrapping signal_bridge group TERM
  grep -qx "relayed SIGTERM" "$SEEN"
  grep -q "healed rc=0" "$BATS_TEST_TMPDIR/out"
  grep -q "bridge exit 143" "$BATS_TEST_TMPDIR/out"
  grep -qx "  word word word.*" "$BATS_TEST_TMPDIR/out" || { cat "$BATS_TEST_TMPDIR/out"; false; } # the line, wrapped
}

@test "bridge: SIGINT with no terminal (to the group) is relayed and healed like SIGTERM; exit 130" {
  signal_bridge group INT
  [ "$(grep -c '^signal ' "$SEEN")" -eq 0 ] || { cat "$SEEN"; false; }
  grep -qx "relayed SIGINT" "$SEEN"
  grep -q "healed rc=0" "$BATS_TEST_TMPDIR/out"
  grep -q "bridge exit 130" "$BATS_TEST_TMPDIR/out"
}

@test "a replica-lag method the engine's fault_methods lacks is refused in one line, before any docker call" {
  # the engines table as data: drop fsync from wiredtiger's row in this copy only
  sed -i 's/^\(wiredtiger\t.*\t\)fsync,failpoint,netem\t/\1failpoint,netem\t/' "$W/compose/engines.tsv"
  grep -qP '^wiredtiger\t.*\tfailpoint,netem\t' "$W/compose/engines.tsv"
  run "$W/lab.sh" fault replica-lag --method fsync --engine wiredtiger
  [ "$status" -eq 2 ]
  [[ $output == *"error: --method fsync does not apply to engine wiredtiger (its fault_methods: failpoint,netem)"* ]]
  [ ! -s "$STUB_DOCKER_LOG" ]
  run "$W/lab.sh" fault replica-lag --method netem --engine wiredtiger --dry-run
  [ "$status" -eq 0 ]
}

@test "bridge: the caller's own INT trap is back after the process ends" {
  printf '#!/usr/bin/env bash\necho done\n' >"$BATS_TEST_TMPDIR/quick"
  chmod +x "$BATS_TEST_TMPDIR/quick"
  cat >"$W/bridge-trap.sh" <<'SH'
#!/usr/bin/env bash
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/run.sh"
ENGINE=wiredtiger DRY_RUN=0
trap 'exit 130' INT
fault_bridge "$@"
trap -p INT
SH
  chmod +x "$W/bridge-trap.sh"
  # env --default-signal: a shell that inherited SIGINT ignored can set no INT trap at all
  run env --default-signal=INT "$W/bridge-trap.sh" "$BATS_TEST_TMPDIR/quick"
  [ "$status" -eq 0 ]
  [[ $output == *"done"* ]]
  [[ $output == *"trap -- 'exit 130' SIGINT"* ]]
}
