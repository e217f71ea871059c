# shellcheck shell=bash
# Every shell script in the repository is shellcheck clean. One TAP line per file, in file order,
# with shellcheck's findings under a failing one. Three files at a time (xargs -P): one after the
# other, the 91 files took 42 s of the suite's lane (2026-11-29 CI run).
shellcheck_suite() {
  need_tool shellcheck || return 1
  local n=0 f out key
  local -a files=()
  mapfile -t files < <(git -C "$LAB_ROOT" ls-files -co --exclude-standard -- '*.sh' '*.bats' 'run.sh' '.ci/run' | sort -u)
  out=$(mktemp -d)
  # each file's findings into OUT/<path with / as %>, its exit code beside them
  # shellcheck disable=SC2016  # the script's own $1..$3 are its arguments, expanded by its bash
  printf '%s\n' "${files[@]}" | xargs -P 3 -I{} bash -c '
    key=${2//\//%}
    [[ -f $2 ]] || exit 0
    shellcheck -x -P SCRIPTDIR -P "$1" "$2" >"$3/$key.log" 2>&1
    echo $? >"$3/$key.rc"' _ "$LAB_ROOT" {} "$out"
  for f in "${files[@]}"; do
    [[ -f $f ]] || continue
    n=$((n + 1))
    key=${f//\//%}
    if [[ $(cat "$out/$key.rc" 2>/dev/null) == 0 ]]; then echo "ok $n - shellcheck $f"; else
      echo "not ok $n - shellcheck $f"
      sed 's/^/# /' "$out/$key.log" 2>/dev/null
    fi
  done
  rm -rf "$out"
  n=$((n + 1))
  early_grep_gate "$n" "${files[@]}"
}

# Under pipefail, `WRITER | grep -q` fails at random: grep leaves at its first match, and a writer
# still writing gets SIGPIPE (exit 141), which pipefail makes the pipeline's status. run.sh, lib/
# and the suites run under pipefail, so a match is read from a whole string (grep -q PATTERN
# <<<"$(WRITER)") instead. A bats test has no pipefail and is not held to this.
early_grep_gate() {
  local n=$1
  local -a lines
  shift
  mapfile -t lines < <(printf '%s\n' "$@" | grep -v '\.bats$' | xargs grep -nE '\|[[:space:]]*grep([[:space:]]+-[A-Za-z]+)*[[:space:]]+-[A-Za-z]*q' |
    grep -vE '^[^:]+:[0-9]+:[[:space:]]*#')
  if ((${#lines[@]} == 0)); then echo "ok $n - no script ends a pipe in grep -q (under pipefail its writer's SIGPIPE fails it)"; else
    echo "not ok $n - no script ends a pipe in grep -q (under pipefail its writer's SIGPIPE fails it)"
    printf '# %s\n' "${lines[@]}"
  fi
}
run_suite shellcheck shellcheck_suite
