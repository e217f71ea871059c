#!/usr/bin/env bats
# A password typed in --uri, with the mongodb:// scheme or without it (a new user's mistake), is
# never shown and never written under results/: every output of compare and of an experiment is
# searched for it, and every file under results/. The arguments --resume needs, passwords and
# all, are kept in .secrets/.comparisons/ID (mode 600) until the comparison is complete.
# The real loader on this host (its own messages are masked too); a refused connection or
# mongo-java-server (loader/test/support/server.js) as the clusters.

# Each bats test runs in a subshell; the helpers below read the $output of the test that calls them.
# shellcheck disable=SC2030,SC2031

load test_helper

PW=S3cretPW

setup() {
  setup_lab_with_loader
}

teardown() {
  stop_test_server
}

# no_password_anywhere: neither the last output nor any file under results/ holds the password.
no_password_anywhere() {
  [[ $output != *"$PW"* ]] || fail "the password is in the output: $output"
  if [[ -d $LAB/results ]]; then
    local hits
    hits=$(grep -rl -- "$PW" "$LAB/results" || true)
    [[ -z $hits ]] || fail "the password is written in: $hits"
  fi
}

@test "a password in --uri, with or without the scheme, is in no output of compare or an experiment, refused or run" {
  local u
  for u in "root:$PW@host/" "mongodb://root:$PW@127.0.0.1:1/" "mongodb+srv://root:$PW@c0.example/"; do
    lab compare experiment1 --uri "prod=$u" --uri b=mongodb://127.0.0.1:1/ --docs 100 --server-selection-timeout 1s --metrics-port 0
    [[ $status != 0 ]] || fail "compare against nothing succeeded: $output"
    no_password_anywhere
    lab compare experiment1 --uri "prod=$u" --uri b=mongodb://127.0.0.1:1/ --docs 100 --dry-run
    no_password_anywhere
    lab experiment1 --uri "$u" --docs 100 --server-selection-timeout 1s --metrics-port 0
    assert_failure
    no_password_anywhere
    lab experiment1 --uri "prod=$u" --docs 100 --server-selection-timeout 1s --metrics-port 0
    assert_failure
    no_password_anywhere
    lab experiment1 --uri "$u" --docs 100 --dry-run
    no_password_anywhere
  done
  # the usage error still says which URI it refused, the user kept
  lab experiment1 --uri "root:$PW@host/"
  assert_failure 2
  assert_output --partial "'root:***@host/' is not a mongodb:// URI"
  lab compare experiment1 --uri "prod=root:$PW@host/" --uri b=mongodb://h/
  assert_failure 2
  assert_output --partial "root:***@host/"
}

# `ps` shows every user of the host each process's arguments: the loader, its check as its run, gets
# a --uri run's URI in its environment instead (a --resume's URIs come from .secrets/, typed by no one).
@test "the loader gets a --uri run's URI in its environment, never on its command line, where ps shows it to every user" {
  start_test_server
  local seen=$BATS_TEST_TMPDIR/seen hits=$BATS_TEST_TMPDIR/hits watcher f
  : >"$seen"
  : >"$hits"
  # every 20 ms, the loader processes' command lines ('lab-loader[.]js' does not match grep's own)
  (
    while :; do
      while IFS= read -r f; do
        echo "$f" >>"$seen"
        tr '\0' ' ' <"$f" 2>/dev/null | grep -F -- "$PW" >>"$hits" || true
      done < <(grep -l -a 'lab-loader[.]js' /proc/[0-9]*/cmdline 2>/dev/null || true)
      sleep 0.02
    done
  ) &
  watcher=$!
  lab experiment1 --uri "$SERVER_URI?tlsCertificateKeyFilePassword=$PW" --docs 2000 --metrics-port 0
  kill "$watcher"
  assert_success
  no_password_anywhere
  [[ $(sort -u "$seen" | wc -l) -ge 2 ]] || fail "the watcher saw $(sort -u "$seen" | wc -l) loader process(es), want its check and its run: the premise"
  [[ ! -s $hits ]] || fail "a loader's command line holds the password: $(cat "$hits")"
}

