#!/usr/bin/env bats
# ./run.sh EXPERIMENT --uri (a cluster the lab did not start): flags that size the lab's
# own stack are refused, not silently dropped; --username needs a password source; a
# mongodb+srv:// URI is taken (the loader resolves it when it connects).

load test_helper

setup() {
  setup_lab_with_loader
}

@test "--uri with --profile or --mongos, in either form (FLAG VALUE, FLAG=VALUE): refused in one line naming why (they were dropped, exit 0)" {
  # run.sh parses each form in its own case branch: the = form once skipped the bookkeeping
  # (STACK_FLAGS_GIVEN) and was accepted, so every form of both flags and of --uri is tried.
  local uri profile mongos
  for uri in "--uri mongodb://db.example:27017/" "--uri=mongodb://db.example:27017/"; do
    for profile in "--profile seed2013" "--profile=seed2013"; do
      # shellcheck disable=SC2086  # the flags split into their words
      lab experiment2 $uri $profile --dry-run
      assert_failure 2
      assert_line --index 0 "error: --profile does not apply to --uri: it sizes the cluster this lab starts, and the one at --uri has its own (describe it with --label, e.g. --label platform=aws-m5.large)"
    done
    for mongos in "--mongos 3" "--mongos=3"; do
      # shellcheck disable=SC2086
      lab experiment2 $uri $mongos --dry-run
      assert_failure 2
      assert_line --index 0 "error: --mongos does not apply to --uri: it sets how many routers this lab starts; name the routers to use in the URI"
    done
  done
  nothing_started
}

@test "--uri with --username and no --password-file: refused (it ran unauthenticated); with it: passed on" {
  lab experiment1 --uri mongodb://db.example:27017/ --username bob --dry-run
  assert_failure 2
  assert_output --partial "error: --username bob needs --password-file FILE"
  printf 'pw\n' >"$BATS_TEST_TMPDIR/pw"
  lab experiment1 --uri mongodb://db.example:27017/ --username bob --password-file "$BATS_TEST_TMPDIR/pw" --dry-run
  assert_success
  assert_output --regexp "LAB_LOADER_URI=mongodb://db.example:27017/ [^ ]+/lab-loader experiment1 .*--username bob .*--password-file [^ ]+/pw"
  nothing_started
}

@test "--uri mongodb+srv://NAME/: accepted (was 'names no server')" {
  lab experiment1 --uri mongodb+srv://cluster0.example.com/ --dry-run
  assert_success
  assert_output --regexp "LAB_LOADER_URI=mongodb\+srv://cluster0.example.com/ [^ ]+/lab-loader experiment1 "
  nothing_started
}
