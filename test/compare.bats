#!/usr/bin/env bats
# ./run.sh compare (lib/compare.sh) with the stub docker: the balanced interleaved order (never all
# of one engine first), each engine's stack up for its run and down after, the runs named in
# summary.json through the loader's --comparison, the state an interrupted comparison resumes
# from, the dry run, and bad input refused in one line before anything starts. The real loader,
# report and two --uri servers: report/test/compare-uri.test.js.

# Each bats test runs in a subshell; the helpers below read the $output of the test that calls them.
# shellcheck disable=SC2030,SC2031

load test_helper

teardown() { stop_test_server; }

setup() {
  setup_lab_with_loader
  # lib/cluster.sh's ps format; init has exited 0 once `up -d` returns (as in experiment.bats).
  rule "compose * ps -a --format {{.Service}}|{{.State}}|{{.Health}}|{{.ExitCode}} init" 0 "init|exited||0"
  # inmemory's down removes its volumes, listed by Compose (as in cluster.bats)
  rule "compose * config --volumes" 0 'shard01-a-data\nkeyfile'
}

# position_rules [EXIT_AT_POSITION CODE]: each position's loader run names a folder of its own
# (the stub's "results:" line, as the stack's loader prints it); one position may exit CODE.
position_rules() {
  local p side code
  for p in 1 2 3 4 5 6 7 8; do
    code=0
    [[ ${1:-} == "$p" ]] && code=$2
    for side in wiredtiger inmemory; do
      rule "compose * run --rm * --comparison *:$side:$p *" "$code" "results: /lab/results/experiment2/$side/2026010${p}T000000Z"
    done
  done
}

# run_sequence: "project:position" of every loader run and "down:project" of every down, in order.
run_sequence() {
  sed -nE 's/.* -p lab-([a-z0-9]+) .* run --rm .*--comparison [^ ]*:([0-9]+) .*/\1:\2/p; s/.* -p lab-([a-z0-9]+) .* down .*/down:\1/p' "$STUB_DOCKER_LOG" | paste -sd' ' -
}

comparison_id() { sed -nE 's/^comparison (cmp-[0-9T]+Z-[0-9a-f]{4}): .*/\1/p' <<<"$output" | head -1; }

@test "bad input: one line, exit 2, nothing started, no state written" {
  local args
  local cases=(
    ""
    "nosuch --engines wiredtiger,inmemory"
    "experiment2"
    "experiment2 --engines wiredtiger"
    "experiment2 --engines wiredtiger,wiredtiger"
    "experiment2 --engines wiredtiger,perconaft"
    "experiment2 --engines wiredtiger,inmemory --uri a=mongodb://h/ --uri b=mongodb://g/"
    "experiment2 --uri a=mongodb://h/"
    "experiment2 --uri a=http://h/ --uri b=mongodb://g/"
    "experiment2 --uri a=mongodb://h/ --uri a=mongodb://g/"
    "experiment2 --uri a=mongodb://h/ --uri b=mongodb://g/ --profile seed2013"
    "experiment2 --engines wiredtiger,inmemory --repeat 0"
    "experiment2 --engines wiredtiger,inmemory --engine wiredtiger"
    "experiment2 --engines wiredtiger,inmemory --group g1"
    "experiment2 --engines wiredtiger,inmemory --clients 0"
    "experiment2 --engines wiredtiger,inmemory --password-file /etc/hostname"
    "experiment2 --engines wiredtiger,rocksdb"
    "--resume nonsense"
    "--resume cmp-20260101T000000Z-abcd"
    "--resume cmp-20260101T000000Z-abcd --repeat 2"
  )
  for args in "${cases[@]}"; do
    # shellcheck disable=SC2086  # words on purpose
    lab compare $args
    assert_failure 2
    [[ ${lines[0]} == "error: "* ]] || fail "compare $args: first line is not the error: $output"
    [[ $(grep -c '^error: ' <<<"$output") == 1 ]] || fail "compare $args: one error line expected: $output"
    refute_line --regexp "^comparison cmp-"
    nothing_started
  done
  lab compare experiment2 --engines wiredtiger,rocksdb
  assert_output --partial "use --profile seed2013"
  lab compare experiment2 --uri a=mongodb://u:s3cret@h/ --uri a=mongodb://g/
  refute_output --partial "s3cret"
}

