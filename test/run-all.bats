#!/usr/bin/env bats
# test/run-all.sh (./run.sh test): a skipped test is counted as skipped, never as passed, in each
# suite's line and in the closing "N passed, N failed, N skipped" line, with its reason shown;
# node:test's totals (skipped, todo, cancelled) and bats' "# skip" lines alike.

load lib/bats-tracing # trace_test_lines_only

# printed_order SUITE...: the order in which run-all's $output names those suites' lines
printed_order() {
  local IFS='|'
  grep -E "^($*) " <<<"$output" | cut -d' ' -f1 | paste -sd' '
}

setup() {
  trace_test_lines_only
  REPO=$(cd "$BATS_TEST_DIRNAME/.." && pwd)
  # the lanes each test asks for, not the ones the whole suite was run with (LAB_TEST_LANES=3
  # ./run.sh test failed the two-lane test)
  unset LAB_TEST_LANES
  # run-all.sh keeps its logs in a mktemp folder for the user to read: here, the test's own
  # (each run left one in /tmp)
  export TMPDIR=$BATS_TEST_TMPDIR
  # A copy of the runner with suites of our own (test/suites/*.sh are the real ones).
  W=$BATS_TEST_TMPDIR/lab
  mkdir -p "$W/test/suites" "$W/test/lib"
  cp "$REPO/test/run-all.sh" "$W/test/"
  cp "$REPO/test/lib/tools.sh" "$W/test/lib/"
}

@test "tap_counts: bats' skip directives are skips, not passes (a name must not carry the directive itself)" {
  # shellcheck source=test/run-all.sh
  source "$REPO/test/run-all.sh"
  printf '1..4\nok 1 a\nok 2 b # skip no second core (0.4 idle)\nnot ok 3 c\nok 4 d # SKIP why\n' >"$BATS_TEST_TMPDIR/tap"
  [ "$(tap_counts "$BATS_TEST_TMPDIR/tap")" = "1 1 2" ]
}

@test "tap_counts: node:test totals, skipped and todo apart, cancelled as failed" {
  source "$REPO/test/run-all.sh"
  printf '# tests 7\n# suites 0\n# pass 3\n# fail 1\n# cancelled 1\n# skipped 1\n# todo 1\n# duration_ms 3.2\n' >"$BATS_TEST_TMPDIR/tap"
  [ "$(tap_counts "$BATS_TEST_TMPDIR/tap")" = "3 2 2" ]
  # a suite that ran node --test twice (the report's: most files two at a time, then one alone)
  printf '# pass 1\n# fail 0\n# cancelled 0\n# skipped 1\n# todo 0\n' >>"$BATS_TEST_TMPDIR/tap"
  [ "$(tap_counts "$BATS_TEST_TMPDIR/tap")" = "4 2 3" ]
}

@test "the closing line counts skips apart; a suite of skips only ran something; reasons are shown" {
  cat >"$W/test/suites/10-a.sh" <<'SUITE'
# shellcheck shell=bash
a_suite() { printf '1..3\nok 1 one\nok 2 two # skip premise: 1 core idle of 2 needed\nok 3 three\n'; }
run_suite a a_suite
SUITE
  cat >"$W/test/suites/20-b.sh" <<'SUITE'
# shellcheck shell=bash
b_suite() { printf 'TAP version 13\nok 1 - x # SKIP deviation no-storage-engine (MONGODB_URI)\n1..1\n# tests 1\n# pass 0\n# fail 0\n# cancelled 0\n# skipped 1\n# todo 0\n'; }
run_suite b b_suite
SUITE
  run bash "$W/test/run-all.sh"
  [ "$status" -eq 0 ] || { echo "$output"; false; }
  [ "${lines[-1]}" = "2 passed, 0 failed, 2 skipped" ] || { echo "$output"; false; }
  grep -qE '^a +2 passed, 0 failed, 1 skipped \([0-9]+m[0-9]+s, 0 CPU s\)$' <<<"$output"
  grep -qE '^b +0 passed, 0 failed, 1 skipped \([0-9]+m[0-9]+s, 0 CPU s\)$' <<<"$output"
  grep -qF 'ok 2 two # skip premise: 1 core idle of 2 needed' <<<"$output"
  grep -qF 'ok 1 - x # SKIP deviation no-storage-engine (MONGODB_URI)' <<<"$output"
}

