#!/usr/bin/env bats
# Messages a new user met: each says what happened and what to do, in the
# words of the command typed (./run.sh ..., never lab-loader or lab-report), exit 2 for usage.

load test_helper
bats_require_minimum_version 1.5.0 # run --separate-stderr

setup() { setup_lab_with_loader; }

@test "experiment2 --tool ycsb: --tool ycsb runs YCSB's own workloads, ycsb-a (not 'drop --uri'), exit 2" {
  lab experiment2 --tool ycsb --uri mongodb://127.0.0.1:1/
  assert_failure 2
  assert_output --partial "error: --tool ycsb runs YCSB's own workloads (ycsb-a): experiment2 is not one$(
    ) (its workload is read_update): drop --tool"
  refute_output --partial "drop --uri"
  lab experiment2 --tool ycsb
  assert_failure 2
  assert_output --partial "experiment2 is not one"
  nothing_started
}

@test "an unknown switch is unknown, not 'needs a value'; a flag without its value needs one; the hint is ./run.sh's" {
  lab experiment2 --uri mongodb://127.0.0.1:1/ --verbose
  assert_failure 2
  assert_output --partial "error: unknown flag '--verbose' (./run.sh help lists the flags)"
  refute_output --partial "needs a value"
  refute_output --partial "lab-loader"
  lab experiment2 --verbose --uri mongodb://127.0.0.1:1/
  assert_failure 2
  assert_output --partial "error: unknown flag '--verbose'"
  lab experiment2 --uri mongodb://127.0.0.1:1/ --docs
  assert_failure 2
  assert_output --partial "error: --docs needs a value"
  lab experiment2 --uri
  assert_failure 2
  assert_output --partial "error: --uri needs a value"
  nothing_started
}

@test "test --bogus: refused in one line, exit 2, no suite started" {
  SECONDS=0
  lab test --bogus
  assert_failure 2
  assert_output --partial "error: test takes no flags or arguments (got '--bogus')"
  refute_output --partial "passed,"
  ((SECONDS < 10)) || fail "took ${SECONDS}s: the suite ran"
}

@test "report --dry-run: prints the one command it would run, runs nothing, exit 0" {
  lab report --dry-run --experiment experiment2
  assert_success
  assert_output "+ node $LAB/report/bin/lab-report.js --experiment experiment2"
  [[ ! -e $LAB/results ]] || fail "the report ran: $(find "$LAB/results" | head -3)"
}

@test "logs bogus --dry-run without Compose: unknown service, names the services and that Compose could not run; a known one prints its command" {
  PATH=$(path_without_docker) run "$LAB/run.sh" logs bogus --dry-run </dev/null
  assert_failure 2
  assert_output --partial "error: unknown service 'bogus' (choose one of: "
  assert_output --regexp "choose one of: [^)]*grafana[^)]*shard01-a"
  assert_output --partial "'docker compose config' could not run here"
  refute_output --partial "run up --dry-run"
  PATH=$(path_without_docker) run "$LAB/run.sh" logs shard01-a --dry-run </dev/null
  assert_success
  assert_output --regexp "^\+ env .* docker compose .* logs --follow --tail 200 shard01-a$"
  # the exporters are written on one line each in compose/monitoring.yml: services all the same
  PATH=$(path_without_docker) run "$LAB/run.sh" logs cfg1-exporter --dry-run </dev/null
  assert_success
  assert_output --regexp "^\+ env .* docker compose .* logs --follow --tail 200 cfg1-exporter$"
}

@test "down, status, destroy, logs and shell do not open with the loader-and-cluster CPU warning; up still says it" {
  local verb
  for verb in down status "destroy --yes" logs shell; do
    # shellcheck disable=SC2086  # the verb's words
    LAB_HOST_CPUS=2 run "$LAB/run.sh" $verb --dry-run </dev/null
    refute_output --partial "share every CPU"
  done
  LAB_HOST_CPUS=2 run "$LAB/run.sh" up --dry-run </dev/null
  assert_output --partial "warning: the Docker host has 2 CPU(s), fewer than profile laptop's data_cpus (2) + loader_cores (1)"
}

@test "an unknown engine: 'did you mean' for a near name; perconaft points at README's Engines table" {
  lab up --engine wiredtigr --dry-run
  assert_failure 2
  assert_output --partial "error: unknown engine 'wiredtigr' (choose one of: $(table_engines)); did you mean 'wiredtiger'?"
  cp "$REPO/README.md" "$LAB/" # the table the message points at
  lab up --engine perconaft --dry-run
  assert_failure 2
  assert_output --partial "; perconaft is listed in README \"Engines\" as not added, with why and what to check"
  grep -qF "| \`perconaft\` | not added |" "$REPO/README.md" || fail "README's Engines table no longer lists perconaft as not added"
  lab up --engine zzz --dry-run
  assert_failure 2
  refute_output --partial "did you mean"
  nothing_started
}

