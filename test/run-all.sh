#!/usr/bin/env bash
# ./run.sh test: the project's whole test suite, no Docker engine needed.
# Runs every suite, prints each one's result, and closes with one line
# "N passed, N failed, N skipped" (the plain form CI reads). Exit 0 only if every suite ran and
# nothing failed. A suite whose tool is missing counts as failed and prints the install hint:
# never a silent skip. A skipped test (bats "ok N name # skip REASON", node:test t.skip(REASON):
# a premise of the test, measured and not met here) is counted as skipped, never as passed, and
# its reason is printed.
# The suites run in two lanes side by side (LAB_TEST_LANES=1: one after another, in file order;
# LAB_TEST_LANES=3: the Docker suite in a third): FerretDB's, the loader's, the Docker suite,
# monitoring's and the k8s suites beside the rest. Files that need a quiet host ("// runs alone:",
# test/lib/tools.sh node_tests) run by themselves once every lane has ended. Each suite's lines
# are printed at the end, in file order (the quiet parts last); its log stays in the run's log
# folder.
set -uo pipefail

LAB_ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
cd "$LAB_ROOT" || exit 1
# shellcheck source=test/lib/tools.sh
source "$LAB_ROOT/test/lib/tools.sh"

PASSED=0
FAILED=0
SKIPPED=0
FAILED_SUITES=()

# record SUITE PASS FAIL [SKIP [SECONDS [CPU_SECONDS]]]: add a suite's counts; a suite that ran
# nothing is a failure. Its time and CPU are shown so a slow suite is seen (the whole run is meant
# to stay under 15 min, and the 2-core host is short of CPU, not of lanes: DEVELOPERS.md "Tests").
record() {
  local suite=$1 pass=$2 fail=$3 skip=${4:-0} secs=${5:-} cpu=${6:-}
  if ((pass + fail + skip == 0)); then fail=1; echo "  $suite: ran no test (see $LOG_DIR/$suite.log)"; fi
  PASSED=$((PASSED + pass))
  FAILED=$((FAILED + fail))
  SKIPPED=$((SKIPPED + skip))
  ((fail == 0)) || FAILED_SUITES+=("$suite")
  # run from a lane (a subshell): its counts reach the closing line through this file
  [[ -z ${COUNTS_FILE:-} ]] || echo "$pass $fail $skip $suite" >>"$COUNTS_FILE"
  printf '%-28s %4d passed, %d failed, %d skipped%s\n' "$suite" "$pass" "$fail" "$skip" \
    "${secs:+ ($((secs / 60))m$((secs % 60))s${cpu:+, $cpu CPU s})}"
}

# children_cpu VAR: sets VAR to the whole CPU seconds (user + system) of this shell's waited-for
# children so far, from bash's `times` (its second line); a function, not $(...), since a
# subshell's `times` counts its own children. A process nobody waited for (a server killed and
# reaped by init, a container's) is not in it: a floor, not the host's whole load.
children_cpu() {
  local f=$LOG_DIR/.times.$BASHPID user sys
  times >"$f"
  { read -r _ _ && read -r user sys; } <"$f"
  rm -f "$f"
  printf -v "$1" '%s' "$(awk -v u="$user" -v s="$sys" 'function sec(t, m) { split(t, m, "m"); return m[1] * 60 + m[2] }
    BEGIN { printf "%d", sec(u) + sec(s) }')"
}

# tap_counts FILE: "PASS FAIL SKIP" of a suite's TAP log.
# node --test prints totals ("# pass N", "# fail N", "# cancelled N", "# skipped N", "# todo N"),
# preferred when present, summed over each node --test the suite ran (test/lib/tools.sh
# node_tests outside this runner runs two: the shared batch, then the files that run alone):
# cancelled counts as failed, todo as skipped (neither is a pass).
# Otherwise flat TAP (bats, the shell suites): "ok N ... # skip REASON" (any case, TAP's SKIP
# directive) is a skip, any other "ok" a pass, "not ok" a failure.
tap_counts() {
  local f=$1 p fl sk
  tap_total() { grep -E "^# $1 [0-9]+\$" "$f" | awk '{ n += $3 } END { print n + 0 }'; }
  if grep -qE '^# pass [0-9]+$' "$f"; then
    p=$(tap_total pass)
    fl=$(($(tap_total fail) + $(tap_total cancelled)))
    sk=$(($(tap_total skipped) + $(tap_total todo)))
  else
    sk=$(grep -ciE '^ok [0-9]+ .*# skip' "$f")
    p=$(($(grep -cE '^ok ' "$f") - sk))
    fl=$(grep -cE '^not ok ' "$f")
  fi
  echo "${p:-0} ${fl:-0} ${sk:-0}"
}