@test "CPU a suite measured beyond its own figure (the Docker suite's containers) is said below its line" {
  cat >"$W/test/suites/10-a.sh" <<'SUITE'
# shellcheck shell=bash
a_suite() { printf "1..1\nok 1 one\n# beyond the suite's CPU: 158 CPU s in containers (cgroup v1 /docker)\n"; }
run_suite a a_suite
SUITE
  run bash "$W/test/run-all.sh"
  [ "$status" -eq 0 ] || { echo "$output"; false; }
  # the line right after the suite's own
  [ "$(grep -A1 -E '^a +1 passed' <<<"$output" | tail -1)" = "  a, beyond its CPU figure: 158 CPU s in containers (cgroup v1 /docker)" ] ||
    { echo "$output"; false; }
}

@test "the suites' temporary files go in a folder of the run's, gone at its end; the logs stay" {
  cat >"$W/test/suites/10-a.sh" <<'SUITE'
# shellcheck shell=bash
a_suite() { local f; f=$(mktemp); echo "kept" >"$f"; echo "# made $f, in a folder of mode $(stat -c %a "$TMPDIR")"; printf '1..1\nok 1 one\n'; }
run_suite a a_suite
SUITE
  run bash "$W/test/run-all.sh"
  [ "$status" -eq 0 ] || { echo "$output"; false; }
  made=$(grep -rhoE 'made /[^ ,]+' "$BATS_TEST_TMPDIR"/lab-test.*/ | head -1 | cut -d' ' -f2)
  [[ $made == "$BATS_TEST_TMPDIR"/lab-test-tmp.*/tmp.* ]] || { echo "made: '$made'"; false; }
  [ ! -e "$made" ]
  [ -z "$(compgen -G "$BATS_TEST_TMPDIR/lab-test-tmp.*")" ]
  # what /tmp is: sticky and open to every user (a report test reads a run folder as another user)
  grep -rqE 'made .*, in a folder of mode 1777$' "$BATS_TEST_TMPDIR"/lab-test.*/
  compgen -G "$BATS_TEST_TMPDIR/lab-test.*/a.log" >/dev/null
}

