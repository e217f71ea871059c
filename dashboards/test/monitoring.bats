#!/usr/bin/env bats
# lib/monitoring.sh: what `up` prints and publishes for monitoring, and smoke_monitoring's dry run.
# (The live checks are in dashboards/test/run-tests.sh; the Docker-host proof is ./run.sh smoke.)

load '/usr/lib/bats/bats-support/load'
load '/usr/lib/bats/bats-assert/load'

REPO=$(cd "$BATS_TEST_DIRNAME/../.." && pwd)

setup() {
  LAB_ROOT=$REPO
  # lib/common.sh is not sourced: its run() (dry-run runner) would shadow bats' run.
  # shellcheck source=lib/tables.sh
  source "$REPO/lib/tables.sh"
  # shellcheck source=lib/monitoring.sh
  source "$REPO/lib/monitoring.sh"
  ENGINE=inmemory MONITORING=1 DRY_RUN=0
}

@test "monitoring_after_up prints the four dashboard URLs for the engine, Grafana and Prometheus" {
  run monitoring_after_up
  assert_success
  assert_output --partial "http://127.0.0.1:3000/d/lab-cluster-overview?var-engine=inmemory"
  assert_output --partial "http://127.0.0.1:3000/d/lab-engine-cache?var-engine=inmemory"
  assert_output --partial "http://127.0.0.1:3000/d/lab-disk-host?var-engine=inmemory"
  assert_output --partial "http://127.0.0.1:3000/d/lab-replication?var-engine=inmemory"
  assert_output --partial ".secrets/inmemory/grafana-admin-password"
  assert_output --partial "http://127.0.0.1:9090/targets"
  refute_output --regexp "0\.0\.0\.0|localhost:"
}

@test "every dashboard uid monitoring_after_up prints exists in dashboards/*.json" {
  local uid
  while IFS=$'\t' read -r uid _; do
    grep -lq "\"uid\": \"$uid\"" "$REPO"/dashboards/*.json || fail "no dashboard with uid $uid"
  done <<<"$MONITORING_DASHBOARDS"
}

@test "--no-monitoring: no URLs, no ports" {
  MONITORING=0
  run monitoring_after_up
  assert_success
  assert_output ""
  run monitoring_ports
  assert_output ""
}

@test "monitoring_ports: Grafana 3000 and Prometheus 9090 (preflight checks them)" {
  run monitoring_ports
  assert_output $'3000\n9090'
}

@test "smoke_monitoring --dry-run runs nothing and says what it would check" {
  DRY_RUN=1
  run smoke_monitoring inmemory
  assert_success
  assert_output --partial "would query every dashboard panel"
}