@test "NAME --help: that experiment's usage and its workload's own flags within 120 columns, not the global help" {
  lab gridfs --help
  assert_success
  assert_line --index 0 "Usage: ./run.sh gridfs [--engine E | --uri URI] [flags]"
  assert_output --regexp "  --file-size +generated file size"
  refute_output --partial "Cluster:"
  local wide
  wide=$(awk 'length($0) > 120' <<<"$output")
  [[ -z $wide ]] || fail "over 120 columns: $wide"
  lab up --help
  assert_success
  assert_output --partial "Cluster:"
  nothing_started
}

# ---- dry runs within 120 columns, still the same commands -----
# Each verb's --dry-run as a user runs it (no LAB_WRAP: the default width). Its command lines were
# 641-747 columns (the env prefix of every `docker compose`); they are wrapped between words with a
# trailing " \", so that a pasted line is still one command.
DRY_RUNS=(
  "up" "down" "destroy --yes" "status" "logs" "shell" "shell shard01-a"
  "experiment2 --uri mongodb://root:pw@127.0.0.1:1/?replicaSet=rs0,x"
  "compare experiment2 --engines wiredtiger,inmemory" "report"
  "fault replica-lag" "fault replica-lag --method failpoint" "fault replica-lag --method netem"
  "fault failover --w majority" "fault failover --w 1 --how kill" "fault stale-secondary --yes" "fault heal" "resync shard01-c"
  "k8s up --engine percona-wt --registry reg.example/lab" "k8s status --engine percona-wt" "k8s down --engine percona-wt"
  "k8s destroy --engine percona-wt --yes" "fault failover --on k8s --engine percona-wt"
)

# dry_run_setup: the lab with the loader (the fault plans), k8s/ and dashboards/ (the k8s verbs)
dry_run_setup() {
  cp -R "$REPO/k8s" "$REPO/dashboards" "$LAB/"
  export STUB_KUBECTL_LOG=$BATS_TEST_TMPDIR/kubectl.log STUB_KUBECTL_RULES=$BATS_TEST_TMPDIR/kubectl.rules STUB_KUBECTL_STDIN=$BATS_TEST_TMPDIR/applied
  : >"$STUB_KUBECTL_RULES"
  rule "compose * config --volumes" 0 'cfg1-data\ncfg2-data\ncfg3-data\nshard01-a-data\nshard01-b-data\nshard01-c-data'
}