# A run's time is judged against the budget with the host's speed beside it: the VM's CPU is
# shared at a level it cannot see, and the same work took 1.7 times as long an hour apart.
@test "the suites' whole time and the host's speed before, during and after them, above the closing line" {
  cat >"$W/test/suites/10-a.sh" <<'SUITE'
# shellcheck shell=bash
a_suite() { sleep 1; printf '1..1\nok 1 one\n'; }
run_suite a a_suite
SUITE
  run bash "$W/test/run-all.sh"
  [ "$status" -eq 0 ] || { echo "$output"; false; }
  [ "${lines[-1]}" = "1 passed, 0 failed, 0 skipped" ] || { echo "$output"; false; }
  [[ ${lines[-2]} =~ ^suites:\ 0m([0-9]+)s\ \(meant\ to\ stay\ under\ 15\ min\)\;\ host\ speed\ after\ them:\ the\ same\ workload\ took\ [0-9]+\.[0-9]{3}\ CPU\ s$ ]] ||
    { echo "$output"; false; }
  ((BASH_REMATCH[1] >= 1)) || { echo "the suite's 1 s sleep not counted: $output"; false; }
  grep -qE '^host speed before the suites: a fixed workload took [0-9]+\.[0-9]{3} CPU s \(0\.18-0\.22 on a quiet host\)$' <<<"$output" ||
    { echo "$output"; false; }
  # sampled once a minute from the start: one sample in a run this short
  [[ ${lines[-4]} =~ ^host\ speed\ during\ the\ suites:\ the\ same\ workload,\ once\ a\ minute:\ median\ [0-9]+\.[0-9]{3}\ CPU\ s\ of\ 1\ samples\ \(range\ [0-9.]+-[0-9.]+\)$ ]] ||
    { echo "$output"; false; }
  # how busy the host was, and how much of it this run: parts that add up (each rounded down)
  [[ ${lines[-3]} =~ ^host\ CPUs\ over\ the\ suites:\ ([0-9]+)\ of\ ([0-9]+)\ CPU\ s\ busy\ \(([0-9]+)\ %\)\;\ this\ run\'s\ processes\ ([0-9]+),\ the\ rest\ ([0-9]+)$ ]] ||
    { echo "$output"; false; }
  local busy=${BASH_REMATCH[1]} total=${BASH_REMATCH[2]} ours=${BASH_REMATCH[4]} others=${BASH_REMATCH[5]}
  ((total >= $(nproc) && busy <= total && ours + others <= busy && busy <= ours + others + 1)) || { echo "$output"; false; }
}

@test "host CPUs: /proc/stat's cpu line read as busy (steal in, guest not twice) and total; none here, said so" {
  source "$W/test/run-all.sh"
  # user nice system idle iowait irq softirq steal guest guest_nice
  printf 'cpu  100 10 50 1000 20 5 5 7 3 0\ncpu0 50 5 25 500 10 2 2 3 1 0\n' >"$BATS_TEST_TMPDIR/stat"
  [ "$(cpu_ticks "$BATS_TEST_TMPDIR/stat")" = "177 1197" ]
  [ "$(cpu_ticks "$BATS_TEST_TMPDIR/none")" = "0 0" ]
  [ "$(host_cpu_line 0 0 0 0 0 0 100)" = "host CPUs over the suites: not measured (no /proc/stat here)" ]
  [ "$(host_cpu_line 1000 5000 100 21000 45000 16000 100)" = \
    "host CPUs over the suites: 200 of 400 CPU s busy (50 %); this run's processes 159, the rest 41" ]
}

# The figures the line gives, against the kernel's own for one busy process: the host's busy ticks
# hold at least that process's, this shell's hold them once it has waited for it, and the total
# grows by every CPU's ticks over the wall time. Inequalities: they hold on a busy host too.
@test "host CPUs: a busy child's ticks are in the host's busy count and, once waited for, in this shell's own" {
  source "$W/test/run-all.sh"
  local hz b0 t0 b1 t1 o0 o1 start wall child spent name me=$BASHPID # in $(...), BASHPID is the subshell's
  hz=$(getconf CLK_TCK)
  # a name with spaces and a parenthesis, as /proc/PID/stat's second field may hold: five of them
  # move the fields counted from the line's start by five, to the process's flags
  name="$BATS_TEST_TMPDIR/s) a b c d e"
  cp "$(command -v bash)" "$name"
  read -r b0 t0 < <(cpu_ticks /proc/stat)
  o0=$(tree_ticks "$me")
  start=$EPOCHREALTIME
  "$name" -c 'while :; do :; done' &
  child=$!
  sleep 1
  spent=$(tree_ticks "$child")
  # the kernel's own figure through ps: the same seconds, whole
  (($(ps -o cputimes= -p "$child") - spent / hz <= 1 && spent / hz - $(ps -o cputimes= -p "$child") <= 1)) ||
    { echo "tree_ticks $spent ticks, ps $(ps -o cputimes= -p "$child") s"; kill "$child"; false; }
  kill "$child"
  wait "$child" || true
  read -r b1 t1 < <(cpu_ticks /proc/stat)
  o1=$(tree_ticks "$me")
  wall=$(awk -v a="$start" -v b="$EPOCHREALTIME" 'BEGIN { printf "%d", (b - a) * 1000 }')
  ((spent > 0)) || { echo "the loop used no tick in ${wall} ms"; false; }
  ((b1 - b0 >= spent - $(nproc))) || { echo "host busy $((b1 - b0)) ticks < the loop's $spent"; false; }
  ((o1 - o0 >= spent)) || { echo "this shell's ticks grew $((o1 - o0)), the loop it waited for used $spent"; false; }
  # every CPU's ticks pass, busy or idle: nproc x CLK_TCK a second (within a fifth)
  local want=$(($(nproc) * hz * wall / 1000))
  ((t1 - t0 >= want * 4 / 5 && t1 - t0 <= want * 6 / 5)) || { echo "total $((t1 - t0)) ticks over ${wall} ms, want about $want"; false; }
}

# The sampler is a background job: a SIGTERM to run-all.sh alone (timeout, kill) must not leave it
# sampling for good (it did, before run-all.sh's EXIT trap ended it).
@test "a SIGTERM to run-all.sh alone ends its host speed sampler with it" {
  cat >"$W/test/suites/10-a.sh" <<'SUITE'
# shellcheck shell=bash
a_suite() { sleep 30; printf '1..1\nok 1 one\n'; }
run_suite a a_suite
SUITE
  bash "$W/test/run-all.sh" >"$BATS_TEST_TMPDIR/out" 2>&1 &
  local main sampler='' c i
  # shellcheck disable=SC2031 # the job just started, in this test's own shell
  main=$!
  local -a children=()
  # the sampler: the child of run-all.sh's shell whose own child is its `sleep 60`
  for ((i = 0; i < 100; i++)); do
    mapfile -t children < <(pgrep -P "$main")
    for c in "${children[@]}"; do pgrep -P "$c" -fx 'sleep 60' >/dev/null && sampler=$c; done
    [[ -z $sampler ]] || break
    sleep 0.1
  done
  kill -TERM "$main"
  wait "$main" || true
  for ((i = 0; i < 30; i++)); do kill -0 "$sampler" 2>/dev/null || break; sleep 0.1; done
  local alive=no
  ! kill -0 "$sampler" 2>/dev/null || alive=yes
  # the lane's own processes end as before (its sleep 30): not this test's subject
  for c in "${children[@]}"; do pkill -TERM -P "$c" 2>/dev/null || true; kill -TERM "$c" 2>/dev/null || true; done
  [[ -n $sampler ]] || { echo "no sampler found under run-all.sh ($main): $(cat "$BATS_TEST_TMPDIR/out")"; false; }
  [[ $alive == no ]] || { echo "the sampler ($sampler) outlived run-all.sh"; kill "$sampler"; false; }
}

@test "each suite's line shows the CPU seconds its processes used, not the lane's" {
  # one suite's child burns 2 CPU s (a shell's busy loop until its own user time reaches 2 s,
  # read by `times` in that shell);
  # the other, in the same lane after it, burns none
  cat >"$W/test/suites/10-a.sh" <<'SUITE'
# shellcheck shell=bash
a_suite() {
  bash -c 'f=$(mktemp); while :; do for ((i = 0; i < 20000; i++)); do :; done; times >"$f"; read -r u _ <"$f"; [[ $u == 0m[2-9]* ]] && break; done; rm -f "$f"'
  printf '1..1\nok 1 busy\n'
}
run_suite a a_suite
SUITE
  cat >"$W/test/suites/20-b.sh" <<'SUITE'
# shellcheck shell=bash
b_suite() { printf '1..1\nok 1 idle\n'; }
run_suite b b_suite
SUITE
  LAB_TEST_LANES=1 run bash "$W/test/run-all.sh"
  [ "$status" -eq 0 ] || { echo "$output"; false; }
  grep -qE '^a +1 passed, 0 failed, 0 skipped \(0m[0-9]+s, [2-4] CPU s\)$' <<<"$output" || { echo "$output"; false; }
  grep -qE '^b +1 passed, 0 failed, 0 skipped \(0m[0-9]+s, 0 CPU s\)$' <<<"$output" || { echo "$output"; false; }
}

@test "a failure still fails the run beside skips; a suite that printed nothing is a failure" {
  cat >"$W/test/suites/10-a.sh" <<'SUITE'
# shellcheck shell=bash
a_suite() { printf '1..2\nnot ok 1 one\nok 2 two # skip why\n'; return 1; }
empty_suite() { :; }
run_suite a a_suite
run_suite e empty_suite
SUITE
  run bash "$W/test/run-all.sh"
  [ "$status" -ne 0 ]
  [ "${lines[-1]}" = "0 passed, 2 failed, 1 skipped" ] || { echo "$output"; false; }
  grep -qF 'failed suites: a e' <<<"$output"
}

@test "MONGODB_URI: said once at the start with its hosts only, never its password" {
  cat >"$W/test/suites/10-a.sh" <<'SUITE'
# shellcheck shell=bash
a_suite() { printf '1..1\nok 1 one\n'; }
run_suite a a_suite
SUITE
  MONGODB_URI='mongodb://lab:s3cret@db1.example:27017,db2.example:27017/?replicaSet=rs0' run bash "$W/test/run-all.sh"
  [ "$status" -eq 0 ] || { echo "$output"; false; }
  grep -qF 'MONGODB_URI set (db1.example:27017,db2.example:27017/?replicaSet=rs0): ' <<<"$output"
  if grep -q 's3cret' <<<"$output"; then echo "the password was shown"; false; fi
}

@test "node_tests: a '// runs alone:' file runs after the others, by itself; both runs' totals count; a failure in either fails" {
  LAB_ROOT=$W
  # shellcheck source=test/lib/tools.sh
  source "$W/test/lib/tools.sh"
  local d=$BATS_TEST_TMPDIR/t
  mkdir -p "$d"
  # two ordinary files run together: each sees the other's start; the alone one sees both ends
  # (b ends 0.8 s after a: run in the same batch, c would take a's slot while b still runs)
  for n in a b; do
    cat >"$d/$n.test.js" <<JS
const test = require('node:test');
const fs = require('node:fs');
test('$n', async () => {
  fs.writeFileSync('$d/$n.started', '');
  await new Promise((r) => setTimeout(r, '$n' === 'a' ? 700 : 1500));
  if (!fs.existsSync('$d/' + ('$n' === 'a' ? 'b' : 'a') + '.started')) throw new Error('not run beside the other file');
  fs.writeFileSync('$d/$n.ended', '');
});
JS
  done
  cat >"$d/c.test.js" <<JS
// runs alone: the test below checks it
const test = require('node:test');
const fs = require('node:fs');
test('c', () => { for (const n of ['a', 'b']) if (!fs.existsSync('$d/' + n + '.ended')) throw new Error(n + ' still running'); });
JS
  run node_tests "$d" 2 "$d/a.test.js" "$d/b.test.js" "$d/c.test.js"
  [ "$status" -eq 0 ] || { echo "$output"; false; }
  printf '%s\n' "$output" >"$BATS_TEST_TMPDIR/tap"
  source "$W/test/run-all.sh"
  [ "$(tap_counts "$BATS_TEST_TMPDIR/tap")" = "3 0 0" ] || { echo "$output"; false; }
  # a failure in the alone run fails the whole
  sed -i 's/ended/never/' "$d/c.test.js"
  run node_tests "$d" 2 "$d/a.test.js" "$d/b.test.js" "$d/c.test.js"
  [ "$status" -ne 0 ]
}

@test "node_tests: a file whose process outlives its tests is ended after the bound, named, as a failure; the others' results kept" {
  LAB_ROOT=$W
  # shellcheck source=test/lib/tools.sh
  source "$W/test/lib/tools.sh"
  local d=$BATS_TEST_TMPDIR/t
  mkdir -p "$d/faults"
  # its test passes, then an interval keeps its process alive (writers left running, say)
  cat >"$d/faults/leaves.test.js" <<JS
const test = require('node:test');
test('passes, then leaves work running', () => { require('node:fs').writeFileSync('$d/pid', String(process.pid)); setInterval(() => {}, 1000); });
JS
  printf '%s\n' "const test = require('node:test');" "test('ends', () => {});" >"$d/ends.test.js"
  # timeout(1) only so that a bound that does not work fails this test instead of hanging it
  # shellcheck disable=SC2016  # the script's own $1 and $2 are its arguments, expanded by its bash
  LAB_NODE_TEST_BOUND=3 run timeout 60 bash -c 'source "$1/test/lib/tools.sh"; node_tests "$2" 2 "$2/ends.test.js" "$2/faults/leaves.test.js"' _ "$W" "$d"
  [ "$status" -eq 1 ] || { echo "status $status: $output"; false; }
  grep -qE '^not ok - node --test did not end within 3 s; still running: faults/leaves.test.js \([0-9]+ s\)$' <<<"$output" || { echo "$output"; false; }
  grep -qE '^ok [0-9]+ - ends' <<<"$output" || { echo "$output"; false; }
  # gone, or a zombie where no init reaps the orphans (this machine's pid 1)
  local st
  st=$(ps -o stat= -p "$(cat "$d/pid")" || true)
  [[ -z $st || $st == Z* ]] || { echo "the file's process was left running ($st)"; false; }
}

@test "lanes: the loader's and the Docker suite's lane runs beside the others, the quiet files after both; the closing line sums all" {
  local d=$BATS_TEST_TMPDIR/marks
  mkdir -p "$d"
  # each waits up to 10 s for the other to have started: run one after the other, the first fails
  cat >"$W/test/suites/10-a.sh" <<SUITE
# shellcheck shell=bash
a_suite() {
  touch "$d/a.started"
  for _ in \$(seq 100); do [[ -f $d/l.started ]] && break; sleep 0.1; done
  [[ -f $d/l.started ]] && echo "ok 1 a beside the loader" || echo "not ok 1 a beside the loader"
  sleep 1
  touch "$d/a.ended"
}
run_suite a a_suite
SUITE
  # the loader's suite: one file beside a, one that needs a quiet host and finds a and the Docker
  # suite ended (the Docker suite, in the same lane, comes after the loader's)
  cat >"$d/l.test.js" <<JS
const test = require('node:test');
const fs = require('node:fs');
test('loader beside a', async () => {
  fs.writeFileSync('$d/l.started', '');
  for (let i = 0; i < 100 && !fs.existsSync('$d/a.started'); i++) await new Promise((r) => setTimeout(r, 100));
  if (!fs.existsSync('$d/a.started')) throw new Error('a never started');
});
JS
  cat >"$d/q.test.js" <<JS
// runs alone: the test below checks it
const test = require('node:test');
const fs = require('node:fs');
test('quiet part after a and the Docker suite', () => {
  for (const n of ['a', 'docker']) if (!fs.existsSync('$d/' + n + '.ended')) throw new Error(n + ' still running');
});
JS
  cat >"$W/test/suites/40-loader.sh" <<SUITE
# shellcheck shell=bash
l_suite() { node_tests "$d" 2 "$d/l.test.js" "$d/q.test.js"; }
run_suite loader l_suite
SUITE
  cat >"$W/test/suites/80-docker.sh" <<SUITE
# shellcheck shell=bash
docker_suite() {
  [[ -f $d/l.started ]] && echo "ok 1 docker after the loader" || echo "not ok 1 docker after the loader"
  touch "$d/docker.ended"
}
run_suite docker docker_suite
SUITE
  run bash "$W/test/run-all.sh"
  [ "$status" -eq 0 ] || { echo "$output"; false; }
  [ "${lines[-1]}" = "4 passed, 0 failed, 0 skipped" ] || { echo "$output"; false; }
  # printed in file order, whichever lane ended first, the quiet parts last
  [ "$(printed_order a loader docker loader-alone)" = "a loader docker loader-alone" ] || { echo "$output"; false; }
  # one lane: one after the other, as before
  rm -f "$d"/*.started "$d"/*.ended
  LAB_TEST_LANES=1 run bash "$W/test/run-all.sh"
  [ "$status" -ne 0 ]
  [ "${lines[-1]}" = "3 passed, 1 failed, 0 skipped" ] || { echo "$output"; false; }
}

@test "quiet parts: each suite's files that need a quiet host run beside the other suite's, after every lane" {
  local d=$BATS_TEST_TMPDIR/marks
  mkdir -p "$d"
  cat >"$W/test/suites/10-a.sh" <<SUITE
# shellcheck shell=bash
a_suite() { sleep 1; touch "$d/a.ended"; echo "ok 1 a"; }
run_suite a a_suite
SUITE
  # each suite's quiet file waits up to 10 s for the other's to have started: run one suite's
  # after the other's, the first fails; each also finds the lane ended
  for n in l r; do
    local other=r
    [[ $n == l ]] || other=l
    cat >"$d/$n.test.js" <<JS
// runs alone: the test below checks it
const test = require('node:test');
const fs = require('node:fs');
test('$n beside $other, after the lane', async () => {
  if (!fs.existsSync('$d/a.ended')) throw new Error('a still running');
  fs.writeFileSync('$d/$n.started', '');
  for (let i = 0; i < 100 && !fs.existsSync('$d/$other.started'); i++) await new Promise((r) => setTimeout(r, 100));
  if (!fs.existsSync('$d/$other.started')) throw new Error('$other never started beside it');
});
JS
  done
  # and an ordinary file each, run in the lanes
  for n in l r; do printf '%s\n' "require('node:test')('$n in its lane', () => {});" >"$d/${n}0.test.js"; done
  printf '%s\n' '# shellcheck shell=bash' "l_suite() { node_tests '$d' 2 '$d/l0.test.js' '$d/l.test.js'; }" 'run_suite loader l_suite' >"$W/test/suites/40-loader.sh"
  printf '%s\n' '# shellcheck shell=bash' "r_suite() { node_tests '$d' 2 '$d/r0.test.js' '$d/r.test.js'; }" 'run_suite report r_suite' >"$W/test/suites/60-report.sh"
  run bash "$W/test/run-all.sh"
  [ "$status" -eq 0 ] || { echo "$output"; false; }
  [ "${lines[-1]}" = "5 passed, 0 failed, 0 skipped" ] || { echo "$output"; false; }
  # the quiet parts printed last, in suite order
  [ "$(printed_order a loader report loader-alone report-alone)" = "a loader report loader-alone report-alone" ] || { echo "$output"; false; }
}

@test "lanes (LAB_TEST_LANES=3): the Docker suite has a lane of its own beside the loader's and the rest" {
  local d=$BATS_TEST_TMPDIR/marks
  mkdir -p "$d"
  # each of the three waits up to 10 s for the other two to have started
  local name
  for name in 10-a 40-loader 80-docker; do
    cat >"$W/test/suites/$name.sh" <<SUITE
# shellcheck shell=bash
s_${name//-/_}() {
  touch "$d/$name.started"
  for _ in \$(seq 100); do (( \$(ls "$d" | grep -c started) == 3 )) && break; sleep 0.1; done
  (( \$(ls "$d" | grep -c started) == 3 )) && echo "ok 1 $name beside both" || echo "not ok 1 $name beside both"
}
run_suite $name s_${name//-/_}
SUITE
  done
  LAB_TEST_LANES=3 run bash "$W/test/run-all.sh"
  [ "$status" -eq 0 ] || { echo "$output"; false; }
  [ "${lines[-1]}" = "3 passed, 0 failed, 0 skipped" ] || { echo "$output"; false; }
}

@test "bats tests trace their own lines only: the lab's functions they call run without bats' DEBUG trap, a failure still names its line" {
  # a probe file: one test calls a function that reports whether bats' DEBUG trap reached it,
  # then fails on its line 8 (its @test line written through $at: bats reads a line that starts so
  # as one of this file's own tests, heredoc or not)
  local at=@
  probe() {
    cat >"$BATS_TEST_TMPDIR/probe.bats" <<PROBE
load $REPO/test/lib/bats-tracing
setup() { $1; }
seen() { trap -p DEBUG >"$BATS_TEST_TMPDIR/seen"; }
${at}test "probe" {
  seen
  true
  true
  [ 1 -eq 2 ]
}
PROBE
    run bats --tap "$BATS_TEST_TMPDIR/probe.bats"
  }
  # the premise: without the call, bats' trap runs inside the function (a cost in every command)
  probe :
  [[ $(cat "$BATS_TEST_TMPDIR/seen") == *bats_debug_trap* ]]
  probe trace_test_lines_only
  [ ! -s "$BATS_TEST_TMPDIR/seen" ]
  [[ $output == *"probe.bats, line 8"* ]]
  LAB_BATS_TRACE=1 probe trace_test_lines_only
  [[ $(cat "$BATS_TEST_TMPDIR/seen") == *bats_debug_trap* ]]
  # every bats file's setup makes the call, itself or through test_helper's setup_lab
  local f body
  # (every file the bats suite runs: test/suites/20-bats.sh's find)
  while IFS= read -r f; do
    body=$(sed -n '/^setup() {/,/^}/p' "$f")
    [[ $body =~ (trace_test_lines_only|setup_lab|setup_lab_with_loader)[\;[:space:]] ]] ||
      { echo "$f: setup does not call trace_test_lines_only" >&2; return 1; }
  done < <(find "$REPO" -name node_modules -prune -o -name '*.bats' -print)
}