@test "an incomplete comparison keeps its passwords for --resume outside results/, mode 600; none once complete" {
  lab compare experiment1 --uri "a=mongodb://root:$PW@127.0.0.1:1/" --uri b=mongodb://127.0.0.1:1/ --repeat 1 --docs 100 --server-selection-timeout 1s --metrics-port 0
  assert_failure 1
  no_password_anywhere
  local id
  id=$(sed -nE 's/^comparison (cmp-[0-9T]+Z-[0-9a-f]{4}): .*/\1/p' <<<"$output")
  [[ -n $id ]] || fail "no comparison id: $output"
  grep -q 'mongodb://root:\*\*\*@127.0.0.1:1/' "$LAB/results/.comparisons/$id/args" || fail "args does not name the masked URI: $(tr '\0' ' ' <"$LAB/results/.comparisons/$id/args")"
  local kept=$LAB/.secrets/.comparisons/$id
  grep -q "root:$PW@" "$kept" || fail "the URI as typed is not kept for --resume"
  [[ $(stat -c %a "$kept") == 600 && $(stat -c %a "${kept%/*}") == 700 ]] || fail "kept passwords readable by others"
  # --resume takes the URIs as typed (the loader gets the password) and still shows none
  lab compare --resume "$id" --dry-run
  assert_success
  no_password_anywhere
  assert_output --partial "mongodb://root:***@127.0.0.1:1/"

  # A comparison that completes leaves no copy: a secret URI option (masked like a password), which
  # mongo-java-server ignores (it has no authentication to give a password to).
  start_test_server
  lab compare experiment1 --uri "a=$SERVER_URI?tlsCertificateKeyFilePassword=$PW" --uri "b=$SERVER_URI" --repeat 1 --docs 200 --metrics-port 0
  assert_success
  no_password_anywhere
  id=$(sed -nE 's/^comparison (cmp-[0-9T]+Z-[0-9a-f]{4}): .*/\1/p' <<<"$output")
  [[ -n $id && -s $LAB/results/.comparisons/$id/runs.tsv ]] || fail "no state for $id: $output"
  [[ ! -e $LAB/.secrets/.comparisons/$id ]] || fail "the passwords stay after the comparison completed"
}

@test "a comparison whose every run completed keeps no password, even when a hang-up ends its report" {
  start_test_server
  # a report that takes its time: it says it started and waits for the hang-up
  mkdir -p "$LAB/report/bin" "$LAB/report/node_modules"
  printf '%s\n' "console.log('report: started'); setTimeout(() => {}, 60000);" >"$LAB/report/bin/lab-report.js"
  local out=$BATS_TEST_TMPDIR/out pid i rc=0 id
  set -m
  "$LAB/run.sh" compare experiment1 --uri "a=$SERVER_URI?tlsCertificateKeyFilePassword=$PW" --uri "b=$SERVER_URI" --repeat 1 --docs 200 --metrics-port 0 </dev/null >"$out" 2>&1 &
  pid=$!
  set +m
  for ((i = 0; i < 600; i++)); do grep -q "report: started" "$out" && break; sleep 0.1; done
  kill -HUP -- "-$pid" # the terminal closed: its shell hangs up the whole job
  wait "$pid" || rc=$?
  run cat "$out"
  [[ $rc == 129 ]] || fail "exit $rc, want 129: $output"
  no_password_anywhere
  id=$(sed -nE 's/^comparison (cmp-[0-9T]+Z-[0-9a-f]{4}): .*/\1/p' <<<"$output")
  [[ $(cut -f3 "$LAB/results/.comparisons/$id/runs.tsv" | grep -c '^complete$') == 2 ]] || fail "not both runs complete: $output"
  [[ ! -e $LAB/.secrets/.comparisons/$id ]] || fail "the passwords stay after every run completed"
}

# hard_passwords: passwords a user types in a URI, holding what a URI's own syntax uses: ? (the
# query), # (a fragment), @ (the host's start), / (the path), % (an escape) and : (user:password).
HARD_PASSWORDS=('Sekr3t?x#y' 'Se/kr:3t' 'Sek@r3t' 'Sekr3t%zz' 'Sekr3t#y' 'Sek?r3t/z:%40@q')

# no_word_anywhere WORD: neither the last output nor any file under the lab copy (its .secrets/
# aside, where compare keeps the URIs as typed on purpose) holds WORD.
no_word_anywhere() {
  [[ $output != *"$1"* ]] || fail "the password '$1' is in the output: $output"
  local hits
  hits=$(grep -rlF --exclude-dir=.secrets --exclude-dir=loader -- "$1" "$LAB" || true)
  [[ -z $hits ]] || fail "the password '$1' is written in: $hits"
}

@test "a password holding ? # @ / % or : is in no output or file of an experiment or a comparison, refused, unreachable or dry" {
  local pw u
  for pw in "${HARD_PASSWORDS[@]}"; do
    for u in "mongodb://root:$pw@127.0.0.1:1/" "root:$pw@127.0.0.1:1/" "mongodb+srv://root:$pw@c0.example/"; do
      lab experiment2 --uri "$u" --server-selection-timeout 1s --metrics-port 0
      assert_failure
      no_word_anywhere "$pw"
      lab experiment2 --uri "$u" --dry-run
      no_word_anywhere "$pw"
      lab compare experiment2 --uri "a=$u" --uri b=mongodb://127.0.0.1:1/ --repeat 1 --server-selection-timeout 1s --metrics-port 0
      assert_failure
      no_word_anywhere "$pw"
      lab compare experiment2 --uri "a=$u" --uri b=mongodb://127.0.0.1:1/ --dry-run
      no_word_anywhere "$pw"
    done
  done
}

