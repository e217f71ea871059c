# shellcheck shell=bash
# Every shell script in the repository is shellcheck clean. One TAP line per file.
shellcheck_suite() {
  need_tool shellcheck || return 1
  local n=0 f files
  files=$(git -C "$LAB_ROOT" ls-files -co --exclude-standard -- '*.sh' '*.bats' 'run.sh' '.ci/run' | sort -u)
  for f in $files; do
    [[ -f $f ]] || continue
    n=$((n + 1))
    if shellcheck -x -P SCRIPTDIR -P "$LAB_ROOT" "$f"; then echo "ok $n - shellcheck $f"; else echo "not ok $n - shellcheck $f"; fi
  done
}
run_suite shellcheck shellcheck_suite
