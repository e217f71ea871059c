# shellcheck shell=bash
# run.sh and its lib/ functions, driven with a stub docker on PATH (test/stub/docker).
bats_suite() {
  need_tool bats || return 1
  need_tool parallel || return 1 # GNU parallel: bats --jobs runs through it
  local files
  mapfile -t files < <(find "$LAB_ROOT" -name node_modules -prune -o -name '*.bats' -print | sort)
  ((${#files[@]})) || { echo "not ok 1 - no .bats files found"; return 1; }
  # Three tests at a time: each runs in its own copy of the lab (test/test_helper.bash setup_lab)
  # with its own servers and ports (no test holds a port another expects free). Measured
  # 2026-11-26 on the 2-core test VM: 3m36s one at a time, 3m03s two, 2m34s three. Since then the
  # suite is bound by CPU, not by waits, so more jobs would not help: 2026-11-29 (324 tests) it
  # used 605 CPU s (465 user, 141 sys; 43m40s at a load average of 45 from other work), over 5 min
  # of both cores; most of it is run.sh and the loader's node starts (compare --dry-run 4 CPU s,
  # smoke --faults --dry-run 24 CPU s, every verb's dry run twice in messages.bats 60 CPU s).
  # In a network namespace of its own where this user may make one (own_loopback): the Docker
  # suite runs in a lane beside this one and its stack publishes 127.0.0.1:27017, which the up and
  # preflight tests need free (they run the real port check). Elsewhere (no root) the Docker suite
  # cannot run, so nothing holds the port.
  # --timing: each test's line ends "in N ms", so the log says where the suite's time went
  own_loopback bats --tap --timing --jobs 3 "${files[@]}"
}
run_suite bats bats_suite