# A quote in the password (the driver takes it unescaped) once ended the masking: the plan printed
# it and results/.comparisons/ID/args kept it, and, nothing counted as masked, no copy was kept
# for --resume outside results/.
@test "a password holding a quote (' or \") is in no output or file of a comparison or an experiment, and is kept for --resume" {
  local pw u id
  for pw in "Sek'r3t" 'Sek"r3t'; do
    for u in "mongodb://root:$pw@127.0.0.1:1/" "root:$pw@127.0.0.1:1/"; do
      lab compare experiment2 --uri "a=$u" --uri b=mongodb://127.0.0.1:1/ --repeat 1 --server-selection-timeout 1s --metrics-port 0
      assert_failure
      no_word_anywhere "$pw"
      if [[ $u == mongodb://* ]]; then # (without the scheme: refused, exit 2, the URI masked)
        id=$(sed -nE 's/^comparison (cmp-[0-9T]+Z-[0-9a-f]{4}): .*/\1/p' <<<"$output")
        [[ -n $id && -f $LAB/.secrets/.comparisons/$id ]] || fail "no copy kept for --resume: $output"
      fi
      lab compare experiment2 --uri "a=$u" --uri b=mongodb://127.0.0.1:1/ --dry-run
      no_word_anywhere "$pw"
      lab experiment2 --uri "$u" --dry-run
      no_word_anywhere "$pw"
    done
  done
}

@test "a wrong --uri in a comparison is replaced on resume (--resume ID --uri NAME=URI); the user is told where the typed password is kept" {
  lab compare experiment1 --uri "a=mongodb://root:$PW@127.0.0.1:1/" --uri b=mongodb://127.0.0.1:1/ --repeat 1 --docs 100 --server-selection-timeout 1s --metrics-port 0
  assert_failure 1
  local id
  id=$(sed -nE 's/^comparison (cmp-[0-9T]+Z-[0-9a-f]{4}): .*/\1/p' <<<"$output")
  assert_output --partial "kept for --resume in .secrets/.comparisons/$id (mode 600)"
  assert_output --partial "./run.sh compare --abandon $id"
  assert_output --partial "add --uri NAME=URI to replace that side's"
  no_password_anywhere
  start_test_server
  lab compare --resume "$id" --uri "a=$SERVER_URI" --uri "b=$SERVER_URI"
  assert_success
  no_password_anywhere
  tr '\0' ' ' <"$LAB/results/.comparisons/$id/args" | grep -qF "a=$SERVER_URI" || fail "the new URI is not stored"
  [[ ! -e $LAB/.secrets/.comparisons/$id ]] || fail "the passwords stay after the comparison completed"
  [[ $(cut -f3 "$LAB/results/.comparisons/$id/runs.tsv" | grep -c '^complete$') == 2 ]] || fail "runs: $(cat "$LAB/results/.comparisons/$id/runs.tsv")"
  # a side the comparison does not have is refused, naming the ones it has
  lab compare --resume "$id" --uri "c=$SERVER_URI"
  assert_failure 2
  assert_output --partial "has no --uri side 'c' (its --uri sides: a b)"
}

@test "compare --abandon ID removes the passwords kept for its resume; the comparison then refuses to resume" {
  lab compare experiment1 --uri "a=mongodb://root:$PW@127.0.0.1:1/" --uri b=mongodb://127.0.0.1:1/ --repeat 1 --docs 100 --server-selection-timeout 1s --metrics-port 0
  assert_failure 1
  local id
  id=$(sed -nE 's/^comparison (cmp-[0-9T]+Z-[0-9a-f]{4}): .*/\1/p' <<<"$output")
  [[ -e $LAB/.secrets/.comparisons/$id ]] || fail "no password kept: the premise"
  lab compare --abandon "$id"
  assert_success
  assert_output --partial "comparison $id abandoned: its typed --uri passwords are removed"
  [[ ! -e $LAB/.secrets/.comparisons/$id ]] || fail "the passwords stay after --abandon"
  ! grep -rqF -- "$PW" "$LAB/.secrets" "$LAB/results" || fail "the password is still written somewhere"
  lab compare --resume "$id"
  assert_failure 2
  assert_output --partial "was abandoned"
  # made with --results-dir and abandoned without it: the state there is marked too
  local out=$BATS_TEST_TMPDIR/out
  lab compare experiment1 --uri "a=mongodb://root:$PW@127.0.0.1:1/" --uri b=mongodb://127.0.0.1:1/ --repeat 1 --docs 100 --server-selection-timeout 1s --metrics-port 0 --results-dir "$out"
  assert_failure 1
  id=$(sed -nE 's/^comparison (cmp-[0-9T]+Z-[0-9a-f]{4}): .*/\1/p' <<<"$output")
  lab compare --abandon "$id"
  assert_success
  assert_output --partial "its runs and state stay in $out/.comparisons/$id/"
  [[ -e $out/.comparisons/$id/abandoned && ! -e $LAB/.secrets/.comparisons/$id ]] || fail "not abandoned where it was made: $output"
  lab compare --resume "$id" --results-dir "$out"
  assert_failure 2
  assert_output --partial "was abandoned"
}
