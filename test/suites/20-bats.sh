# shellcheck shell=bash
# run.sh and its lib/ functions, driven with a stub docker on PATH (test/stub/docker).
bats_suite() {
  need_tool bats || return 1
  local files
  mapfile -t files < <(find "$LAB_ROOT" -name node_modules -prune -o -name '*.bats' -print | sort)
  ((${#files[@]})) || { echo "not ok 1 - no .bats files found"; return 1; }
  bats --tap "${files[@]}"
}
run_suite bats bats_suite