# tap_skips FILE: each skipped test's line (its name and reason), for the suite's report.
tap_skips() {
  grep -iE '^ *ok [0-9]+ .*# (skip|todo)' "$1" | sed -E 's/^ *//'
}

# run_suite NAME CMD...: run a TAP-producing command, keep its log, show failures.
run_suite() {
  local name=$1 log="$LOG_DIR/$1.log" rc start=$SECONDS cpu0 cpu
  shift
  children_cpu cpu0
  SUITE_NAME=$name "$@" >"$log" 2>&1
  rc=$?
  read -r p f k < <(tap_counts "$log")
  if ((rc != 0 && f == 0)); then f=1; fi
  if ((k > 0)); then
    echo "---- $name: $k skipped (premise not met here; see the reason)"
    tap_skips "$log" | head -40
  fi
  if ((f > 0)); then
    echo "---- $name failed (exit $rc); log: $log"
    grep -E -B2 -A25 '^ *not ok ' "$log" | head -120 || tail -40 "$log"
    grep -qE '^ *not ok ' "$log" || tail -40 "$log"
    echo "----"
  fi
  children_cpu cpu
  record "$name" "$p" "$f" "$k" $((SECONDS - start)) $((cpu - cpu0))
  # CPU a suite measured outside its figure (the Docker suite's containers: test/docker.sh)
  sed -n "s/^# beyond the suite's CPU: /  $name, beyond its CPU figure: /p" "$log"
}

# host_speed: the CPU seconds a fixed single-threaded workload (awk, 5 million additions) takes
# now (0.18-0.22 s on the quiet 2-core machine, 2026-12-01 21:10). The suite is bound by CPU, and
# the CPU seconds the same work costs vary between runs: four fresh-clone runs of one afternoon
# (2026-12-01) took 15m55s to 19m05s, shellcheck's unchanged files 44 to 57 CPU s, while this loop
# took 0.17-0.26 s before, during (once a minute: host_speed_during, median 0.202) and after the
# suites of the last. So the loop rules out a slower CPU (its clock, stolen time) and leaves what
# it does not exercise (memory and caches shared with whatever else the host runs). It is printed
# so that a run's time is read beside it, not as proof of a slow host.
host_speed() {
  local TIMEFORMAT=%U
  { time awk 'BEGIN { for (i = 0; i < 5000000; i++) s += i % 7 }'; } 2>&1
}

# host_speed_during FILE: host_speed once a minute into FILE, one figure a line, until killed
# (SIGTERM: its sleep ends with it; a wait, not a foreground sleep, lets the trap run at once) or
# until this script's shell ($$, the same in a subshell) is gone: a SIGKILL to it runs no trap.
host_speed_during() {
  local nap=
  trap 'kill $nap 2>/dev/null; exit 0' TERM
  while kill -0 $$ 2>/dev/null; do
    host_speed >>"$1"
    sleep 60 &
    nap=$!
    wait "$nap"
  done
}

# speed_summary FILE: "median M CPU s of N samples (range LO-HI)" of host_speed_during's figures.
speed_summary() {
  sort -n "$1" | awk '{ v[NR] = $1 } END {
    if (NR == 0) { print "no sample"; exit }
    m = NR % 2 ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2
    printf "median %.3f CPU s of %d samples (range %.3f-%.3f)\n", m, NR, v[1], v[NR] }'
}

# The loop above costs the same CPU seconds on a busy host: with both cores held by `yes` over a
# whole run (2026-12-02) it read a median of 0.184 s, as on a quiet one. Whether the host was
# idle is told by what its CPUs did over the suites instead (host_cpu_line).