@test "a side's name is a results folder: a reserved, too long or unusual name is refused in one line naming the name" {
  local long
  long=$(printf 'x%.0s' {1..300})
  local name
  for name in report latest "a b" a/b "$long" .hidden; do
    lab compare experiment2 --uri "$name=mongodb://h/" --uri b=mongodb://g/
    assert_failure 2
    [[ ${lines[0]} == "error: --uri: "*"'$name'"* || ${lines[0]} == "error: --uri: the side's name is 300 characters, at most 64"* ]] ||
      fail "--uri '$name=...': the error does not blame the name: $output"
    [[ $output != *"not a mongodb:// URI"* ]] || fail "the URI blamed for the name: $output"
    [[ ${#lines[@]} == 2 && ${#lines[0]} -le 120 ]] || fail "not one line: $output"
    nothing_started
  done
  # no name at all, or a URI that is not one: said as such
  lab compare experiment2 --uri mongodb://h/?a=b --uri b=mongodb://g/
  assert_failure 2
  assert_line --index 0 --partial "--uri needs NAME=URI"
  lab compare experiment2 --uri a=h/ --uri b=mongodb://g/
  assert_failure 2
  assert_line --index 0 "error: --uri a=URI: 'h/' is not a mongodb:// URI (e.g. mongodb://127.0.0.1:27017/)"
}

@test "balanced order: A B B A A B B A, each engine up for its run and down after, each run named" {
  position_rules
  PATH=$(node_counting_checks):$PATH run timeout 120 "$LAB/run.sh" compare experiment2 --engines wiredtiger,inmemory --clients 1 --duration 5s --no-monitoring </dev/null
  assert_success
  # the loader checked each side once, before position 1: each run took that answer
  [[ $(wc -l <"$BATS_TEST_TMPDIR/checks") == 2 ]] || fail "$(wc -l <"$BATS_TEST_TMPDIR/checks") loader checks for 2 sides"
  local id
  id=$(comparison_id)
  [[ -n $id ]] || fail "no comparison id printed: $output"
  # the plan and its length come before the first run
  assert_line --regexp "^ +1  wiredtiger +to run$"
  assert_line --regexp "^ +8  wiredtiger +to run$"
  assert_line --regexp "^estimate: 8 run\(s\) x 10s measured = 1m20s, plus per run the stack's up and down and the preload of 1000000 documents"
  [[ $(grep -n '^estimate: ' <<<"$output" | cut -d: -f1) -lt $(grep -n '^== run 1 ' <<<"$output" | cut -d: -f1) ]] || fail "estimate after the first run: $output"
  local want="wiredtiger:1 down:wiredtiger inmemory:2 down:inmemory inmemory:3 down:inmemory wiredtiger:4 down:wiredtiger"
  want+=" wiredtiger:5 down:wiredtiger inmemory:6 down:inmemory inmemory:7 down:inmemory wiredtiger:8 down:wiredtiger"
  [[ $(run_sequence) == "$want" ]] || fail "order: $(run_sequence)"
  # every stack up before its run (up -d between each down and the next run)
  [[ $(grep -c ' up -d' "$STUB_DOCKER_LOG") == 8 ]] || fail "8 up -d expected: $(calls)"
  # the loader is told the comparison, its side and position, one run each (--repeat 1)
  assert_called "* -p lab-inmemory * run --rm * --repeat 1 --comparison $id:inmemory:3 *"
  # state: the order and every run's folder, in a git-ignored place under results/
  run cat "$LAB/results/.comparisons/$id/runs.tsv"
  [[ ${#lines[@]} == 8 ]] || fail "8 runs recorded: $output"
  assert_line "$(printf '3\tinmemory\tcomplete\t0\tresults/experiment2/inmemory/20260103T000000Z')"
  [[ $(stat -c %a "$LAB/results/.comparisons/$id/args") == 600 ]] || fail "args readable by others"
}

@test "bash performs what loader/src/compare decides: a changed plan.js or state.js changes the plan compare runs" {
  # a copy of the loader whose decisions this test changes (the repository's stays as it is)
  rm "$LAB/loader"
  mkdir "$LAB/loader"
  cp -R "$REPO/loader/bin" "$REPO/loader/src" "$REPO/loader/package.json" "$LAB/loader/"
  ln -s "$REPO/loader/node_modules" "$LAB/loader/node_modules"
  [[ -e $LAB/common ]] || ln -s "$REPO/common" "$LAB/common" # the loader's ../../common
  # every side's runs one after another (the order the interleaving exists to avoid)
  printf '%s\n' "'use strict';" \
    'const planOrder = (repeat, sides) => sides.flatMap((side) => Array(repeat).fill(side))' \
    '  .map((side, i) => ({ position: i + 1, side }));' \
    "module.exports = { planOrder, planTsv: require('./plan-tsv') };" >"$LAB/loader/src/compare/plan.js"
  printf '%s\n' "'use strict';" \
    "module.exports = (plan) => plan.map(({ position, side }) => position + '\\t' + side + '\\n').join('');" \
    >"$LAB/loader/src/compare/plan-tsv.js"
  run "$LAB/run.sh" compare experiment2 --engines wiredtiger,inmemory --repeat 2 --dry-run
  assert_success
  local want="run 1: wiredtiger run 2: wiredtiger run 3: inmemory run 4: inmemory"
  [[ $(grep -E '^run [0-9]+: ' <<<"$output" | paste -sd' ' -) == "$want" ]] ||
    fail "the plan is not plan.js's: $output"
  # a state.js that calls every position done: the dry run runs none of them
  sed -i "s/filter((r) => r\[2\] === 'complete')/filter(() => true)/" "$LAB/loader/src/compare/state.js"
  local state=$LAB/results/.comparisons/cmp-20260101T000000Z-abcd
  mkdir -p "$state"
  printf '1\twiredtiger\n2\tinmemory\n' >"$state/plan.tsv"
  printf '1\twiredtiger\tincomplete\t1\t\n2\tinmemory\tincomplete\t1\t\n' >"$state/runs.tsv"
  printf '%s\0' experiment2 --engines wiredtiger,inmemory --repeat 1 >"$state/args"
  run "$LAB/run.sh" compare --resume cmp-20260101T000000Z-abcd --dry-run
  assert_success
  assert_line --regexp "^ +2  inmemory +done$"
  ! grep -qE '^run [0-9]+: ' <<<"$output" || fail "a position state.js calls done was run: $output"
}

@test "without node on the host: one line saying compare needs it, exit 1, nothing started" {
  # every command of this host but node (and the stub docker first, as in every test here)
  local bin=$BATS_TEST_TMPDIR/no-node-bin f
  mkdir -p "$bin"
  for f in /usr/local/bin/* /usr/bin/* /bin/*; do
    [[ ${f##*/} == node || -e $bin/${f##*/} ]] || ln -s "$f" "$bin/${f##*/}"
  done
  PATH=${PATH%%:*}:$bin run "$LAB/run.sh" compare experiment2 --engines wiredtiger,inmemory --dry-run
  assert_failure 1
  assert_output "error: node is not installed: compare keeps its plan and state with Node.js >= 20.19 (loader/bin/lab-compare.js)"
  nothing_started
}

@test "a run that wrote no folder: its runs.tsv line has the folder empty, the comparison goes on, exit 1" {
  rule "compose * run --rm * --comparison *:inmemory:2 *" 1 ""
  position_rules
  run timeout 120 "$LAB/run.sh" compare experiment2 --engines wiredtiger,inmemory --repeat 2 --clients 1 --duration 5s --no-monitoring </dev/null
  assert_failure 1
  local id
  id=$(comparison_id)
  assert_output --partial "run 2 (inmemory) did not complete (exit 1): kept and marked; the comparison goes on"
  run cat "$LAB/results/.comparisons/$id/runs.tsv"
  [[ $output == "$(printf '%s\t%s\t%s\t%s\t%s\n' 1 wiredtiger complete 0 results/experiment2/wiredtiger/20260101T000000Z \
    2 inmemory incomplete 1 '' 3 inmemory complete 0 results/experiment2/inmemory/20260103T000000Z \
    4 wiredtiger complete 0 results/experiment2/wiredtiger/20260104T000000Z)" ]] || fail "runs.tsv: $output"
}

@test "interrupted at run 3: runs 1-2 kept, the stack brought down; --resume runs only 3..8, with the stored flags" {
  position_rules 3 130
  run timeout 120 "$LAB/run.sh" compare experiment2 --engines wiredtiger,inmemory --clients 1 --duration 5s --no-monitoring </dev/null
  assert_failure 130
  local id
  id=$(comparison_id)
  assert_output --partial "resume with: ./run.sh compare --resume $id"
  [[ $(run_sequence) == "wiredtiger:1 down:wiredtiger inmemory:2 down:inmemory inmemory:3 down:inmemory" ]] || fail "order: $(run_sequence)"
  run cut -f1,3 "$LAB/results/.comparisons/$id/runs.tsv"
  [[ $output == "$(printf '1\tcomplete\n2\tcomplete\n3\tinterrupted')" ]] || fail "state: $output"
  # the resumed comparison: the stored arguments, only the missing positions
  : >"$STUB_DOCKER_LOG"
  : >"$STUB_DOCKER_RULES"
  rule "compose * ps -a --format {{.Service}}|{{.State}}|{{.Health}}|{{.ExitCode}} init" 0 "init|exited||0"
  rule "compose * config --volumes" 0 'shard01-a-data\nkeyfile'
  position_rules
  run timeout 120 "$LAB/run.sh" compare --resume "$id" </dev/null
  assert_success
  assert_line --regexp "^ +1  wiredtiger +done$"
  assert_line --regexp "^ +3  inmemory +to run$"
  assert_line --regexp "^estimate: 6 run\(s\) "
  local want="inmemory:3 down:inmemory wiredtiger:4 down:wiredtiger wiredtiger:5 down:wiredtiger inmemory:6 down:inmemory"
  want+=" inmemory:7 down:inmemory wiredtiger:8 down:wiredtiger"
  [[ $(run_sequence) == "$want" ]] || fail "resumed order: $(run_sequence)"
  assert_called "* run --rm * --clients 1 --duration 5s --repeat 1 --comparison $id:inmemory:3 *"
  refute_called "* -f compose/monitoring.yml *"
  # runs 1 and 2 are in the report's list once; 3 twice (the interrupted folder is kept, marked)
  assert_output --partial "./run.sh report results/experiment2/wiredtiger/20260101T000000Z results/experiment2/inmemory/20260102T000000Z results/experiment2/inmemory/20260103T000000Z results/experiment2/inmemory/20260103T000000Z"
}

@test "--dry-run: the whole plan and every run's commands, URIs masked; nothing started, no state" {
  # engines that keep their data: inmemory's down would ask Compose for its volumes (a probe)
  lab compare experiment2 --engines wiredtiger,percona-wt --repeat 2 --clients 1 --dry-run
  assert_success
  local id
  id=$(comparison_id)
  assert_line --regexp "^ +4  wiredtiger +to run$"
  assert_line "run 2: percona-wt"
  assert_output --regexp "\+ .* -p lab-percona-wt .* run --rm .* --repeat 1 --comparison $id:percona-wt:3 "
  assert_output --regexp "\+ .* -p lab-wiredtiger .* down --remove-orphans"
  [[ $(grep -c '^run [0-9]: ' <<<"$output") == 4 ]] || fail "4 runs expected: $output"
  nothing_started
  [[ ! -e $LAB/results ]] || fail "state written by a dry run"
  refute_output --partial "resume"
  # inmemory's down removes its volumes: a dry run reads their names from the compose files, it
  # does not ask docker compose config
  lab compare experiment2 --engines wiredtiger,inmemory --repeat 2 --clients 1 --dry-run
  assert_success
  assert_output --regexp "\+ docker volume rm .*lab-inmemory_shard01-a-data"
  refute_output --partial "resume"
  nothing_started
  lab down --engine inmemory --dry-run
  assert_success
  assert_output --regexp "\+ docker volume rm lab-inmemory_cfg1-data .*lab-inmemory_shard01-c-data"
  nothing_started
  lab compare experiment2 --uri a=mongodb://u:s3cret@h1:27017/ --uri b=mongodb://h2:27017/ --repeat 2 --dry-run
  assert_success
  refute_output --partial "s3cret"
  assert_output --partial "mongodb://u:***@h1:27017/"
  assert_output --partial "nothing brought up or down"
  assert_output --regexp "LAB_LOADER_URI=mongodb://h2:27017/ [^ ]+/lab-loader experiment2 --engine b .*--comparison cmp-[^:]+:b:2"
  nothing_started
}

@test "--results-dir: a relative one is the user's directory's; compare keeps its runs, state and report there" {
  start_test_server
  ln -s "$REPO/report" "$LAB/report"
  local here=$BATS_TEST_TMPDIR/elsewhere
  mkdir -p "$here"
  cd "$here"
  run "$LAB/run.sh" experiment1 --uri "$SERVER_URI" --engine one --results-dir out --docs 200 --metrics-port 0 </dev/null
  assert_success
  assert_line --regexp "^results: $here/out/experiment1/one/[0-9]{8}T[0-9]{6}Z$"
  [[ -f $(sed -n 's/^results: //p' <<<"$output")/summary.json ]] || fail "the results line names no run"
  run "$LAB/run.sh" compare experiment1 --uri "a=$SERVER_URI" --uri "b=$SERVER_URI" --repeat 1 --results-dir out --docs 200 --metrics-port 0 </dev/null
  assert_success
  local id
  id=$(comparison_id)
  assert_line "state: $here/out/.comparisons/$id/  (resume: ./run.sh compare --resume $id --results-dir $here/out)"
  [[ $(cut -f5 "$here/out/.comparisons/$id/runs.tsv" | grep -c "^$here/out/experiment1/[ab]/") == 2 ]] ||
    fail "runs not under out/: $(cat "$here/out/.comparisons/$id/runs.tsv")"
  compgen -G "$here/out/report/*/index.html" >/dev/null || fail "no closing report under out/report/: $output"
  [[ ! -e $LAB/results ]] || fail "written into the checkout's results/: $(find "$LAB/results" | head -5)"
  # stored absolute: --resume finds it from anywhere with its --results-dir, and says nothing is left
  cd /
  run "$LAB/run.sh" compare --resume "$id" --results-dir "$here/out" --dry-run </dev/null
  assert_success
  assert_line --regexp "^ +2  b +done "
  # the folder moved: its runs are recorded by their paths, so a resume is refused in one line,
  # nothing written at the old path
  mv "$here/out" "$here/moved"
  run "$LAB/run.sh" compare --resume "$id" --results-dir "$here/moved" </dev/null
  assert_failure 2
  assert_output --partial "the comparison was made with --results-dir $here/out, and its state is now in $here/moved: a moved results folder cannot be resumed"
  [[ ${#lines[@]} -le 2 && ! -e $here/out ]] || fail "more than a line, or the old folder written: $output"
  mv "$here/moved" "$here/out"
  # the stack's loader writes into the checkout: --results-dir is refused there
  lab compare experiment2 --engines wiredtiger,inmemory --results-dir out
  assert_failure 2
  lab experiment2 --results-dir out
  assert_failure 2
  assert_output --partial "--results-dir goes with --uri"
}

@test "what a new user types: compare --help is compare's, --resume without an ID lists the resumable, an empty value is said" {
  lab compare --help
  assert_success
  assert_line --index 0 --partial "Usage: ./run.sh compare EXPERIMENT"
  [[ ${#lines[@]} -lt 20 ]] || fail "compare --help printed the whole help (${#lines[@]} lines)"
  refute_output --partial "Faults:"
  # one comparison with a position left, one complete
  local s=$LAB/results/.comparisons
  mkdir -p "$s/cmp-20260101T000000Z-abcd" "$s/cmp-20260102T000000Z-0123"
  printf '1\twiredtiger\n2\tinmemory\n' | tee "$s/cmp-20260101T000000Z-abcd/plan.tsv" >"$s/cmp-20260102T000000Z-0123/plan.tsv"
  printf '1\twiredtiger\tcomplete\t0\tresults/x\n' >"$s/cmp-20260101T000000Z-abcd/runs.tsv"
  printf '1\twiredtiger\tcomplete\t0\tresults/x\n2\tinmemory\tcomplete\t0\tresults/y\n' >"$s/cmp-20260102T000000Z-0123/runs.tsv"
  lab compare --resume
  assert_failure 2
  assert_line --index 0 "error: --resume needs the comparison's ID (printed when it started): resumable here: cmp-20260101T000000Z-abcd"
  local flag
  for flag in --duration --clients --server-record; do
    lab experiment2 "$flag" ''
    assert_failure 2
    assert_line --index 0 "error: $flag: the value is empty (got ''): give it a value (./run.sh help lists each flag's)"
    lab compare experiment2 --engines wiredtiger,inmemory "$flag" ''
    assert_failure 2
    assert_line --index 0 "error: $flag: the value is empty (got ''): give it a value (./run.sh help lists each flag's)"
  done
  lab experiment2 --duration=
  assert_line --index 0 --partial "error: --duration: the value is empty"
}

# hang_up_after TEXT ARGS...: ./run.sh ARGS as a job of its own (set -m: its process group, as a
# terminal's shell starts it), SIGHUP to that whole group once TEXT is in its output (what a
# closing terminal does); STATUS and OUTPUT_FILE after it ends.
hang_up_after() {
  local text=$1 i
  shift
  # a file of its own per call: with one name for both, the second call's first look could read
  # the first call's TEXT before the new job's shell had truncated the file (a busy host, CI), and
  # the job was never hung up
  OUTPUT_FILE=$(mktemp "$BATS_TEST_TMPDIR/hup.XXXXXX")
  set -m
  "$LAB/run.sh" "$@" </dev/null >"$OUTPUT_FILE" 2>&1 &
  local pid=$!
  set +m
  # up to 120 s: on a host busy with the other lane, compare's preflight (a loader check per side)
  # printed nothing in 30 s once (a fresh-clone run, 16:40); the hang-up, not the start, is tested
  for ((i = 0; i < 1200; i++)); do grep -q -- "$text" "$OUTPUT_FILE" && break; sleep 0.1; done
  if ! grep -q -- "$text" "$OUTPUT_FILE"; then
    kill -KILL -- "-$pid" 2>/dev/null || true # not left running into the next tests
    fail "never printed '$text': $(cat "$OUTPUT_FILE")"
  fi
  kill -HUP -- "-$pid"
  STATUS=0
  wait "$pid" || STATUS=$?
}

@test "SIGHUP (the terminal closed) during an experiment and a compare run: the loader stopped, said, the run marked; --resume redoes it" {
  start_test_server
  hang_up_after "): started (" experiment2 --uri "$SERVER_URI" --engine hup --preload-docs 100 --clients 1 --rate 50 --duration 60s --metrics-port 0
  run cat "$OUTPUT_FILE"
  [[ $STATUS == 129 ]] || fail "experiment: exit $STATUS, want 129: $output"
  assert_output --partial "hang-up (SIGHUP): the loader was stopped"
  local dir
  dir=$(sed -n 's/^results: //p' <<<"$output")
  grep -q '"complete": false' "$LAB/$dir/summary.json" || fail "the hung-up run is not marked incomplete"

  hang_up_after "): started (" compare experiment2 --uri "a=$SERVER_URI" --uri "b=$SERVER_URI" --repeat 1 --preload-docs 100 --clients 1 --rate 50 --duration 60s --metrics-port 0
  run cat "$OUTPUT_FILE"
  [[ $STATUS == 129 ]] || fail "compare: exit $STATUS, want 129: $output"
  local id
  id=$(comparison_id)
  assert_output --partial "resume with: ./run.sh compare --resume $id"
  run cut -f1-4 "$LAB/results/.comparisons/$id/runs.tsv"
  [[ $output == "$(printf '1\ta\tinterrupted\t129')" ]] || fail "runs.tsv: $output"
  # no loader of this comparison left running (untrapped, the hang-up ended run.sh and not it)
  sleep 1
  ! pgrep -f -- "--comparison $id" >/dev/null || fail "a loader still runs: $(pgrep -af -- "--comparison $id")"
  lab compare --resume "$id" --dry-run
  assert_line --regexp "^ +1  a +to run "
}

@test "a closed output (| head) ends no comparison: every run made and recorded, one line on stderr" {
  start_test_server
  local err=$BATS_TEST_TMPDIR/err
  run bash -c "'$LAB/run.sh' compare experiment1 --uri 'a=$SERVER_URI' --uri 'b=$SERVER_URI' --repeat 2 --docs 300 --metrics-port 0 </dev/null 2>'$err' | head -12; echo \"exit \${PIPESTATUS[0]}\""
  assert_line "exit 0"
  local id
  id=$(comparison_id)
  [[ $(cut -f3 "$LAB/results/.comparisons/$id/runs.tsv" | grep -c '^complete$') == 4 ]] ||
    fail "not every run recorded complete: $(cat "$LAB/results/.comparisons/$id/runs.tsv"); stderr: $(cat "$err")"
  grep -q "the output was closed (e.g. | head): the comparison goes on" "$err" || fail "not said: $(cat "$err")"
  ! grep -qi "broken pipe\|write error" "$err" || fail "write errors: $(cat "$err")"
}

@test "an output closed during the plan (| head -2) or between a run's lines (| head -9): every position run, complete, with its folder" {
  start_test_server
  local n err id line
  for n in 2 9; do
    err=$BATS_TEST_TMPDIR/err-$n
    run bash -c "'$LAB/run.sh' compare experiment1 --uri 'a=$SERVER_URI' --uri 'b=$SERVER_URI' --repeat 1 --docs 300 --metrics-port 0 </dev/null 2>'$err' | head -$n; echo \"exit \${PIPESTATUS[0]}\""
    assert_line "exit 0"
    id=$(sed -nE 's/^comparison (cmp-[0-9T]+Z-[0-9a-f]{4}): .*/\1/p' "$err" <<<"$output" | head -1)
    [[ -n $id ]] || id=$(find "$LAB/results/.comparisons" -mindepth 1 -maxdepth 1 -name 'cmp-*' -printf '%f\n' | sort | tail -1)
    [[ $(wc -l <"$LAB/results/.comparisons/$id/runs.tsv") == 2 ]] || fail "head -$n: not both positions recorded: $(cat "$LAB/results/.comparisons/$id/runs.tsv"); stderr: $(cat "$err")"
    while IFS=$'\t' read -r -a line; do
      [[ ${line[2]} == complete && ${line[3]} == 0 && -n ${line[4]:-} && -s $LAB/${line[4]}/summary.json ]] ||
        fail "head -$n: position ${line[0]} recorded as '${line[*]}' (want complete, 0 and its folder)"
    done <"$LAB/results/.comparisons/$id/runs.tsv"
    rm -rf "$LAB/results/.comparisons/$id"
  done
}

# interrupt_closing_report SIGNAL: a comparison whose closing report is interrupted by SIGNAL, sent
# to the whole foreground job as a terminal does; OUTPUT_FILE has what it printed, RC its exit.
interrupt_closing_report() {
  position_rules
  # a report that takes its time (the real one is report/test's): it says it started and waits
  mkdir -p "$LAB/report/bin" "$LAB/report/node_modules"
  printf '%s\n' "console.log('report: started'); setTimeout(() => {}, 60000);" >"$LAB/report/bin/lab-report.js"
  OUTPUT_FILE=$BATS_TEST_TMPDIR/int.out
  set -m
  "$LAB/run.sh" compare experiment2 --engines wiredtiger,inmemory --repeat 1 --clients 1 --duration 5s --no-monitoring </dev/null >"$OUTPUT_FILE" 2>&1 &
  local pid=$! i
  set +m
  for ((i = 0; i < 300; i++)); do grep -q "report: started" "$OUTPUT_FILE" && break; sleep 0.1; done
  kill "-$1" -- "-$pid"
  RC=0
  wait "$pid" || RC=$?
}

@test "Ctrl-C during the closing report: exit 130 and the exact command that makes the report" {
  interrupt_closing_report INT
  run cat "$OUTPUT_FILE"
  [[ $RC == 130 ]] || fail "exit $RC, want 130: $output"
  assert_line "interrupted during the report: every run is kept; get the report with: ./run.sh report results/experiment2/wiredtiger/20260101T000000Z results/experiment2/inmemory/20260102T000000Z"
}

@test "a hang-up during the closing report: exit 129 and the exact command that makes the report" {
  interrupt_closing_report HUP
  run cat "$OUTPUT_FILE"
  [[ $RC == 129 ]] || fail "exit $RC, want 129: $output"
  assert_line "interrupted during the report: every run is kept; get the report with: ./run.sh report results/experiment2/wiredtiger/20260101T000000Z results/experiment2/inmemory/20260102T000000Z"
}

@test "the plan's rows fit 120 columns with a long --uri: its start and end kept around '...'" {
  local long
  long="mongodb://root:s3cret@$(printf 'host%d.example.com:27017,' {1..12})last.example.com:27017/?replicaSet=rs0&tls=true"
  LAB_WRAP=120 run "$LAB/run.sh" compare experiment2 --uri "a=$long" --uri b=mongodb://h/ --repeat 2 --dry-run </dev/null
  assert_success
  local l
  for l in "${lines[@]}"; do ((${#l} <= 120)) || fail "a line of ${#l} columns: $l"; done
  assert_line --regexp "^ +1  a +to run +mongodb://root:\*\*\*@host1\.example\.com:27017,.*\.\.\..*replicaSet=rs0&tls=true$"
  assert_line --regexp "^ +2  b +to run +mongodb://h/$"
}

@test "the printed resume command is shell-quoted: pasted as printed, it resumes a comparison whose --results-dir has a space" {
  local dir="$BATS_TEST_TMPDIR/my runs/r" cmd
  lab compare experiment1 --uri a=mongodb://127.0.0.1:1/ --uri b=mongodb://127.0.0.1:1/ --repeat 1 --docs 100 --server-selection-timeout 1s --metrics-port 0 --results-dir "$dir"
  assert_failure 1
  cmd=$(sed -nE 's/^state: .*\(resume: (.*)\)$/\1/p' <<<"$output")
  [[ -n $cmd ]] || fail "no resume command in: $output"
  run bash -c "cd '$LAB' && $cmd --dry-run </dev/null"
  assert_success
  assert_line --regexp "^ +1  a +to run "
}

# background_compare OUT ARGS...: ./run.sh compare ARGS in a process group of its own, its output
# in OUT, until its first run's step started; BG_PID is its pid.
background_compare() {
  local out=$1 i
  shift
  set -m
  # env --default-signal: a bats started with SIGINT ignored passes that on (no shell can undo it),
  # and the tests stop it with SIGINT
  env --default-signal=INT "$LAB/run.sh" compare "$@" </dev/null >"$out" 2>&1 &
  BG_PID=$!
  set +m
  for ((i = 0; i < 300; i++)); do grep -q "step 1/1 (1 client" "$out" && return 0; sleep 0.1; done
  fail "the comparison did not start: $(cat "$out")"
}

# stop_compare OUT WITHIN_S: a SIGTERM to the comparison BG_PID alone (kill PID, not the group);
# it must exit 143 within WITHIN_S seconds of its run's 60 s step; its output is then $output.
stop_compare() {
  local out=$1 within=$2 rc=0 t0=$SECONDS
  kill -TERM "$BG_PID"
  wait "$BG_PID" || rc=$?
  run cat "$out"
  [[ $rc == 143 ]] || fail "exit $rc, want 143: $output"
  ((SECONDS - t0 < within)) || fail "the 60 s step ran on after the stop ($((SECONDS - t0)) s): $output"
}

# first_run_interrupted: the stopped comparison's runs.tsv (its id set in the caller's `id`) holds
# run 1 only, interrupted by the SIGTERM.
first_run_interrupted() {
  id=$(comparison_id)
  run cut -f1-4 "$LAB/results/.comparisons/$id/runs.tsv"
  [[ $output == "$(printf '1\ta\tinterrupted\t143')" ]] || fail "runs.tsv: $output"
}

# A SIGTERM to run.sh's process alone (kill PID, not the group; timeout(1) sends it so): bash runs
# a trap only once a foreground child has ended, so the run once went on to its end, however long.
# compare now waits for its run in the background and passes the signal on: the run's loader
# stops as on Ctrl-C, keeps what it measured, and no next run starts.
@test "SIGTERM to run.sh alone during a run: the run's loader stops and keeps its step, marked interrupted; no next run; exit 143; resume runs both" {
  start_test_server
  local out=$BATS_TEST_TMPDIR/term.out id
  background_compare "$out" experiment2 --uri "a=$SERVER_URI" --uri "b=$SERVER_URI" --repeat 1 --preload-docs 100 --clients 1 --rate 50 --duration 60s --metrics-port 0
  stop_compare "$out" 45
  assert_output --partial "interrupted at run 1"
  refute_output --partial "== run 2 of"
  first_run_interrupted
  local dir
  dir=$(cut -f5 "$LAB/results/.comparisons/$id/runs.tsv")
  [[ -f $dir/summary.json ]] || dir=$LAB/$dir
  node -e 'const s = require(process.argv[1]); if (s.complete !== false || !/^interrupted/.test(s.reason) || s.steps.length !== 1) { console.error(JSON.stringify({ complete: s.complete, reason: s.reason, steps: s.steps.length })); process.exit(1); }' "$dir/summary.json" ||
    fail "the run's folder does not keep its step, marked interrupted: $dir"
  lab compare --resume "$id" --dry-run
  assert_line --regexp "^ +1  a +to run"
  assert_line --regexp "^ +2  b +to run"
}

# stopped_while SHIM_NAME PATTERN: ./run.sh compare with SHIM_NAME on PATH as a wrapper that, called
# with PATTERN in its arguments, notes it and takes 2 s; a SIGTERM to run.sh alone once it is in
# there. The run must end interrupted (143) within seconds of its 60 s step, the comparison 143.
stopped_while() {
  local name=$1 pattern=$2 bin=$BATS_TEST_TMPDIR/shim out=$BATS_TEST_TMPDIR/stop.out i real id
  real=$(command -v "$name")
  mkdir -p "$bin"
  printf '#!/bin/sh\ncase "$*" in *%s*) touch "%s"; sleep 2;; esac\nexec %s "$@"\n' "$pattern" "$BATS_TEST_TMPDIR/in-shim" "$real" >"$bin/$name"
  chmod +x "$bin/$name"
  set -m
  PATH=$bin:$PATH "$LAB/run.sh" compare experiment2 --uri "a=$SERVER_URI" --uri "b=$SERVER_URI" --repeat 1 --preload-docs 100 \
    --clients 1 --rate 50 --duration 60s --metrics-port 0 </dev/null >"$out" 2>&1 &
  BG_PID=$!
  set +m
  for ((i = 0; i < 600; i++)); do [[ -e $BATS_TEST_TMPDIR/in-shim ]] && grep -q '== run 1 of' "$out" && break; sleep 0.05; done
  [[ -e $BATS_TEST_TMPDIR/in-shim ]] || fail "the run never called $name with $pattern: $(cat "$out")"
  stop_compare "$out" 30
  refute_output --partial "did not complete"
  refute_output --partial "unbound variable"
  first_run_interrupted
}

# A stop while the run's loader is started: its process group is read by ps, and the signal, passed
# on to the whole run (ps too), once went nowhere: the run went on to its end.
@test "SIGTERM to run.sh compare alone while the run's loader is being started: the loader still stops, the run is interrupted" {
  start_test_server
  stopped_while ps pgid=
}

# A stop while the run is being set up, before any loader: its exit code is the signal's (143), not
# what its EXIT trap found in $? (0: 'complete', resume skipped it), nor a failure of that trap in a
# function with a local `out` of its own ('incomplete', and the comparison went on).
@test "a stop while a comparison's run is being set up records it interrupted, never complete or incomplete" {
  start_test_server
  stopped_while cat lab-compare-checks
}

@test "a second comparison on the same results folder refuses to start while the first runs; it starts once the first is gone" {
  start_test_server
  local out=$BATS_TEST_TMPDIR/first.out rc=0
  background_compare "$out" experiment2 --uri "a=$SERVER_URI" --uri "b=$SERVER_URI" --repeat 1 --preload-docs 100 --clients 1 --rate 50 --duration 60s --metrics-port 0
  # the refused comparison's temporary files (its new plan among them) are gone with it
  mkdir "$BATS_TEST_TMPDIR/second-tmp"
  TMPDIR=$BATS_TEST_TMPDIR/second-tmp lab compare experiment1 --uri "a=$SERVER_URI" --uri "b=$SERVER_URI" --repeat 1 --docs 100 --metrics-port 0
  [ -z "$(ls -A "$BATS_TEST_TMPDIR/second-tmp")" ] || fail "left behind: $(ls -A "$BATS_TEST_TMPDIR/second-tmp")"
  kill -INT -- "-$BG_PID"
  wait "$BG_PID" || rc=$?
  assert_failure 1
  assert_output --regexp "another comparison \(cmp-[0-9T]+Z-[0-9a-f]{4}, pid $BG_PID\) is running on this results folder"
  refute_output --partial "== run 1"
  [[ $rc == 130 ]] || fail "the first ended $rc: $(cat "$out")"
  lab compare experiment1 --uri "a=$SERVER_URI" --uri "b=$SERVER_URI" --repeat 1 --docs 100 --metrics-port 0
  assert_success
}

@test "a comparison's run that another loader overlapped on the same server is marked not a sample; resume runs it again" {
  start_test_server
  local out=$BATS_TEST_TMPDIR/cmp.out rc=0 id other=$BATS_TEST_TMPDIR/other
  # both paced (--rate): the overlap is in time, not in load; unpaced, the two loaders and the
  # server kept both cores busy for the 20 s
  background_compare "$out" experiment2 --uri "a=$SERVER_URI" --uri "b=$SERVER_URI" --repeat 1 --preload-docs 100 --clients 1 --rate 20 --duration 20s --metrics-port 0
  # another loader against the same server and collection, from another results folder; the
  # comparison's step is long enough that this one overlaps it even when node starts slowly on a
  # busy host (with 8 s it missed it under load)
  local t0=$SECONDS
  "$LAB/run.sh" experiment2 --uri "$SERVER_URI" --preload-docs 100 --clients 1 --rate 20 --duration 2s --metrics-port 0 \
    --results-dir "$other" </dev/null >"$BATS_TEST_TMPDIR/other.out" 2>&1 || true
  # The premise, measured: the second loader found the comparison's loader registered when it
  # started (it warns of it, loader/src/run/runner.js warnOtherRuns). A host too busy to start it
  # within the 20 s step has nothing to show here: skip with the figure rather than fail.
  # (its first line: the loader wraps the warning)
  if ! grep -q "^warning: another loader (pid [0-9]*, started " "$BATS_TEST_TMPDIR/other.out"; then
    kill -INT -- "-$BG_PID" 2>/dev/null || true
    wait "$BG_PID" || true
    local why="the second loader ended $((SECONDS - t0)) s after the comparison's 20 s step began"
    skip "$why and never saw it run: no overlap to check (a busy host)"
  fi
  wait "$BG_PID" || rc=$?
  run cat "$out"
  [[ $rc == 1 ]] || fail "exit $rc, want 1 (a run not a sample): $output"
  assert_output --partial "another loader ran against the same server and collection during this run"
  id=$(comparison_id)
  run cut -f1,3 "$LAB/results/.comparisons/$id/runs.tsv"
  assert_line "$(printf '1\tincomplete')"
  local dir
  dir=$(awk -F'\t' '$1 == 1 { print $5 }' "$LAB/results/.comparisons/$id/runs.tsv")
  grep -q '^  "complete": false,$' "$LAB/$dir/summary.json" || fail "position 1's summary not marked"
  lab compare --resume "$id" --dry-run
  assert_line --regexp "^ +1  a +to run "
}

@test "compare preflights before position 1: Compose missing or a full results disk is said once, nothing run, no state" {
  rule "compose version*" 1 "docker: 'compose' is not a docker command."
  lab compare experiment2 --engines wiredtiger,inmemory --repeat 1 --clients 1 --duration 5s --no-monitoring
  assert_failure 1
  [[ $(grep -c "Docker Compose v2 is missing" <<<"$output") == 1 ]] || fail "said $(grep -c "Docker Compose v2 is missing" <<<"$output") times: $output"
  refute_output --partial "== run"
  refute_output --partial "down failed"
  [[ -z $(find "$LAB/results/.comparisons" -name runs.tsv 2>/dev/null) ]] || fail "a run was recorded"

  # a results disk with no room: a 64 KiB tmpfs (the tests run as root, as the docker suite does)
  local full=$BATS_TEST_TMPDIR/full
  mkdir -p "$full"
  mount -t tmpfs -o size=64k tmpfs "$full" || fail "cannot mount a small tmpfs to fill (the tests run as root)"
  start_test_server
  lab compare experiment1 --uri "a=$SERVER_URI" --uri "b=$SERVER_URI" --repeat 1 --docs 100 --metrics-port 0 --results-dir "$full"
  umount "$full"
  assert_failure 1
  assert_output --partial "its disk is full or not writable (nothing was run)"
  [[ $(grep -c "disk is full" <<<"$output") == 1 ]] || fail "said more than once: $output"
  refute_output --partial "== run"
}

@test "compare stops once every side's last run failed before measuring anything; said once, with the resume command" {
  lab compare experiment1 --uri a=mongodb://127.0.0.1:1/ --uri b=mongodb://127.0.0.1:1/ --repeat 3 --docs 100 --server-selection-timeout 1s --metrics-port 0
  assert_failure 1
  assert_output --partial "every side's last run failed before it measured anything (no results folder): the rest would fail the same way, so the comparison stops at run 2"
  refute_output --partial "== run 3"
  local id
  id=$(comparison_id)
  [[ $(wc -l <"$LAB/results/.comparisons/$id/runs.tsv") == 2 ]] || fail "runs: $(cat "$LAB/results/.comparisons/$id/runs.tsv")"
}

# node_counting_checks: a directory for PATH whose node notes each loader check it starts in
# $BATS_TEST_TMPDIR/checks, then runs the real node.
node_counting_checks() {
  local bin=$BATS_TEST_TMPDIR/bin
  mkdir -p "$bin"
  printf '#!/bin/sh\ncase " $* " in *" check "*) echo check >>"%s";; esac\nexec %s "$@"\n' "$BATS_TEST_TMPDIR/checks" "$(command -v node)" >"$bin/node"
  chmod +x "$bin/node"
  echo "$bin"
}

@test "a dry run asks the loader to check each side once, not once per position (--repeat 100 took 8 minutes)" {
  PATH=$(node_counting_checks):$PATH lab compare experiment2 --uri a=mongodb://h1:27017/ --uri b=mongodb://h2:27017/ --repeat 10 --dry-run
  assert_success
  [[ $(grep -c '^run [0-9]*: ' <<<"$output") == 20 ]] || fail "20 runs expected: $output"
  assert_output --regexp "LAB_LOADER_URI=mongodb://h2:27017/ [^ ]+/lab-loader experiment2 --engine b .*--comparison cmp-[^:]+:b:19"
  [[ $(wc -l <"$BATS_TEST_TMPDIR/checks") == 2 ]] || fail "$(wc -l <"$BATS_TEST_TMPDIR/checks") loader checks for 2 sides"
}
