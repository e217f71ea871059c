#!/usr/bin/env bats
# ./run.sh experiment1|2|3 (lib/experiment.sh) with the stub docker: every flag checked before
# anything starts, the stack brought up when it is not, the loader run in the stack with the
# secrets as files, --uri on the host without Docker, exit codes passed through.

# Each bats test runs in a subshell: a variable a test exports is that test's alone.
# shellcheck disable=SC2030,SC2031

load test_helper

setup() {
  setup_lab_with_loader
}

@test "help lists every workload kind's own flags, from the kinds (no list in bash)" {
  lab help
  assert_success
  local flags flag n=0
  # shellcheck disable=SC2016  # the script is node's
  flags=$(cd "$REPO/loader" && node -e 'for (const k of Object.values(require("./src/kinds").KINDS)) for (const o of Object.values(k.options || {})) console.log(o.flag)')
  for flag in $flags; do
    assert_line --regexp "^  $flag +[a-z0-9/-]+: "
    n=$((n + 1))
  done
  [ "$n" -ge 10 ]
}

@test "--dry-run and NAME --help: each experiment's own settings as its kind declares them (check's lines, the defaults)" {
  local f name want n=0 flag
  for f in "$REPO"/experiments/*.yaml; do
    name=$(basename "$f" .yaml)
    # the lines for the user (the facts and hooks, @lab-..., are ./run.sh's own)
    want=$(node "$REPO/loader/bin/lab-loader.js" check "$name" --experiments-dir "$REPO/experiments" | grep -v '^@lab-' || true)
    lab "$name" --dry-run
    assert_success
    if [[ -z $want ]]; then
      refute_output --partial " settings: "
      continue
    fi
    n=$((n + 1))
    assert_output --partial "$want"
    lab "$name" --help
    assert_success
    # shellcheck disable=SC2016  # the script is node's
    # the kind's flags, asked of the loader (its exit checked: a loop over nothing checks nothing)
    local flags
    flags=$(cd "$REPO/loader" && node -e 'const k = require("./src/kinds"); const { load } = require("./src/experiment/config"); const c = load({ experiment: process.argv[1], kindArgs: {} }).config; for (const o of Object.values(k.kind(c.workload.type).options)) console.log(o.flag)' "$name")
    [[ -n $flags ]] || fail "$name: its kind declares no flag"
    for flag in $flags; do
      awk -v f="$flag" '$1 == f { on = 1; print; next } on && /^   / && $1 !~ /^-/ { print; next } { on = 0 }' <<<"$output" | tr '\n' ' ' |
        grep -Eq '\[(default [^];]+|required)' || fail "$name --help: $flag without its default: $output"
    done
  done
  [ "$n" -ge 1 ]
}

@test "help lists the experiment flags" {
  lab help
  assert_success
  # every experiments/*.yaml by name with its first comment line
  assert_output --regexp "experiment1 +single-client insert stream"
  assert_output --regexp "experiment2 +random read \+ update with 1..6 concurrent clients"
  assert_output --regexp "experiment3 +exact-match reads"
  assert_output --regexp "report \[--experiment NAME"
  assert_output --regexp "--repeat N"
  assert_output --regexp "--docs N +documents to insert \\(experiment1 [0-9]+"
  assert_output --regexp "--clients LIST +client steps"
  assert_output --regexp "--duration DUR"
  assert_output --regexp "--rate N"
  assert_output --regexp "--uri URI"
}

@test "unknown flag or stray argument: exit 2, nothing started" {
  lab experiment2 --bogus 1
  assert_failure 2
  assert_output --partial "error: unknown flag '--bogus'"
  nothing_started
  lab experiment1 extra
  assert_failure 2
  assert_output --partial "experiment1 does not take 'extra'"
  nothing_started
}

@test "bad values: exit 2 naming the flag, nothing started" {
  local args
  for args in "--docs abc" "--docs 0" "--clients 1,,2" "--clients 0" "--clients x" "--duration 30" "--duration 2x" \
    "--rate -1" "--seed x" "--uri http://h" "--docs" "--clients --duration"; do
    # shellcheck disable=SC2086
    lab experiment2 $args
    assert_failure 2
    assert_output --partial "error: --"
    nothing_started
  done
  lab experiment2 --docs 100
  assert_failure 2
  assert_output --partial "error: --docs does not apply to experiment2 (its read_update workload takes --duration, --preload-docs)"
  lab experiment1 --duration 30s
  assert_failure 2
  assert_output --partial "error: --duration does not apply to experiment1 (its insert workload takes --docs)"
  lab experiment3 --password-file /etc/hostname
  assert_failure 2
  assert_output --partial "--password-file and --username go with --uri"
  lab experiment3 --engine perconaft
  assert_failure 2
  assert_output --partial "unknown engine 'perconaft'"
  nothing_started
}

@test "--dry-run: prints up, then the loader's compose run with the stack's secrets as files" {
  lab experiment2 --engine inmemory --clients 1,2 --duration=30s --rate 5000 --dry-run
  assert_success
  assert_output --partial "up -d"
  assert_output --regexp "\+ .*docker compose --project-directory [^ ]+ -p lab-inmemory .*-f compose/loader.yml .* --profile loader run --rm --no-deps --build --use-aliases loader experiment2 --uri mongodb://shard01-a:27017\\\\,shard01-b:27017\\\\,shard01-c:27017/\\\\\\?replicaSet=shard01 --password-file /run/lab-secrets/root-password --metrics-host 0.0.0.0 --engine inmemory --clients 1,2 --duration 30s --rate 5000 --grafana-url http://grafana:3000 --grafana-password-file /run/lab-secrets/grafana-admin-password --image mongodb=percona/percona-server-mongodb:8.0"
  refute_output --regexp "password-file [^/]"
  refute_called "* run *"
  refute_called "* up *"
}

@test "--no-monitoring: no Grafana annotations asked for" {
  lab experiment3 --no-monitoring --dry-run
  assert_success
  assert_output --partial "loader experiment3 --uri mongodb://shard01-a:27017\\,shard01-b:27017\\,shard01-c:27017/\\?replicaSet=shard01"
  refute_output --partial "--grafana-url"
}

@test "stack already up: no up -d, the loader runs (--no-deps), the folder it names is printed" {
  all_up_rules
  # the loader's closing line, as the container sees the repository's results/
  rule "compose * run --rm *" 0 "results: /lab/results/experiment1/wiredtiger/20260101T000002Z"
  mkdir -p "$LAB/results/experiment1/wiredtiger/20260101T000000Z"
  ln -s 20260101T000000Z "$LAB/results/experiment1/wiredtiger/latest"
  lab experiment1 --docs 1000
  assert_success
  refute_called "* up -d"
  assert_called "$(compose_prefix wiredtiger) -f compose/monitoring.yml -f compose/monitoring/healthcheck-start-interval.yml --profile loader run --rm --no-deps --build --use-aliases loader experiment1 --uri mongodb://shard01-a:27017,shard01-b:27017,shard01-c:27017/?replicaSet=shard01 --password-file /run/lab-secrets/root-password --metrics-host 0.0.0.0 --engine wiredtiger --docs 1000 *"
  assert_line "results: results/experiment1/wiredtiger/20260101T000002Z"
  refute_output --partial "20260101T000000Z"
  # one closing line per run: the loader's own (the container's path) is not shown beside it
  refute_output --partial "results: /lab/results/"
  [[ $(grep -c '^results: ' <<<"$output") == 1 ]] || fail "expected 1 results line: $output"
}

@test "journal on an engine whose members may run without a journal (engines.tsv nojournal: yes): after its cases, the shard members restarted with --nojournal, the journal-off case alone, the members restarted with their journal" {
  lab journal --engine mmapv1 --docs 1000 --dry-run
  assert_success
  assert_line "journal off: restarting the mmapv1 shard members with --nojournal, one at a time (compose/engines.tsv nojournal: yes)"
  local m
  for m in shard01-a shard01-b shard01-c; do
    assert_line --regexp "^\+ env .* LAB_SHARD_EXTRA_ARGS=--nojournal docker compose .* up -d --no-deps --wait $m$"
    [[ $(grep -- "up -d --no-deps --wait $m\$" <<<"$output" | grep -vc LAB_SHARD_EXTRA_ARGS) == 1 ]] || fail "$m is not restarted back without --nojournal: $output"
  done
  # in order: the cases, the restarts without a journal, the journal-off case, the restarts back
  [[ $(grep -c -- ' loader journal ' <<<"$output") == 2 ]] || fail "two loader runs expected: $output"
  assert_line --regexp "loader journal --uri .* --engine mmapv1 --docs 1000 --members-journal off "
  local first second restart back
  first=$(grep -n -- ' loader journal ' <<<"$output" | head -1 | cut -d: -f1)
  second=$(grep -n -- '--members-journal off' <<<"$output" | cut -d: -f1)
  restart=$(grep -n -- 'LAB_SHARD_EXTRA_ARGS=--nojournal docker compose .* --wait shard01-c$' <<<"$output" | cut -d: -f1)
  back=$(grep -n -- 'journal off: restarting the mmapv1 shard members with their journal' <<<"$output" | cut -d: -f1)
  ((first < restart && restart < second && second < back)) || fail "order: cases $first, restart $restart, journal off $second, back $back"
  [[ $(grep -c -- 'up -d --no-deps --wait shard01-a$' <<<"$output") == 2 ]] || fail "shard01-a restarted twice expected"
  refute_line --regexp "LAB_SHARD_EXTRA_ARGS=--nojournal .* loader journal"
  # an engine that cannot, and an experiment of another kind: nothing restarted
  lab journal --engine wiredtiger --docs 1000 --dry-run
  assert_success
  assert_line "journal off: not run on wiredtiger (compose/engines.tsv nojournal: no; its members cannot run without a journal, or it has none)"
  refute_output --regexp "loader journal .*--members-journal"
  refute_output --partial "--nojournal"
  lab experiment1 --engine mmapv1 --docs 1000 --dry-run
  assert_success
  refute_output --partial "journal off"
  refute_output --partial "--nojournal"
}

# flow_style NAME: experiments/NAME.yaml of the lab copy rewritten as one JSON object (YAML's flow
# style), its first comment line kept: the loader reads any style; bash never parses YAML.
flow_style() {
  local f=$LAB/experiments/$1.yaml
  node -e 'const fs = require("fs"); const Y = require(process.argv[2]); const t = fs.readFileSync(process.argv[1], "utf8");
    fs.writeFileSync(process.argv[1], t.split("\n")[0] + "\n" + JSON.stringify(Y.load(t, { schema: Y.CORE_SCHEMA })) + "\n")' "$f" "$REPO/loader/node_modules/js-yaml"
  ! grep -q '^  *type:' "$f" || fail "$f is still in block style"
}

@test "experiment files in flow style work through ./run.sh as the loader reads them: a kind's stack hook, YCSB's facts, help's defaults" {
  flow_style journal
  flow_style ycsb-a
  lab journal --engine mmapv1 --docs 1000 --dry-run
  assert_success
  assert_line "journal off: restarting the mmapv1 shard members with --nojournal, one at a time (compose/engines.tsv nojournal: yes)"
  assert_line --regexp "loader journal --uri .* --members-journal off "
  lab ycsb-a --tool ycsb --threads 2,4 --dry-run
  assert_success
  assert_line --regexp "YCSB_DATABASE=ycsb ycsb run .* 4\$"
  assert_output --partial "ycsb: load phase (4 threads), then runs with 2, 4 threads"
  lab help
  assert_success
  assert_output --regexp "--repeat N .*journal/writeconcern 3"
}

# oom_summary DIR: a complete summary.json as the loader writes it (src/results/summary.js buildSummary).
oom_summary() {
  mkdir -p "$1"
  node -e 'const { buildSummary } = require(process.argv[1]);
    const config = { name: "experiment1", setup: {}, preload: { docs: 0 }, workload: { type: "insert", clients: [1] } };
    const s = buildSummary({ complete: true, config, opts: {}, engine: "wiredtiger", steps: [], startedAt: new Date(0), preload: null, loader: {} });
    process.stdout.write(JSON.stringify({ schema_version: 1, ...s }, null, 2) + "\n")' \
    "$BATS_TEST_DIRNAME/../loader/src/results/summary.js" >"$1/summary.json"
}

@test "a member killed for memory (Docker OOMKilled) during the run: the run's summary.json is marked incomplete with that reason, exit 1" {
  all_up_rules
  rule "compose * run --rm *" 0 "results: /lab/results/experiment1/wiredtiger/20260101T000002Z"
  rule "ps -a --filter label=com.docker.compose.project=lab-wiredtiger --format {{.Names}}" 0 "lab-wiredtiger-shard01-b-1\nlab-wiredtiger-cfg1-1\nlab-wiredtiger-shard01-c-1"
  rule "inspect --format *" 0 "/lab-wiredtiger-shard01-b-1|shard01-b|true|false|2999-01-01T00:00:01.123456789Z\n/lab-wiredtiger-cfg1-1|cfg1|false|true|0001-01-01T00:00:00Z\n/lab-wiredtiger-shard01-c-1|shard01-c|true|false|2000-01-01T00:00:00Z"
  local dir=$LAB/results/experiment1/wiredtiger/20260101T000002Z
  oom_summary "$dir"
  lab experiment1 --docs 1000
  assert_failure 1
  local why="killed for memory during the run (Docker OOMKilled): shard01-b; the profile's memory limit (compose/profiles.tsv data_mem, cfg_mem) is too small for this engine and load"
  assert_line "warning: $why"
  assert_line "results: results/experiment1/wiredtiger/20260101T000002Z"
  run node -e 'const s = JSON.parse(require("fs").readFileSync(process.argv[1], "utf8"));
    console.log(JSON.stringify([s.complete, s.reason, s.exit_code, s.oom_killed, Object.keys(s).indexOf("oom_killed") - Object.keys(s).indexOf("exit_code")]))' "$dir/summary.json"
  assert_success
  assert_output "[false,\"$why\",1,[\"shard01-b\"],1]"
}

# fp_summary DIR: a summary.json with the loader's own footprint block (loader/src/server/footprint.js).
fp_summary() {
  mkdir -p "$1"
  node -e 'const { footprintSummary } = require(process.argv[1]);
    process.stdout.write(JSON.stringify({ schema_version: 1, complete: true, reason: null, exit_code: 0, experiment: "experiment1",
      engine: "wiredtiger", steps: [], footprint: footprintSummary({ name: "experiment1" }, { end: { documents: 1000 } }) }, null, 2) + "\n")' \
    "$BATS_TEST_DIRNAME/../loader/src/server/footprint.js" >"$1/summary.json"
}

@test "after an in-stack run: each shard member's data directory size (du -sb /data/db) goes into summary.json footprint.data_dir_bytes" {
  all_up_rules
  rule "compose * run --rm *" 0 "results: /lab/results/experiment1/wiredtiger/20260101T000002Z"
  rule "compose * exec -T shard01-a du -sb /data/db" 0 "10307921510 /data/db"
  rule "compose * exec -T shard01-b du -sb /data/db" 0 "10307921000 /data/db"
  rule "compose * exec -T shard01-c du -sb /data/db" 1 ""
  local dir=$LAB/results/experiment1/wiredtiger/20260101T000002Z
  fp_summary "$dir"
  # docker compose exec -T forwards stdin: the loop over the members must not lose its input.
  export STUB_DOCKER_EXEC_STDIN=1
  lab experiment1 --docs 1000
  assert_success
  assert_called "$(compose_prefix wiredtiger) -f compose/monitoring.yml -f compose/monitoring/healthcheck-start-interval.yml exec -T shard01-a du -sb /data/db"
  run node -e 'const s = JSON.parse(require("fs").readFileSync(process.argv[1], "utf8"));
    console.log(JSON.stringify([s.footprint.data_dir_bytes, s.footprint.data_dir_note, s.footprint.end.documents, s.footprint.seed_reference.documents, s.complete]))' "$dir/summary.json"
  assert_success
  assert_output '[{"shard01-a":10307921510,"shard01-b":10307921000},"du -sb /data/db in each shard member after the run (./run.sh): data, indexes, journal, oplog and any preallocated files",1000,10000000,true]'
}

@test "without the loader on this host, its image merges what ./run.sh measured: one merge-summary of the run's folders" {
  rm "$LAB/loader" # the loader's checks and merges run in its image
  all_up_rules
  rule "compose * run --rm *" 0 "results: /lab/results/experiment1/wiredtiger/20260101T000002Z"
  rule "compose * exec -T shard01-a du -sb /data/db" 0 "1000 /data/db"
  oom_summary "$LAB/results/experiment1/wiredtiger/20260101T000002Z"
  export STUB_DOCKER_EXEC_STDIN=1
  lab experiment1 --docs 1000
  assert_success
  assert_called "$(compose_prefix wiredtiger) -f compose/monitoring.yml -f compose/monitoring/healthcheck-start-interval.yml --profile loader run --rm --no-deps -T --entrypoint node loader /lab/loader/bin/lab-loader.js merge-summary /lab/results/experiment1/wiredtiger/20260101T000002Z"
}

@test "a container OOM-killed before the run (an older kill) leaves the run as it is" {
  all_up_rules
  rule "compose * run --rm *" 0 "results: /lab/results/experiment1/wiredtiger/20260101T000002Z"
  rule "ps -a --filter label=com.docker.compose.project=lab-wiredtiger --format {{.Names}}" 0 "lab-wiredtiger-shard01-c-1"
  rule "inspect --format *" 0 "/lab-wiredtiger-shard01-c-1|shard01-c|true|false|2000-01-01T00:00:00Z"
  local dir=$LAB/results/experiment1/wiredtiger/20260101T000002Z
  oom_summary "$dir"
  cp "$dir/summary.json" "$BATS_TEST_TMPDIR/before.json"
  lab experiment1 --docs 1000
  assert_success
  refute_output --partial "OOMKilled"
  # the verdict as the loader wrote it; only the block writes (stub members answer) are ./run.sh's
  run node -e 'const [a, b] = process.argv.slice(1).map((f) => JSON.parse(require("fs").readFileSync(f, "utf8")));
    for (const s of [a, b]) { delete s.block_writes; delete s.block_writes_note; }
    console.log(JSON.stringify(a) === JSON.stringify(b) ? "same" : JSON.stringify(a))' "$dir/summary.json" "$BATS_TEST_TMPDIR/before.json"
  assert_output same
  assert_called "inspect --format *"
}

@test "the loader wrote no folder (it failed before): no results line, not latest's older run" {
  all_up_rules
  rule "compose * run --rm *" 1 "error: something the loader refused"
  mkdir -p "$LAB/results/experiment1/wiredtiger/20260101T000000Z"
  ln -s 20260101T000000Z "$LAB/results/experiment1/wiredtiger/latest"
  lab experiment1 --docs 1000
  assert_failure 1
  refute_output --partial "results:"
}

@test "after a fault changed the shard members (LAB_SHARD_EXTRA_ARGS): the loader runs with --no-deps, nothing recreated" {
  # the stack is up as the fault left it; compose run without --no-deps would
  # recreate every service whose configuration differs from the file's (the shard members).
  all_up_rules
  lab experiment3 --clients 1 --duration 5s --no-monitoring
  assert_success
  assert_called "* --profile loader run --rm --no-deps --build --use-aliases loader experiment3 *"
  refute_called "* run --rm --build *"
  refute_called "* up *"
  refute_called "* create *"
  refute_called "* restart *"
}

@test "stack partly up: names what is not up and the command that brings it back; nothing started" {
  local ps='keyfile|exited||0\ncfg1|running|healthy|0\ncfg2|running|healthy|0\ncfg3|running|healthy|0'
  ps+='\nshard01-a|running|healthy|0\nshard01-b|exited||137\nshard01-c|running|healthy|0\nmongos|running|healthy|0\ninit|exited||0'
  rule "compose * ps -a --format {{.Service}}|{{.State}}|{{.Health}}|{{.ExitCode}}*" 0 "$ps"
  lab experiment2 --engine inmemory --no-monitoring
  assert_failure 1
  assert_output --partial "error: the inmemory stack is only partly up (not up: shard01-b)"
  assert_output --partial "'./run.sh up --engine inmemory' (after a fault: './run.sh fault heal --engine inmemory')"
  refute_called "* up *"
  refute_called "* run --rm *"
}

@test "the engine image's digest goes into the run's summary (--image), the tag alone when Docker has none" {
  all_up_rules
  rule "image inspect * mongo:8.0" 0 "mongo@sha256:5eb1"
  lab experiment3 --clients 1
  assert_success
  assert_called "* loader experiment3 * --image mongodb=mongo:8.0@sha256:5eb1 --profile laptop"
  : >"$STUB_DOCKER_RULES"
  all_up_rules
  lab experiment3 --clients 1
  assert_success
  assert_called "* loader experiment3 * --image mongodb=mongo:8.0 --profile laptop"
}

@test "--via: the shard's primary by default (as seeds/004), mongos on request; bad or misplaced values are exit 2" {
  lab experiment3 --dry-run
  assert_success
  assert_output --partial "loader experiment3 --uri mongodb://shard01-a:27017\\,shard01-b:27017\\,shard01-c:27017/\\?replicaSet=shard01 "
  lab experiment3 --via mongos --dry-run
  assert_success
  assert_output --partial "loader experiment3 --uri mongodb://mongos:27017/ "
  lab experiment3 --via config
  assert_failure 2
  assert_output --partial "--via needs primary or mongos (got 'config')"
  lab experiment3 --via mongos --uri mongodb://db.example:27017/
  assert_failure 2
  assert_output --partial "with --uri the URI says it"
  nothing_started
}

@test "stack down: up -d first, then the loader" {
  # lib/cluster.sh's ps format; init has exited 0 once `up -d` returns.
  rule "compose * ps -a --format {{.Service}}|{{.State}}|{{.Health}}|{{.ExitCode}} init" 0 "init|exited||0"
  # bounded: should the cluster's ps format change, fail in 60 s instead of up's 600 s wait
  run timeout 60 "$LAB/run.sh" experiment3 --clients 1 --duration 5s --no-monitoring </dev/null
  assert_success
  run grep -n -e " up -d" -e " run --rm" "$STUB_DOCKER_LOG"
  [[ ${lines[0]} == *" up -d"* ]] || fail "up -d must come first: $output"
  [[ ${lines[1]} == *" run --rm --no-deps --build --use-aliases loader experiment3 "* ]] || fail "then the loader: $output"
}

@test "the loader's exit code is passed through (1 incomplete run, 130 Ctrl-C)" {
  all_up_rules
  rule "compose * run --rm *" 1
  lab experiment2 --no-monitoring
  assert_failure 1
  : >"$STUB_DOCKER_RULES"
  all_up_rules
  rule "compose * run --rm *" 130
  lab experiment2 --no-monitoring
  assert_failure 130
}

@test "--uri: the loader on the host, no Docker at all" {
  lab experiment3 --uri mongodb://db.example:27017/ --engine inmemory --clients 2 --dry-run
  assert_success
  assert_output --regexp "\+ LAB_LOADER_URI=mongodb://db.example:27017/ [^ ]+/loader/bin/lab-loader experiment3 --engine inmemory --results-dir [^ ]+/results --clients 2"
  nothing_started
}

@test "--uri without --engine: no label passed, the loader files the run under what the server reports" {
  lab experiment3 --uri mongodb://db.example:27017/ --clients 2 --metrics-port 9500 --dry-run
  assert_success
  assert_output --regexp "\+ LAB_LOADER_URI=mongodb://db.example:27017/ [^ ]+/loader/bin/lab-loader experiment3 --results-dir [^ ]+/results --clients 2 --metrics-port 9500"
  refute_output --partial "--engine"
  lab experiment3 --metrics-port 9500
  assert_failure 2
  assert_output --partial "--metrics-port goes with --uri"
  lab experiment3 --uri mongodb://db.example:27017/ --metrics-port 70000
  assert_failure 2
  assert_output --partial "error: --metrics-port: 70000 is out of range 0..65535"
  nothing_started
}

@test "mongodb:// with no host: a usage error (exit 2), nothing started" {
  local u
  for u in "mongodb://" "mongodb:///db" "mongodb://user:pw@/" "mongodb://:27017/" "mongodb+srv://"; do
    lab experiment1 --uri "$u"
    assert_failure 2
    # the URI as typed, its password masked
    assert_output --partial "error: --uri '${u/:pw@/:***@}' names no server"
    refute_output --partial ":pw@"
  done
  nothing_started
}

@test "one duration grammar: parse_duration gives exactly test/vectors/durations.tsv (as the loader's duration.js does)" {
  # shellcheck source=lib/common.sh
  source "$REPO/lib/common.sh"
  local line input want got n=0
  while IFS= read -r line; do
    [[ -z $line || $line == '#'* ]] && continue
    input=${line%%$'\t'*} want=${line#*$'\t'}
    if parse_duration FLAG "$input"; then got=$DURATION_MS; else got="error: $DURATION_ERROR"; fi
    [[ $got == "$want" ]] || fail "parse_duration '$input': got '$got', want '$want'"
    n=$((n + 1))
  done <"$REPO/test/vectors/durations.tsv"
  ((n >= 30)) || fail "only $n vectors"
}

@test "durations: run.sh and the loader give the same one-line message (--duration 0s, --stall-timeout 90)" {
  lab experiment2 --uri mongodb://db.example:27017/ --duration 0s
  assert_failure 2
  assert_line "error: --duration must be more than zero (got '0s')"
  refute_output --partial "results:"
  lab experiment2 --stall-timeout 90
  assert_failure 2
  assert_line "error: --stall-timeout '90' is not a duration (use a number and a unit: 500ms, 30s, 2m, 1h; decimals allowed)"
  lab experiment2 --duration 1.5m --dry-run
  assert_success
  assert_output --partial "--duration 1.5m"
  # fault --threshold: the same grammar and message
  lab fault replica-lag --threshold 90
  assert_failure 2
  assert_line "error: --threshold '90' is not a duration (use a number and a unit: 500ms, 30s, 2m, 1h; decimals allowed)"
  lab fault replica-lag --threshold 0s
  assert_failure 2
  assert_line "error: --threshold must be more than zero (got '0s')"
  : >"$STUB_DOCKER_LOG"
  # A valid threshold reaches the one fault process as given; the process parses it with the
  # loader's duration.js (test/vectors/durations.tsv holds both parsers to the same answers, and
  # test/fault.bats runs the real process to its plan, "threshold: 60 s").
  lab fault replica-lag --threshold 0.5m --dry-run
  assert_success
  assert_output --regexp "fault-tool run replica-lag .*--threshold 0\\.5m"
  lab fault replica-lag --threshold 3.5s --dry-run
  assert_success
  assert_output --regexp "fault-tool run replica-lag .*--threshold 3\\.5s"
}

@test "--uri, connection refused: one line within seconds, no results folder, latest not moved" {
  mkdir -p "$LAB/results/experiment1/unknown/20200101T000000Z" "$LAB/results/experiment1/wiredtiger/20200101T000000Z"
  ln -s 20200101T000000Z "$LAB/results/experiment1/unknown/latest"
  ln -s 20200101T000000Z "$LAB/results/experiment1/wiredtiger/latest"
  # The refusal ends the run at once, not when server selection gives up: with a selection timeout
  # of 180 s, any run shorter than that did not wait for it, whatever node's start costs on a busy
  # host (a bound of 6 s against the default 10 s failed under load).
  local t0=$SECONDS
  lab experiment1 --uri 'mongodb://127.0.0.1:1/?directConnection=true' --docs 100 --server-selection-timeout 180s
  assert_failure 1
  assert_line "error: connection refused by 127.0.0.1:1: nothing listens there (is the server running, is the port in --uri right?)"
  refute_output --partial "results:"
  ((SECONDS - t0 < 180)) || fail "took $((SECONDS - t0)) s: the run waited out the selection timeout (180 s) after the refusal"
  [[ $(find "$LAB/results" -mindepth 3 -maxdepth 3 | sort | tr '\n' ' ') == "$LAB/results/experiment1/unknown/20200101T000000Z $LAB/results/experiment1/unknown/latest $LAB/results/experiment1/wiredtiger/20200101T000000Z $LAB/results/experiment1/wiredtiger/latest " ]] ||
    fail "something was written: $(find "$LAB/results")"
  [[ $(readlink "$LAB/results/experiment1/wiredtiger/latest") == 20200101T000000Z ]]
  [[ $(readlink "$LAB/results/experiment1/unknown/latest") == 20200101T000000Z ]]
  nothing_started --with-results
}

# start_test_server / stop_test_server: test/test_helper.bash.
teardown() {
  stop_test_server
}

@test "two runs in one second never share a folder (the second is forced: every stamp of the next 10 min is taken)" {
  start_test_server
  # Another run holds each second's folder from now on, so both runs below land on a taken
  # second for certain; each must make a folder of its own (<stamp>-2, -3) and leave the taken
  # ones alone. Both start at the same moment, as real concurrent processes. The window is far
  # longer than the runs take: on a loaded CI machine the loader's start alone once passed 20 s,
  # and both runs then found a free second (seen in CI, 2026-11-23).
  local parent=$LAB/results/experiment1/inmemory i stamp now taken=()
  mkdir -p "$parent"
  now=$(date +%s)
  # the stamps by bash's own clock formatting (1,200 forks of date and mkdir cost 6 s of CPU)
  for ((i = 0; i < 600; i++)); do
    TZ=UTC0 printf -v stamp '%(%Y%m%dT%H%M%SZ)T' "$((now + i))"
    taken+=("$parent/$stamp")
  done
  mkdir "${taken[@]}"
  for stamp in "${taken[@]}"; do echo taken >"$stamp/owner"; done
  "$LAB/run.sh" experiment1 --uri "$SERVER_URI" --engine inmemory --docs 200 --warmup 0 --metrics-port 0 >"$BATS_TEST_TMPDIR/a.out" 2>&1 </dev/null &
  local a=$!
  "$LAB/run.sh" experiment1 --uri "$SERVER_URI" --engine inmemory --docs 200 --warmup 0 --metrics-port 0 >"$BATS_TEST_TMPDIR/b.out" 2>&1 </dev/null &
  local b=$!
  wait "$a" || fail "run a failed: $(cat "$BATS_TEST_TMPDIR/a.out")"
  wait "$b" || fail "run b failed: $(cat "$BATS_TEST_TMPDIR/b.out")"
  local ra rb
  ra=$(sed -n 's/^results: \(results\/.*\)$/\1/p' "$BATS_TEST_TMPDIR/a.out")
  rb=$(sed -n 's/^results: \(results\/.*\)$/\1/p' "$BATS_TEST_TMPDIR/b.out")
  [[ -n $ra && -n $rb && $ra != "$rb" ]] || fail "two different folders expected: '$ra' '$rb'"
  [[ $ra =~ /[0-9]{8}T[0-9]{6}Z-[0-9]+$ && $rb =~ /[0-9]{8}T[0-9]{6}Z-[0-9]+$ ]] || fail "taken seconds get a suffix: $ra $rb"
  grep -q '"complete": true' "$LAB/$ra/summary.json"
  grep -q '"complete": true' "$LAB/$rb/summary.json"
  # the taken folders hold only what their owner put there
  for stamp in "$parent"/2*Z; do
    [[ $(ls -A "$stamp") == owner ]] || fail "a run wrote into a folder it did not create: $stamp: $(ls -A "$stamp")"
  done
}

@test "--uri without node on PATH: exit 1 naming the fix" {
  local bin=$BATS_TEST_TMPDIR/bin f
  mkdir -p "$bin"
  # The tools run.sh and lib/ use, and not node.
  for f in bash env dirname basename cat grep tail head cut awk paste id readlink mkdir sed sort uniq tr wc rm ls chmod mktemp; do
    ln -s "$(command -v "$f")" "$bin/$f"
  done
  PATH="$REPO/test/stub:$bin" run "$LAB/run.sh" experiment3 --uri mongodb://127.0.0.1:1/ </dev/null
  assert_failure 1
  assert_output --partial "node is not installed"
  nothing_started
}

@test "--uri without the loader's dependencies on this host: exit 1 naming the fix, not checked in the image" {
  rm "$LAB/loader" # node stays on PATH; loader/node_modules is gone with the loader
  lab experiment3 --uri mongodb://127.0.0.1:1/
  assert_failure 1
  assert_output "error: the loader's dependencies are missing: run 'cd loader && npm ci --omit=dev' first"
  nothing_started
}

# smoke_hook MODE: lib/experiment.sh's smoke_experiments with the CLI run (smoke_lab_raw) replaced
# by a stand-in that writes a new results folder per experiment (MODE=writes) or nothing at all
# (MODE=nothing, as a run that failed before writing); an older complete run is `latest` for each.
smoke_hook() {
  local exp old
  for exp in experiment1 experiment2 experiment3; do
    old=$LAB/results/$exp/wiredtiger/20200101T000000Z
    mkdir -p "$old"
    printf '{\n  "complete": true,\n  "engine_reported": "wiredTiger"\n}\n' >"$old/summary.json"
    ln -sfn 20200101T000000Z "$LAB/results/$exp/wiredtiger/latest"
  done
  # shellcheck disable=SC2016  # expanded by the inner bash
  run bash -c '
    source "$1/run.sh"
    ENGINE=wiredtiger MODE=$2
    smoke_lab_raw() {
      [[ $MODE == writes ]] || return 0
      local d=$LAB_ROOT/results/$1/wiredtiger/20300101T000000Z
      mkdir -p "$d"
      printf "{\n  \"complete\": true,\n  \"engine_reported\": \"wiredTiger\"\n}\n" >"$d/summary.json"
    }
    smoke_experiments wiredtiger' _ "$LAB" "$1" </dev/null
}

@test "smoke_experiments reads the summary its own run wrote, never latest's older one" {
  smoke_hook writes
  assert_success
  assert_line --regexp "^ok [0-9]+ - wiredtiger: experiment1 summary\.json of this run is complete$"
  assert_line --regexp "^ok [0-9]+ - wiredtiger: experiment1 summary\.json of this run records storage engine wiredTiger as the server reports it$"
  assert_line --regexp "^ok [0-9]+ - wiredtiger: experiment3 summary\.json of this run records storage engine wiredTiger as the server reports it$"
  rm -rf "$LAB/results"
  smoke_hook nothing
  assert_failure 1
  assert_line --regexp "^ok [0-9]+ - wiredtiger: experiment1 runs to completion in the stack \(--docs 5000 --via mongos\)$"
  assert_line --regexp "^not ok [0-9]+ - wiredtiger: experiment1 summary\.json of this run is complete$"
  assert_output --partial "# no results/experiment1/wiredtiger/ folder written by this smoke run's last step"
  refute_line --regexp "^ok [0-9]+ - .*summary\\.json"
}

@test "smoke_experiments runs every experiment file at its smoke: line's size; a file without one fails the smoke" {
  add_recipe_experiment
  smoke_hook writes
  assert_failure 1
  assert_line --regexp "^not ok [0-9]+ - wiredtiger: read-small has a smoke: line \(its tiny-scale flags\)$"
  echo 'smoke: "--preload-docs 100 --clients 1 --duration 1s"  # tiny' >>"$LAB/experiments/read-small.yaml"
  rm -rf "$LAB/results" # the stand-in writes the same folder names again
  smoke_hook writes
  assert_success
  assert_line --regexp "^ok [0-9]+ - wiredtiger: read-small runs to completion in the stack \(--preload-docs 100 --clients 1 --duration 1s\)$"
}

# The recipe of DEVELOPERS.md "Adding an experiment", followed in this test's copy of the lab:
# one new file of an existing kind, no code edit.
add_recipe_experiment() {
  cat >"$LAB/experiments/read-small.yaml" <<'YAML'
# read-small: exact-match reads on a small data set (the recipe's example).
name: read-small
database: lab
collection: recipe
seed: 7
setup: { drop: true, indexes: [{ x: 1 }] }
document: { y_length: 50, alphabet: abc }
preload: { docs: 300, batch: 100 }
workload: { type: read, clients: [1, 2], duration: 1s }
YAML
}

@test "--repeat: the closing lines name every folder the run created, one per repetition, once each" {
  all_up_rules
  rule "compose * run --rm *" 0 "results: /lab/results/experiment1/wiredtiger/20260101T000002Z\nrepetition 2/2\nresults: /lab/results/experiment1/wiredtiger/20260101T000003Z"
  lab experiment1 --docs 1000 --repeat 2
  assert_success
  assert_line "results: results/experiment1/wiredtiger/20260101T000002Z"
  assert_line "results: results/experiment1/wiredtiger/20260101T000003Z"
  [[ $(grep -c '^results: results/' <<<"$output") == 2 ]] || fail "expected 2 closing lines: $output"
  [[ $(grep -c '^results: ' <<<"$output") == 2 ]] || fail "one results line per run, not the loader's as well: $output"
}

@test "an experiment is a file: a new experiments/NAME.yaml is listed by help and runs with --uri, no code edit" {
  add_recipe_experiment
  lab help
  assert_success
  assert_output --regexp "read-small +exact-match reads on a small data set \\(the recipe's example\\)\\."
  start_test_server
  # --warmup 0: its two 1 s steps without the 5 s warm-up a duration step has by default
  # (unpaced, 7.5 CPU s; the warm-up is loader/test/warmup.test.js's)
  lab read-small --uri "$SERVER_URI" --engine recipe-label --metrics-port 0 --warmup 0
  assert_success
  assert_output --regexp "results: results/read-small/recipe-label/[0-9]{8}T[0-9]{6}Z"
  local dir
  dir=$(sed -n 's/^results: \(results\/.*\)$/\1/p' <<<"$output")
  grep -q '"complete": true' "$LAB/$dir/summary.json" || fail "not complete: $(cat "$LAB/$dir/summary.json")"
  grep -q '"experiment": "read-small"' "$LAB/$dir/summary.json" || fail "not read-small"
  grep -q '"phase": "clients-2"' "$LAB/$dir/summary.json" || fail "no clients-2 step"
  cmp -s "$LAB/experiments/read-small.yaml" "$LAB/$dir/read-small.yaml" || fail "the file that ran is not this copy's"
  # Not an experiment file: still an unknown verb (exit 2), nothing started.
  lab read-large
  assert_failure 2
  assert_output --partial "error: unknown verb 'read-large'"
  lab ../experiments/read-small
  assert_failure 2
  assert_output --partial "unknown verb"
  nothing_started --with-results
}

@test "one validation: the loader's own parser refuses out-of-range flags before anything starts, in stack and --uri" {
  lab experiment2 --clients 1001 --workers 999 --dry-run
  assert_failure 2
  assert_line "error: --clients: 1001 is out of range 1..1000"
  refute_output --partial "+ "
  lab experiment2 --workers 999 --uri mongodb://db.example:27017/ --dry-run
  assert_failure 2
  assert_line "error: --workers: 999 is out of range 1..256"
  lab experiment2 --repeat 0
  assert_failure 2
  assert_line "error: --repeat: 0 is out of range 1..1000"
  nothing_started
}

@test "a stack run's check leaves the URI out (the loader parses the stack's URI in the stack); a --uri run's check has it in its environment" {
  # node on PATH as a wrapper that notes each loader check's arguments and LAB_LOADER_URI, then runs
  # the real node: without a URI the check does not load the driver (loader/test/cli.test.js), a
  # third of its CPU
  local bin=$BATS_TEST_TMPDIR/bin
  mkdir -p "$bin"
  # shellcheck disable=SC2016  # $* and LAB_LOADER_URI are the wrapper's own, expanded when it runs
  printf '#!/bin/sh\ncase " $* " in *" check "*) echo "$* uri=${LAB_LOADER_URI-}" >>"%s";; esac\nexec %s "$@"\n' "$BATS_TEST_TMPDIR/checks" "$(command -v node)" >"$bin/node"
  chmod +x "$bin/node"
  PATH=$bin:$PATH lab experiment2 --dry-run
  assert_success
  PATH=$bin:$PATH lab experiment2 --via mongos --dry-run
  assert_success
  [[ $(wc -l <"$BATS_TEST_TMPDIR/checks") == 2 ]] || fail "checks: $(cat "$BATS_TEST_TMPDIR/checks")"
  ! grep -q -- '--uri\|uri=.' "$BATS_TEST_TMPDIR/checks" || fail "a stack run's check was given a URI: $(cat "$BATS_TEST_TMPDIR/checks")"
  PATH=$bin:$PATH lab experiment2 --uri mongodb://db.example:27017/ --dry-run
  assert_success
  [[ $(tail -1 "$BATS_TEST_TMPDIR/checks") == *" uri=mongodb://db.example:27017/" ]] || fail "checks: $(cat "$BATS_TEST_TMPDIR/checks")"
  ! tail -1 "$BATS_TEST_TMPDIR/checks" | grep -q -- '--uri' || fail "the URI is on the check's command line: $(tail -1 "$BATS_TEST_TMPDIR/checks")"
}

@test "one validation: without node or loader/node_modules, one line says the loader checks the flags, and the run goes on" {
  rm "$LAB/loader"
  lab experiment2 --clients 1,2 --dry-run
  assert_success
  assert_line "note: node or loader/node_modules not found on this host: the loader checks the flags when it starts (in its image), and says then what else the experiment needs of the stack"
  assert_output --partial "loader experiment2 --uri "
}

@test "--repeat, --group and the profile reach the loader; --uri runs carry no profile" {
  lab experiment2 --clients 1 --repeat 3 --group hosts-a --profile seed2013 --dry-run
  assert_success
  assert_output --regexp "loader experiment2 .* --clients 1 --repeat 3 --group hosts-a .* --profile seed2013$"
  lab experiment2 --uri mongodb://db.example:27017/ --repeat 2 --dry-run
  assert_success
  assert_output --partial "--repeat 2"
  refute_output --partial "--profile"
}

@test "--uri --engine: any label (not one of the lab's stacks), passed as given; in the stack the engine must exist" {
  lab experiment3 --uri mongodb://db.example:27017/ --engine rocksdb-6.1 --dry-run
  assert_success
  assert_output --regexp "LAB_LOADER_URI=mongodb://db.example:27017/ [^ ]+/lab-loader experiment3 --engine rocksdb-6.1 "
  # --engine wiredtiger given: a label too (ENGINE_GIVEN), not taken for the default
  lab experiment3 --uri mongodb://db.example:27017/ --engine wiredtiger --dry-run
  assert_success
  assert_output --partial "--engine wiredtiger "
  lab experiment3 --uri=mongodb://db.example:27017/ --engine 'bad label' --dry-run
  assert_failure 2
  assert_line "error: --engine: 'bad label' is not a valid label (letters, digits, . _ -)"
  lab experiment3 --engine perconaft --dry-run
  assert_failure 2
  assert_output --partial "unknown engine 'perconaft'"
  lab up --engine perconaft --dry-run
  assert_failure 2
  assert_output --partial "unknown engine 'perconaft'"
  nothing_started
}

@test "report: node report/bin/lab-report.js with the same arguments, no Docker; one line with the fix without its node_modules" {
  lab help
  assert_output --partial "report [--experiment NAME ...]"
  mkdir -p "$LAB/report"
  lab report --results-dir "$BATS_TEST_TMPDIR/empty"
  assert_failure 1
  assert_line "error: the report's dependencies are missing: run 'cd report && npm ci' first"
  rmdir "$LAB/report"
  ln -s "$REPO/report" "$LAB/report"
  mkdir -p "$BATS_TEST_TMPDIR/empty"
  # --engine is the report's filter, not one of the lab's engines (no validate_engine here)
  lab report --engine not-a-lab-engine --results-dir "$BATS_TEST_TMPDIR/empty"
  assert_failure 2
  assert_output --partial "lab-report: no results found in $BATS_TEST_TMPDIR/empty matching the filters"
  lab report --bogus
  assert_failure 2
  assert_output --partial "--bogus"
  nothing_started
}

# seeds/000 and 001 as experiments (experiments/writeconcern.yaml, journal.yaml).
@test "writeconcern and journal: listed by help, run in the stack of every engine of the table, bad input is exit 2 in one line" {
  lab help
  assert_success
  assert_output --regexp "writeconcern +what each write concern costs: 1,000 single inserts per case"
  assert_output --regexp "journal +the cost of durability on a bulk import"
  local engine engines
  mapfile -t engines < <(awk -F'\t' '!/^#/ && $1 != "engine" {print $1}' "$LAB/compose/engines.tsv")
  ((${#engines[@]} >= 5)) || fail "engines table not read: ${engines[*]}"
  # seed2013: the profile every engine's shard member fits (rocksdb does not fit laptop's memory)
  for engine in "${engines[@]}"; do
    lab writeconcern --engine "$engine" --profile seed2013 --ops 10 --dry-run
    assert_success
    assert_output --regexp "\+ .*-p lab-$engine .* run --rm --no-deps --build --use-aliases loader writeconcern --uri mongodb://shard01-a:27017.* --engine $engine --ops 10 --grafana-url http://grafana:3000"
    lab journal --engine "$engine" --profile seed2013 --docs 1000 --commit-intervals 1,500 --dry-run
    assert_success
    assert_output --regexp "\+ .*-p lab-$engine .* loader journal --uri .* --engine $engine --docs 1000 --commit-intervals 1,500 --grafana-url"
  done
  : >"$STUB_DOCKER_LOG"
  # --dry-run: a check that let one through would print the plan and exit 0, not hang on the stub
  lab writeconcern --write-concerns w:1,fast --dry-run
  assert_failure 2
  assert_line "error: --write-concerns: 'fast' is not a write concern (w:N or majority, +j for j:true; e.g. w:1,w:1+j,majority+j)"
  lab writeconcern --ops 0 --uri mongodb://db.example:27017/
  assert_failure 2
  assert_line "error: --ops: 0 is out of range 1..100000000"
  lab journal --batch 100000 --val-length 1000 --dry-run
  assert_failure 2
  assert_line "error: --batch 100000: 100000 documents of up to 1024 bytes are 102400000 bytes, over the 48000000-byte message limit (maxMessageSizeBytes)"
  lab journal --ops 5 --dry-run
  assert_failure 2
  # shellcheck disable=SC2016  # the script is node's
  assert_line "error: --ops does not apply to journal (its bulk_import workload takes $(cd "$REPO/loader" && node -p 'const k = require("./src/kinds"); k.flagsOf(k.kind("bulk_import")).join(", ")'))"
  nothing_started
}

@test "writeconcern and journal --uri against mongo-java-server: every case, unsupported cases as lines, the group table" {
  start_test_server
  lab writeconcern --uri "$SERVER_URI" --engine bats-wc --metrics-port 0 --ops 20 --repeat 2
  kill "$SERVER_PID" 2>/dev/null || true
  assert_success
  [[ $(grep -c '^results: results/writeconcern/bats-wc/' <<<"$output") == 2 ]] || fail "expected 2 results lines: $output"
  assert_line --regexp "^unsupported: 1 w:0: the server closed the connection after an unacknowledged write"
  assert_line --regexp "^w:1\+j +insert +2/2( +[0-9.]+){3}$"
  # a standalone cannot satisfy w > 1 or give majority a meaning of its own: not run
  assert_line --regexp "^majority\+j +- +0/2"
  assert_line --regexp "^not applicable: 8 w:3: w:3 on a standalone"
  # the footnote names this experiment's seed and its rule
  # (wrapped within 120 columns: joined again here also made it "3 times")
  [[ $(tr '\n' ' ' <<<"$output" | tr -s ' ') == *"fastest: the best this server did; median: what a user should expect, robust to one disturbed repetition; slowest: the spread. The seed: seeds/000 ran each case 3 times and kept fastest (Python timeit)"* ]] ||
    fail "the footnote: $output"
  start_test_server
  lab journal --uri "$SERVER_URI" --engine bats-j --metrics-port 0 --docs 2000 --batch 500 --commit-intervals 100 --repeat 1
  kill "$SERVER_PID" 2>/dev/null || true
  assert_success
  assert_line --regexp "^unsupported: 3 j:false interval=100ms: 127.0.0.1:[0-9]+: getParameter journalCommitInterval failed: CommandNotFound \(59\)"
  # this server reports no journal: j:true is measured, with no cost against j:false
  assert_line "measured: 2 j:true: journal not known: no cost against j:false"
  refute_line --regexp "^cost: "
}