# cpu_ticks FILE: "BUSY TOTAL", the clock ticks of all CPUs since boot from the cpu line of FILE,
# /proc/stat (proc(5): user nice system idle iowait irq softirq steal, each there since Linux
# 2.6.11; guest time, from 2.6.24, is inside user and not added twice). Busy takes in steal:
# time the hypervisor gave another guest while this one wanted the CPU.
cpu_ticks() {
  awk '$1 == "cpu" { busy = $2 + $3 + $4 + $7 + $8 + $9; print busy, busy + $5 + $6; exit }' "$1" 2>/dev/null ||
    echo 0 0 # no /proc (not Linux): host_cpu_line says it was not measured
}

# tree_ticks PID: the clock ticks of PID's own CPU and of the children it has waited for, theirs
# included (proc(5) /proc/PID/stat utime stime cutime cstime, fields 14-17; the name in field 2
# may hold spaces, so the fields are counted after its closing parenthesis).
tree_ticks() {
  local stat
  [[ -r /proc/$1/stat ]] || { echo 0; return 0; }
  stat=$(<"/proc/$1/stat")
  awk '{ print $12 + $13 + $14 + $15 }' <<<"${stat##*) }"
}

# host_cpu_line BUSY0 TOTAL0 OURS0 BUSY1 TOTAL1 OURS1 HZ: how busy the host's CPUs were between two
# readings, and how much of it was this run's processes (tree_ticks of this shell). The rest is
# what no process of this run waited for: the Docker suite's containers (the figure below its
# line), Docker's daemons, a process left to init, and anything else the host ran.
host_cpu_line() {
  local busy=$(($4 - $1)) total=$(($5 - $2)) ours=$(($6 - $3)) hz=$7
  ((total > 0)) || { echo "host CPUs over the suites: not measured (no /proc/stat here)"; return 0; }
  ((ours <= busy)) || ours=$busy # a child's ticks are charged at its exit, the host's as they pass
  printf "host CPUs over the suites: %d of %d CPU s busy (%d %%); this run's processes %d, the rest %d\n" \
    $((busy / hz)) $((total / hz)) $((100 * busy / total)) $((ours / hz)) $(((busy - ours) / hz))
}

# Sourced (test/run-all.bats): the functions only.
[[ ${BASH_SOURCE[0]} == "$0" ]] || return 0

LOG_DIR=$(mktemp -d "${TMPDIR:-/tmp}/lab-test.XXXXXX")
# The suites' temporary files in a folder of this run's, removed at its end: the tests make
# thousands (results folders, copies of the lab, plan files), and a failing test or a process
# killed mid-way leaves its own behind; fifteen runs had left 1,694 folders of one test helper in
# this machine's /tmp. The folder is what /tmp is (sticky, open to every user: a report test reads
# a run folder as another user), beside the log folder rather than in it (mktemp makes that one
# private). Removed once every suite has ended; a run stopped early keeps it.
SUITE_TMPDIR=$(mktemp -d "${TMPDIR:-/tmp}/lab-test-tmp.XXXXXX")
chmod 1777 "$SUITE_TMPDIR"
export TMPDIR=$SUITE_TMPDIR
if [[ -n ${MONGODB_URI:-} ]]; then
  # the URI may carry a password: only its hosts are shown
  echo "MONGODB_URI set (${MONGODB_URI##*@}): tests that use testServer() run against it; those that depend on a deviation of the test server (loader/test/support/server-lines.js DEVIATIONS) are skipped, naming it"
fi

# The suites open no TLS connection beyond this host (the TLS tests bring their own CA in
# tlsCAFile=), and every node start reads and parses the whole bundle a host names in
# NODE_EXTRA_CA_CERTS (a proxy's, on the CI runner): measured 2026-12-01 on the 2-core machine,
# `node -e 0` took 0.11 s of CPU with it and 0.036 s without, and compare.bats 129.5 CPU s against
# 116.2 (its 22 tests passed both ways). The installs (test/install-tools.sh) keep it.
unset NODE_EXTRA_CA_CERTS

