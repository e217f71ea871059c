#!/usr/bin/env bash
# bash test/redesign/same-output.sh BEFORE AFTER: a redesign's proof that behaviour is unchanged.
# Both commits are checked out apart (git worktree, this checkout's node_modules linked in) and
# test/redesign/outputs.js (this checkout's, the same for both) writes what each prints and
# writes for one corpus: the loader's and ./run.sh's text for every experiment, engine and fault
# scenario (help, flags, check, estimate, --dry-run, bad input), and the report (terminal text,
# report.json, index.html; default, --wide, --by server) over the runs each of the report's tests
# makes, kept for the purpose (test/redesign/keep-folders.js).
# A file the redesign moved is named in the older side's text by its new path (git diff -M).
# Prints how many outputs were compared and the first that differ; exit 0 only if none does.
# Not part of ./run.sh test (a proof for one redesign, about 10 minutes); LAB_SAME_FOLDERS=FILE
# reuses a list of folders kept before.
set -euo pipefail
LAB_ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
(($# == 2)) || { echo "usage: bash test/redesign/same-output.sh BEFORE AFTER (two commits)" >&2; exit 2; }
work=$(mktemp -d "${TMPDIR:-/tmp}/same-output.XXXXXX")
cleanup() {
  git -C "$LAB_ROOT" worktree remove --force "$work/before" >/dev/null 2>&1 || true
  git -C "$LAB_ROOT" worktree remove --force "$work/after" >/dev/null 2>&1 || true
  echo "outputs kept in $work"
}
trap cleanup EXIT

folders=${LAB_SAME_FOLDERS:-}
if [[ -z $folders ]]; then
  kept=$work/kept
  mkdir -p "$kept"
  echo "the report's tests, their results folders kept ($kept)..."
  (cd "$LAB_ROOT/report" && TMPDIR=$kept LAB_KEEP_ROOT=$kept NODE_OPTIONS="--require $LAB_ROOT/test/redesign/keep-folders.js" \
    node --test --test-concurrency=2 test/*.test.js >"$work/report-tests.log" 2>&1) || true
  # each test's temporary folder with the runs it made, as the test gave them to the report
  # (the scale tests' thousands of runs left out: report/bench measures those)
  folders=$work/folders
  for d in "$kept"/*/; do
    n=$(find "$d" -name summary.json | wc -l)
    ((n == 0 || n > 300)) || echo "${d%/}"
  done >"$folders"
fi
# a proof that read no runs examined no report: refused
[[ -s $folders ]] || { echo "same-output: no results folders to run the report over ($folders)" >&2; exit 1; }
echo "$(wc -l <"$folders") folders of results ($(xargs -I{} find {} -name summary.json <"$folders" | wc -l) runs)"

git -C "$LAB_ROOT" diff --quiet "$1" "$2" -- loader/package-lock.json report/package-lock.json ||
  echo "note: the two commits pin different packages; both run with this checkout's node_modules"
for side in before after; do
  commit=$1
  [[ $side == before ]] || commit=$2
  git -C "$LAB_ROOT" worktree add --detach "$work/$side" "$commit" >/dev/null 2>&1 ||
    { echo "same-output: cannot check out $commit" >&2; exit 2; }
  for m in loader report; do ln -s "$LAB_ROOT/$m/node_modules" "$work/$side/$m/node_modules"; done
  ln -s "$LAB_ROOT/.tools" "$work/$side/.tools"
  # the files the redesign moved: the older side's text names them by their new paths
  renames=()
  if [[ $side == before ]]; then
    git -C "$LAB_ROOT" diff -M --name-status "$1" "$2" | awk -F'\t' '$1 ~ /^R/ { print $2 "\t" $3 }' >"$work/renames"
    renames=("$work/renames")
  fi
  node "$LAB_ROOT/test/redesign/outputs.js" "$work/$side" "$work/out-$side" "$folders" "${renames[@]}"
done

n=$(find "$work/out-before" -type f | wc -l)
((n > 0)) || { echo "same-output: no output was written" >&2; exit 1; }
if diff -r "$work/out-before" "$work/out-after" >"$work/diff.txt"; then
  echo "same: $n outputs byte for byte ($1 and $2)"
else
  # grep -m, not | head: under pipefail grep's SIGPIPE ended the script (141) before the count
  grep -m 20 -E '^(diff|Only in)' "$work/diff.txt" | sed 's/^/differs: /'
  echo "$(grep -cE '^(diff|Only in)' "$work/diff.txt") of $n outputs differ; the differences: $work/diff.txt"
  exit 1
fi
