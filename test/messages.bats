#!/usr/bin/env bats
# Messages a new user met (issue 38 items 10-16): each says what happened and what to do, in the
# words of the command typed (./run.sh ..., never lab-loader or lab-report), exit 2 for usage.

load test_helper

setup() { setup_lab_with_loader; }

@test "experiment2 --tool ycsb: --tool ycsb runs YCSB's own workloads, ycsb-a (not 'drop --uri'), exit 2 (item 10)" {
  lab experiment2 --tool ycsb --uri mongodb://127.0.0.1:1/
  assert_failure 2
  assert_output --partial "error: --tool ycsb runs YCSB's own workloads: experiment2 is not one (its workload.type is not ycsb; ycsb-a is): drop --tool"
  refute_output --partial "drop --uri"
  lab experiment2 --tool ycsb
  assert_failure 2
  assert_output --partial "experiment2 is not one"
  nothing_started
}

@test "an unknown switch is unknown, not 'needs a value'; a flag without its value needs one; the hint is ./run.sh's (items 11, 12)" {
  lab experiment2 --uri mongodb://127.0.0.1:1/ --verbose
  assert_failure 2
  assert_output --partial "error: unknown flag '--verbose' (./run.sh help lists the flags)"
  refute_output --partial "needs a value"
  refute_output --partial "lab-loader"
  lab experiment2 --verbose --uri mongodb://127.0.0.1:1/
  assert_failure 2
  assert_output --partial "error: unknown flag '--verbose'"
  lab experiment2 --uri mongodb://127.0.0.1:1/ --docs
  assert_failure 2
  assert_output --partial "error: --docs needs a value"
  lab experiment2 --uri
  assert_failure 2
  assert_output --partial "error: --uri needs a value"
  nothing_started
}

@test "test --bogus: refused in one line, exit 2, no suite started (item 13)" {
  SECONDS=0
  lab test --bogus
  assert_failure 2
  assert_output --partial "error: test takes no flags or arguments (got '--bogus')"
  refute_output --partial "passed,"
  ((SECONDS < 10)) || fail "took ${SECONDS}s: the suite ran"
}

@test "report --dry-run: prints the one command it would run, runs nothing, exit 0 (item 14)" {
  lab report --dry-run --experiment experiment2
  assert_success
  assert_output "+ node $LAB/report/bin/lab-report.js --experiment experiment2"
  [[ ! -e $LAB/results ]] || fail "the report ran: $(find "$LAB/results" | head -3)"
}

@test "logs bogus --dry-run without Compose: unknown service, names the services and that Compose could not run; a known one prints its command (item 15)" {
  PATH=$(path_without_docker) run "$LAB/run.sh" logs bogus --dry-run </dev/null
  assert_failure 2
  assert_output --partial "error: unknown service 'bogus' (choose one of: "
  assert_output --regexp "choose one of: [^)]*grafana[^)]*shard01-a"
  assert_output --partial "'docker compose config' could not run here"
  refute_output --partial "run up --dry-run"
  PATH=$(path_without_docker) run "$LAB/run.sh" logs shard01-a --dry-run </dev/null
  assert_success
  assert_output --regexp "^\+ env .* docker compose .* logs --follow --tail 200 shard01-a$"
}

@test "down, status, destroy, logs and shell do not open with the loader-and-cluster CPU warning; up still says it (item 16)" {
  local verb
  for verb in down status "destroy --yes" logs shell; do
    # shellcheck disable=SC2086  # the verb's words
    LAB_HOST_CPUS=2 run "$LAB/run.sh" $verb --dry-run </dev/null
    refute_output --partial "share every CPU"
  done
  LAB_HOST_CPUS=2 run "$LAB/run.sh" up --dry-run </dev/null
  assert_output --partial "warning: the Docker host has 2 CPU(s), fewer than profile laptop's data_cpus (2) + loader_cores (1)"
}

@test "an unknown engine: 'did you mean' for a near name; perconaft points at README's Engines table (item 23)" {
  lab up --engine wiredtigr --dry-run
  assert_failure 2
  assert_output --partial "error: unknown engine 'wiredtigr' (choose one of: wiredtiger inmemory percona-wt mmapv1 rocksdb); did you mean 'wiredtiger'?"
  cp "$REPO/README.md" "$LAB/" # the table the message points at
  lab up --engine perconaft --dry-run
  assert_failure 2
  assert_output --partial "; perconaft is listed in README \"Engines\" as not added, with why and what to check"
  grep -qF "| \`perconaft\` | not added |" "$REPO/README.md" || fail "README's Engines table no longer lists perconaft as not added"
  lab up --engine zzz --dry-run
  assert_failure 2
  refute_output --partial "did you mean"
  nothing_started
}

@test "NAME --help: that experiment's usage and its workload's own flags within 120 columns, not the global help (item 23)" {
  lab gridfs --help
  assert_success
  assert_line --index 0 "Usage: ./run.sh gridfs [--engine E | --uri URI] [flags]"
  assert_output --regexp "  --file-size +generated file size"
  refute_output --partial "Cluster:"
  local wide
  wide=$(awk 'length($0) > 120' <<<"$output")
  [[ -z $wide ]] || fail "over 120 columns: $wide"
  lab up --help
  assert_success
  assert_output --partial "Cluster:"
  nothing_started
}