SUITES_START=$SECONDS
read -r CPU_BUSY0 CPU_TOTAL0 < <(cpu_ticks /proc/stat)
OURS0=$(tree_ticks $$)
echo "host speed before the suites: a fixed workload took $(host_speed) CPU s (0.18-0.22 on a quiet host)"
host_speed_during "$LOG_DIR/host-speed" >/dev/null 2>&1 &
SPEED_PID=$!
# a SIGTERM or SIGHUP to this shell alone (timeout, kill) ends the sampler with it; the lanes'
# own processes end as before
trap 'kill "$SPEED_PID" 2>/dev/null' EXIT

# The lanes, side by side: FerretDB's, the loader's and the Docker suite beside the rest
# (shellcheck, ESLint, bats, Compose, monitoring's, the report's, the k8s suites) in file order.
# The Docker suite comes after the loader's because the loader's timing tests failed beside it (a fresh-clone run with it in a lane of its
# own, 2026-11-29 13:04: 10 failures where two lanes had 1; again 2026-11-30 with the Docker,
# monitoring and k8s suites in the third lane and the report's beside the loader's: the whole run
# took 22m54s against 22m15s, bats 18 minutes against 13, a loader test failed and two more
# skipped: the host is short of CPU, not of lanes). The Docker suite first in this lane, beside
# bats, with the loader's after it beside the report's, gained 36 s of 27 minutes (2026-11-30 CI:
# bats took as long, 13m42s: dockerd's and the containers' CPU are not in the Docker suite's CPU
# figure) and two loader tests failed beside the report's. Monitoring's suite runs in the other
# lane, after Compose's: behind the Docker suite, it and the k8s suites (about 2 minutes) made
# that lane the longer by 4 minutes (2026-12-01 CI: 26m05s against 22m19s). The k8s loaders'
# suite (18 s) comes after the Docker suite, the k8s manifests' (23 s) after the report's: in the
# CI on 2f99688 the report's and the Docker suite ended 2 s apart, and the k8s suites, one after
# the other in one lane, were then the lanes' last 41 s beside nothing (the next CI: 15m05s to
# 15m03s, the lanes 21 s apart). LAB_TEST_LANES=3 still gives the Docker suite that third lane; 1
# runs every suite in turn, in file order.
# The files that need a quiet host run last, with no lane beside them (node_tests, LAB_ALONE_LATER;
# one suite's beside another's, run_alone_parts):
# when each lane ran them as it reached them, one lane waited idle for the other's lock
# (2026-11-29 CI: the loader's lane for 12 of its 25 minutes; the whole run 25m46s, 22m13s after).
DOCKER_LANE=()
[[ ${LAB_TEST_LANES:-2} != 3 ]] || DOCKER_LANE=(80-docker)
SIDE_LANE=(45-ferretdb 40-loader)
[[ ${LAB_TEST_LANES:-2} != 2 ]] || SIDE_LANE+=(80-docker 72-k8s-loaders)

# a shell variable, not exported: node_tests runs in the lane's shell, and a test's own node_tests
# (test/run-all.bats) must run its files itself, not list them here
LAB_ALONE_LATER=$LOG_DIR/alone
mkdir -p "$LAB_ALONE_LATER"

# run_lane SUITE_FILE...: each suite in turn, its lines into LOG_DIR/<suite file>.out and its counts
# into LOG_DIR/<suite file>.counts.
run_lane() {
  local s base
  for s in "$@"; do
    base=$(basename "$s" .sh)
    COUNTS_FILE="$LOG_DIR/$base.counts"
    : >"$COUNTS_FILE"
    # shellcheck source=/dev/null
    source "$s" >"$LOG_DIR/$base.out" 2>&1
  done
}