# commands_of TEXT: each "+ " command of a dry run, as the shell reads it: its words printed one
# per line in [brackets] (eval of the printed text with the command replaced by a printer), a
# wrapped command's continuation lines (after a trailing backslash) read with it.
commands_of() {
  local block="" l
  while IFS= read -r l; do
    if [[ -z $block && $l != "+ "* ]]; then continue; fi
    block+=${block:+$'\n'}$l
    local tail=${l##*[!\\]}
    ((${#tail} % 2 == 1)) && continue
    # shellcheck disable=SC2016  # expanded by the child bash
    bash -c 'argv() { printf "[%s]" "$@"; echo; }; kubectl() { argv kubectl "$@"; }; eval "argv ${1#+ }"' _ "$block" 2>/dev/null
    block=""
  done <<<"$1" | sed -E 's/cmp-[0-9]{8}T[0-9]{6}Z-[0-9a-f]+/cmp-ID/g; s/[0-9]{4}-[0-9]{2}-[0-9]{2}T[0-9:.]+Z/TIME/g' # a new id, a new time each run
}

# dry_run_pair V DIR: V's --dry-run in DIR/lab, a copy of the lab of its own, as a user runs it
# (wrapped: wrapped.out, wrapped.err, wrapped.status) and at LAB_WRAP=0 (flat.out), with the
# commands of each (commands_of) in wrapped.cmds and flat.cmds; the stubs log into DIR.
dry_run_pair() {
  local v=$1 d=$2 rc=0
  cp -R "$LAB" "$d/lab"
  export STUB_DOCKER_LOG=$d/docker.log STUB_KUBECTL_LOG=$d/kubectl.log STUB_KUBECTL_STDIN=$d/applied
  : >"$STUB_DOCKER_LOG"
  # shellcheck disable=SC2086  # each entry is a word list on purpose
  # the commands are stdout, the messages stderr: read apart, so that a message written while a
  # command is printed cannot land inside it (the two streams reach one pipe in no fixed order)
  LAB_WRAP='' "$d/lab/run.sh" $v --dry-run </dev/null >"$d/wrapped.out" 2>"$d/wrapped.err" || rc=$?
  echo "$rc" >"$d/wrapped.status"
  # shellcheck disable=SC2086
  LAB_WRAP=0 "$d/lab/run.sh" $v --dry-run </dev/null >"$d/flat.out" 2>/dev/null || true
  commands_of "$(cat "$d/wrapped.out")" >"$d/wrapped.cmds"
  commands_of "$(cat "$d/flat.out")" >"$d/flat.cmds"
}

@test "every verb's --dry-run fits 120 columns: command lines wrapped, each still the command it was" {
  dry_run_setup
  local v f wide wrapped flat n=0 i d verbs=("${DRY_RUNS[@]}")
  for f in "$LAB"/experiments/*.yaml; do verbs+=("$(basename "$f" .yaml)"); done
  # The verbs' dry runs four at a time, each in a lab of its own (dry_run_pair): one after the
  # other, their 60 run.sh starts (many of them starting node) took over 11 minutes at a load
  # average of 45 and ended the suite last. The checks below read them one verb at a time, in order.
  for i in "${!verbs[@]}"; do
    while (($(jobs -rp | wc -l) >= 4)); do wait -n || true; done
    mkdir -p "$BATS_TEST_TMPDIR/dry/$i"
    dry_run_pair "${verbs[i]}" "$BATS_TEST_TMPDIR/dry/$i" &
  done
  wait
  for i in "${!verbs[@]}"; do
    v=${verbs[i]} d=$BATS_TEST_TMPDIR/dry/$i
    [[ -e $d/wrapped.status && -e $d/flat.cmds ]] || fail "$v --dry-run: not run (dry_run_pair stopped early)"
    status=$(cat "$d/wrapped.status") output=$(cat "$d/wrapped.out") stderr=$(cat "$d/wrapped.err")
    [[ $status -eq 0 ]] || fail "$v --dry-run: exit $status"$'\n'"$output"$'\n'"$stderr"
    # every line but a manifest's (the data kubectl apply reads after <<EOF: YAML and dashboards'
    # JSON, not a command; k8s manifests is the verb that prints them)
    wide=$(awk '/<<EOF$/ { body = 1; next } body && /^EOF$/ { body = 0; next } !body && length($0) > 120' <<<"$output"$'\n'"$stderr")
    [[ -z $wide ]] || fail "$v --dry-run: over 120 columns:"$'\n'"$wide"
    wrapped=$(cat "$d/wrapped.cmds")
    flat=$(cat "$d/flat.cmds")
    [[ $wrapped == "$flat" ]] || fail "$v --dry-run: the wrapped commands differ from the one-line ones:"$'\n'"$(diff <(echo "$wrapped") <(echo "$flat"))"
    n=$((n + $(grep -c . <<<"$flat")))
  done
  ((n >= 60)) || fail "only $n commands read: the dry runs printed fewer than they do"
  # the URI's password stays masked in the wrapped command too
  LAB_WRAP='' run "$LAB/run.sh" experiment2 --uri 'mongodb://root:pw@127.0.0.1:1/?replicaSet=rs0,x' --dry-run </dev/null
  refute_output --partial ":pw@"
  assert_output --partial "root:***@"
}

@test "print_cmd: a wrapped command, pasted into bash, gives the same argv; a word longer than a line is split inside and still one word" {
  local long w out
  long=$(printf 'x%.0s' {1..150})
  # shellcheck disable=SC2016  # $HOME is an argument, as typed; $1 is the child's
  out=$(LAB_WRAP=40 bash -c 'source "$1/lib/common.sh"; DRY_RUN=1; shift; run "$@"' _ "$LAB" cmd "a b" "it's" '$HOME' "$long" 'tab	here' "$long,\\,y" 'new
line' --uri 'mongodb://u:secret@h/?authSource=admin' last)
  while IFS= read -r w; do
    ((${#w} <= 40)) || fail "over 40 columns: $w"
  done <<<"$out"
  [[ $(wc -l <<<"$out") -ge 10 ]] || fail "not wrapped: $out"
  [[ $out != *secret* ]] || fail "the password was printed: $out"
  local want got
  # shellcheck disable=SC2016  # $HOME is an argument, as typed
  want=$(printf '[%s]' cmd "a b" "it's" '$HOME' "$long" 'tab	here' "$long,\\,y" 'new
line' --uri 'mongodb://u:***@h/?authSource=admin' last)
  # shellcheck disable=SC2016
  got=$(bash -c 'argv() { printf "[%s]" "$@"; }; eval "argv ${1#+ }"' _ "$out")
  [[ $got == "$want" ]] || fail "argv differs:"$'\n'"got:  $got"$'\n'"want: $want"$'\n'"printed:"$'\n'"$out"
  bash -n <<<"${out#+ }" || fail "not valid shell: $out"
}
