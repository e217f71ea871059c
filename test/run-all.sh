#!/usr/bin/env bash
# ./run.sh test: the project's whole test suite, no Docker engine needed.
# Runs every suite, prints each one's result, and closes with one line "N passed, N failed"
# (the plain form CI reads). Exit 0 only if every suite ran and nothing failed.
# A suite whose tool is missing counts as failed and prints the install hint: never a silent skip.
set -uo pipefail

LAB_ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
cd "$LAB_ROOT" || exit 1
# shellcheck source=test/lib/tools.sh
source "$LAB_ROOT/test/lib/tools.sh"

LOG_DIR=$(mktemp -d "${TMPDIR:-/tmp}/lab-test.XXXXXX")
PASSED=0
FAILED=0
FAILED_SUITES=()

# record SUITE PASS FAIL: add a suite's counts; a suite that ran nothing is a failure.
record() {
  local suite=$1 pass=$2 fail=$3
  if ((pass + fail == 0)); then fail=1; echo "  $suite: ran no test (see $LOG_DIR/$suite.log)"; fi
  PASSED=$((PASSED + pass))
  FAILED=$((FAILED + fail))
  ((fail == 0)) || FAILED_SUITES+=("$suite")
  printf '%-28s %4d passed, %d failed\n' "$suite" "$pass" "$fail"
}

# tap_counts FILE: "PASS FAIL" from TAP lines at any nesting depth that are leaves.
# bats prints flat TAP; node --test prints "# pass N" / "# fail N" totals, preferred when present.
tap_counts() {
  local f=$1 p fl
  if grep -qE '^# pass [0-9]+' "$f"; then
    p=$(grep -E '^# pass [0-9]+' "$f" | tail -1 | awk '{print $3}')
    fl=$(grep -E '^# fail [0-9]+' "$f" | tail -1 | awk '{print $3}')
  else
    p=$(grep -cE '^ok ' "$f")
    fl=$(grep -cE '^not ok ' "$f")
  fi
  echo "${p:-0} ${fl:-0}"
}

# run_suite NAME CMD...: run a TAP-producing command, keep its log, show failures.
run_suite() {
  local name=$1 log="$LOG_DIR/$1.log" rc
  shift
  "$@" >"$log" 2>&1
  rc=$?
  read -r p f < <(tap_counts "$log")
  if ((rc != 0 && f == 0)); then f=1; fi
  if ((f > 0)); then
    echo "---- $name failed (exit $rc); log: $log"
    grep -E -B2 -A25 '^ *not ok ' "$log" | head -120 || tail -40 "$log"
    grep -qE '^ *not ok ' "$log" || tail -40 "$log"
    echo "----"
  fi
  record "$name" "$p" "$f"
}

suites=()
while IFS= read -r s; do suites+=("$s"); done < <(ls "$LAB_ROOT"/test/suites/*.sh)
for s in "${suites[@]}"; do
  # shellcheck source=/dev/null
  source "$s"
done

echo
if ((${#FAILED_SUITES[@]})); then echo "failed suites: ${FAILED_SUITES[*]}"; fi
echo "$PASSED passed, $FAILED failed"
((FAILED == 0))