# run_alone_parts: each suite's quiet-host files its node_tests listed (LAB_ALONE_LATER/*.list),
# as LOG_DIR/zz-alone.out and .counts: the suites side by side, each suite's files one at a time.
# These files are light (the loader's three and the report's one used 0.4 of a core together);
# what they need is no lane beside them. Measured 2026-12-01 on the idle 2-core machine: 54-55 s
# side by side against 105 s one suite after the other, every premise met in 3 runs of 3.
run_alone_parts() {
  local list name
  local -a lines pids=()
  COUNTS_FILE="$LOG_DIR/zz-alone.counts"
  : >"$COUNTS_FILE"
  for list in "$LAB_ALONE_LATER"/*.list; do
    [[ -f $list ]] || continue
    mapfile -t lines <"$list"
    name=$(basename "$list" .list)
    run_suite "$name-alone" node_tests_alone "${lines[@]}" >"$LOG_DIR/alone-$name.out" 2>&1 &
    pids+=($!)
  done
  ((${#pids[@]} == 0)) || wait "${pids[@]}"
  cat /dev/null "$LOG_DIR"/alone-*.out >"$LOG_DIR/zz-alone.out" 2>/dev/null
}

in_list() {
  local x=$1
  shift
  grep -qxF -- "$x" <<<"$(printf '%s\n' "$@")"
}

# lane_files NAME...: the suite files of those names that exist, in the order given.
lane_files() {
  local name
  for name in "$@"; do
    [[ ! -f $LAB_ROOT/test/suites/$name.sh ]] || echo "$LAB_ROOT/test/suites/$name.sh"
  done
}

suites=()
while IFS= read -r s; do suites+=("$s"); done < <(ls "$LAB_ROOT"/test/suites/*.sh)
mapfile -t docker_lane < <(lane_files "${DOCKER_LANE[@]}")
mapfile -t side_lane < <(lane_files "${SIDE_LANE[@]}")
main_lane=()
for s in "${suites[@]}"; do
  in_list "$(basename "$s" .sh)" "${SIDE_LANE[@]}" "${DOCKER_LANE[@]}" || main_lane+=("$s")
done
# Lanes are subshells: their counts come back through the files only.
if [[ ${LAB_TEST_LANES:-2} == 1 ]]; then
  (run_lane "${suites[@]}")
else
  lane_pids=()
  if ((${#docker_lane[@]})); then
    (run_lane "${docker_lane[@]}") &
    lane_pids+=($!)
  fi
  if ((${#side_lane[@]})); then
    (run_lane "${side_lane[@]}") &
    lane_pids+=($!)
  fi
  echo "suites in lanes side by side: ${docker_lane[*]##*/}${docker_lane[*]:+ | }${side_lane[*]##*/} | the rest; logs: $LOG_DIR"
  (run_lane "${main_lane[@]}")
  # the lanes only: a bare wait (no lane) would wait for the host speed sampler too
  ((${#lane_pids[@]} == 0)) || wait "${lane_pids[@]}"
fi
(run_alone_parts)
for base in "${suites[@]}" zz-alone; do
  base=$(basename "$base" .sh)
  cat "$LOG_DIR/$base.out"
  while read -r p f k name; do
    PASSED=$((PASSED + p))
    FAILED=$((FAILED + f))
    SKIPPED=$((SKIPPED + k))
    ((f == 0)) || FAILED_SUITES+=("$name")
  done <"$LOG_DIR/$base.counts"
done

echo
elapsed=$((SECONDS - SUITES_START))
kill "$SPEED_PID" 2>/dev/null
wait "$SPEED_PID" 2>/dev/null
# after the sampler's wait: its loops are this run's too
read -r CPU_BUSY1 CPU_TOTAL1 < <(cpu_ticks /proc/stat)
OURS1=$(tree_ticks $$)
echo "host speed during the suites: the same workload, once a minute: $(speed_summary "$LOG_DIR/host-speed")"
host_cpu_line "$CPU_BUSY0" "$CPU_TOTAL0" "$OURS0" "$CPU_BUSY1" "$CPU_TOTAL1" "$OURS1" "$(getconf CLK_TCK)"
rm -rf "$SUITE_TMPDIR"
echo "suites: $((elapsed / 60))m$((elapsed % 60))s (meant to stay under 15 min); host speed after them: the same workload took $(host_speed) CPU s"
if ((${#FAILED_SUITES[@]})); then echo "failed suites: ${FAILED_SUITES[*]}"; fi
echo "$PASSED passed, $FAILED failed, $SKIPPED skipped"
((FAILED == 0))
