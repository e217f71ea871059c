#!/usr/bin/env bats
# run.sh's Kubernetes verbs (lib/k8s.sh, k8s/*.sh) with a stub kubectl (test/stub/kubectl) and the
# stub docker: the exact command lines, what is applied (the stub keeps each "-f -" stdin), and
# the one-line refusals. The manifests themselves are checked by real tools in
# test/suites/70-k8s.sh (kubeconform, kube-apiserver, the operator's own code).

# shellcheck disable=SC2030,SC2031

load test_helper

setup() {
  setup_lab
  cp -R "$REPO/k8s" "$REPO/dashboards" "$LAB/"
  export STUB_KUBECTL_LOG=$BATS_TEST_TMPDIR/kubectl.log
  export STUB_KUBECTL_RULES=$BATS_TEST_TMPDIR/kubectl.rules
  export STUB_KUBECTL_STDIN=$BATS_TEST_TMPDIR/applied
  : >"$STUB_KUBECTL_LOG"
  : >"$STUB_KUBECTL_RULES"
  # Engines of the test's own, so the tests do not depend on the table's current rows: one the
  # operator runs per engine word, and one per reason it refuses.
  local row
  for row in \
    "k8s-wt|percona/percona-server-mongodb:8.0|1001|test|wiredTiger|yes|yes|fsync|8.0|mongosh" \
    "k8s-mem|percona/percona-server-mongodb:8.0|1001|test|inMemory|no|no|fsync|8.0|mongosh" \
    "k8s-upstream|mongo:8.0|999|test|wiredTiger|yes|yes|fsync|8.0|mongosh" \
    "k8s-old|percona/percona-server-mongodb:4.0|1001|test|wiredTiger|yes|yes|fsync|4.0|mongo" \
    "k8s-mmap|percona/percona-server-mongodb:8.0|1001|test|mmapv1|yes|yes|fsync|8.0|mongosh"; do
    tr '|' '\t' <<<"$row" >>"$LAB/compose/engines.tsv"
  done
}

krule() { printf '%s\t%s\t%s\n' "$1" "$2" "${3:-}" >>"$STUB_KUBECTL_RULES"; }
kcalls() { cat "$STUB_KUBECTL_LOG"; }
assert_kcalled() {
  local line
  while IFS= read -r line; do
    # shellcheck disable=SC2053
    [[ $line == $1 ]] && return 0
  done <"$STUB_KUBECTL_LOG"
  fail "no kubectl call matches: $1"$'\n'"calls:"$'\n'"$(kcalls)"
}
applied() { cat "$STUB_KUBECTL_STDIN"/*.yaml 2>/dev/null; }

@test "k8s up --dry-run: prints the kubectl commands and the manifests, runs nothing" {
  lab k8s up --engine k8s-wt --registry reg.example/lab --dry-run
  assert_success
  assert_output --partial "+ docker build -t reg.example/lab/lab-mongodb-exporter:0.43.1"
  assert_output --partial "+ kubectl apply --server-side --force-conflicts -n lab-k8s-wt -f https://raw.githubusercontent.com/percona/percona-server-mongodb-operator/v1.23.0/deploy/bundle.yaml"
  assert_output --partial "kind: PerconaServerMongoDB"
  assert_output --partial "engine: wiredTiger"
  assert_output --partial "+ kubectl -n lab-k8s-wt wait psmdb/lab"
  [[ ! -s $STUB_KUBECTL_LOG ]] || fail "kubectl ran under --dry-run: $(kcalls)"
  [[ ! -s $STUB_DOCKER_LOG ]] || fail "docker ran under --dry-run: $(calls)"
  [[ ! -e $LAB/.secrets ]] || fail "--dry-run wrote secrets"
}

@test "k8s up: pushes the exporter, installs the pinned operator, secrets from files, applies, waits" {
  lab k8s up --engine k8s-mem --registry reg.example/lab --context kind-lab
  assert_success
  assert_called "build -t reg.example/lab/lab-mongodb-exporter:0.43.1 *"
  assert_called "push reg.example/lab/lab-mongodb-exporter:0.43.1"
  assert_kcalled "--context kind-lab -n lab-k8s-mem get deployment percona-server-mongodb-operator *"
  assert_kcalled "--context kind-lab apply --server-side --force-conflicts -n lab-k8s-mem -f https://raw.githubusercontent.com/percona/percona-server-mongodb-operator/v1.23.0/deploy/bundle.yaml"
  assert_kcalled "--context kind-lab -n lab-k8s-mem create secret generic lab-secrets --from-env-file=$LAB/.secrets/k8s-k8s-mem/users.env --dry-run=client -o yaml"
  assert_kcalled "--context kind-lab -n lab-k8s-mem wait psmdb/lab --for=jsonpath={.status.state}=ready --timeout=20m"
  # the generated passwords never reach a command line
  local pw
  for pw in $(grep -o 'PASSWORD=.*' "$LAB/.secrets/k8s-k8s-mem/users.env" | cut -d= -f2) $(cat "$LAB/.secrets/k8s-k8s-mem/grafana-admin-password"); do
    ! grep -qF -- "$pw" "$STUB_KUBECTL_LOG" "$STUB_DOCKER_LOG" || fail "a password is on a command line"
  done
  [[ $(stat -c %a "$LAB/.secrets/k8s-k8s-mem") == 700 ]]
  applied | grep -q "engine: inMemory" || fail "no inMemory PerconaServerMongoDB applied"
  applied | grep -q "name: lab-grafana-dashboards" || fail "dashboards not applied"
}

@test "k8s up: an operator of another version in the namespace is refused in one line" {
  krule "* get deployment percona-server-mongodb-operator *" 0 "percona/percona-server-mongodb-operator:1.21.0"
  lab k8s up --engine k8s-wt --registry r
  assert_failure 1
  assert_output --partial "runs operator image percona/percona-server-mongodb-operator:1.21.0; the lab pins 1.23.0"
  refute_output --partial "bundle.yaml"
  ! grep -q "kind: PerconaServerMongoDB" <(applied) || fail "the cluster was applied anyway"
}

@test "k8s up: the pinned operator already there is used, not reinstalled" {
  krule "* get deployment percona-server-mongodb-operator *" 0 "percona/percona-server-mongodb-operator:1.23.0"
  lab k8s up --engine k8s-wt --registry r
  assert_success
  ! grep -q "bundle.yaml" "$STUB_KUBECTL_LOG" || fail "reinstalled the operator"
}

@test "k8s up: engines the operator cannot run are refused in one line naming why, before anything runs" {
  local e
  for e in k8s-upstream:"runs mongo:8.0; the Percona Operator runs only Percona Server" \
    k8s-old:"is MongoDB 4.0; the Percona Operator v1.23.0 runs only 6.0, 7.0 and 8.0" \
    k8s-mmap:"uses the mmapv1 storage engine; the Percona Operator runs only wiredTiger and inMemory"; do
    lab k8s up --engine "${e%%:*}" --registry r
    assert_failure 2
    assert_line --index 0 "error: engine '${e%%:*}' ${e#*:}$(sed 's/.*Percona Server$/ for MongoDB images (percona\/percona-server-mongodb)/;t;s/.*//' <<<"${e#*:}")"
  done
  [[ ! -s $STUB_KUBECTL_LOG && ! -s $STUB_DOCKER_LOG ]] || fail "something ran: $(kcalls) $(calls)"
}

@test "k8s: bad input is one line, exit 2, nothing run" {
  local args
  for args in "up --engine k8s-wt" "up --engine k8s-wt --registry r --placement everywhere" \
    "up --engine k8s-wt --registry r --namespace Bad_NS" "up --engine k8s-wt --registry r --storage-size 20GB" \
    "up --engine nosuch --registry r" "launch --engine k8s-wt" "status --engine k8s-wt extra" ""; do
    # shellcheck disable=SC2086  # words on purpose
    lab k8s $args
    assert_failure 2
    [[ ${lines[0]} == error:* ]] || fail "'k8s $args': $output"
  done
  [[ ! -s $STUB_KUBECTL_LOG && ! -s $STUB_DOCKER_LOG ]] || fail "something ran: $(kcalls) $(calls)"
}

@test "k8s up: placement auto shares nodes, with a warning, when too few nodes carry lab.role" {
  krule "get nodes -l lab.role=shard -o name" 0 "node/a"
  krule "get nodes -l lab.role=*" 0 "node/a\nnode/b\nnode/c"
  lab k8s up --engine k8s-wt --registry r
  assert_success
  assert_output --partial "too few nodes labelled lab.role (shard: 1 of 3)"
  applied | grep -q "antiAffinityTopologyKey: none" || fail "members were not allowed to share nodes"
  ! applied | grep -q "lab.role: shard" || fail "nodeSelector kept"
}

@test "k8s up: placement auto is one member per node when enough nodes are labelled" {
  krule "get nodes -l lab.role=*" 0 "node/a\nnode/b\nnode/c"
  lab k8s up --engine k8s-wt --registry r
  assert_success
  applied | grep -q "lab.role: shard" || fail "no nodeSelector"
  applied | grep -q "antiAffinityTopologyKey: kubernetes.io/hostname" || fail "no anti-affinity"
}

@test "k8s status / down / destroy: the engine's namespace, pause for engines that keep data" {
  lab k8s status --engine k8s-wt --namespace bench
  assert_success
  assert_kcalled "-n bench get psmdb,statefulsets,deployments,pods -o wide"
  lab k8s down --engine k8s-wt
  assert_success
  assert_kcalled '-n lab-k8s-wt patch psmdb/lab --type=merge -p {"spec":{"pause":true}}'
  assert_kcalled "-n lab-k8s-wt scale deployment/prometheus deployment/grafana --replicas=0"
  lab k8s down --engine k8s-mem
  assert_success
  assert_kcalled "-n lab-k8s-mem delete psmdb/lab --ignore-not-found --wait=true"
  ! grep -q "lab-k8s-mem patch" "$STUB_KUBECTL_LOG" || fail "inMemory paused instead of removed"
  : >"$STUB_KUBECTL_LOG"
  lab k8s destroy --engine k8s-wt
  assert_failure 2
  assert_output --partial "add --yes to confirm"
  [[ ! -s $STUB_KUBECTL_LOG ]] || fail "destroy ran without --yes: $(kcalls)"
  lab k8s destroy --engine k8s-wt --yes
  assert_success
  assert_kcalled "delete namespace lab-k8s-wt --ignore-not-found --wait=true"
}

@test "experiment --on k8s: an Indexed Job of N pods, each with its share of the clients" {
  krule "get nodes -l lab.role=client -o name" 0 "node/x\nnode/y\nnode/z"
  lab experiment2 --on k8s --loaders 3 --clients 3,6 --engine k8s-wt --registry r --duration 10s
  assert_kcalled "-n lab-k8s-wt wait job/lab-experiment2-* --for=condition=complete --timeout=24h"
  assert_kcalled "-n lab-k8s-wt logs -l batch.kubernetes.io/job-name=lab-experiment2-* --prefix --tail=-1 --max-log-requests=3"
  assert_called "build -t r/lab-loader:* -f $LAB/images/loader/Dockerfile $LAB"
  local job
  job=$(applied)
  grep -q "completionMode: Indexed" <<<"$job" || fail "not Indexed"
  grep -q "completions: 3" <<<"$job" && grep -q "parallelism: 3" <<<"$job" || fail "not 3 pods at once"
  grep -A1 -- '- "--clients"' <<<"$job" | grep -q '"1,2"' || fail "clients not split 3,6 -> 1,2 per pod"
  grep -A1 -- '- "--group"' <<<"$job" | grep -q '"k8s-experiment2-k8s-wt-' || fail "no shared group"
  grep -q "whenUnsatisfiable: DoNotSchedule" <<<"$job" || fail "pods not spread one per node"
}

@test "experiment --on k8s: bad input is one line, exit 2, nothing run" {
  local args
  for args in "--on k8s --loaders 3 --clients 4 --registry r" "--on k8s --loaders 2 --registry r" \
    "--on k8s --loaders 0 --clients 2 --registry r" "--on k8s --clients 2" "--on moon --registry r" \
    "--on k8s --registry r --uri mongodb://x/" "--on k8s --registry r --group g"; do
    # shellcheck disable=SC2086
    lab experiment2 --engine k8s-wt $args
    assert_failure 2
    [[ ${lines[0]} == error:* ]] || fail "'$args': $output"
  done
  lab experiment2 --engine k8s-upstream --on k8s --registry r
  assert_failure 2
  assert_line --index 0 --partial "error: engine 'k8s-upstream' runs mongo:8.0"
  [[ ! -s $STUB_KUBECTL_LOG && ! -s $STUB_DOCKER_LOG ]] || fail "something ran: $(kcalls) $(calls)"
}

@test "fault --on k8s: failover and replica-lag plans under --dry-run; other scenarios refused in one line" {
  lab fault failover --on k8s --engine k8s-wt --dry-run
  assert_success
  assert_output --partial "+ kubectl -n lab-k8s-wt exec -i lab-rs0-0 -c mongod -- mongosh --quiet --norc <<< "
  assert_output --partial "+ kubectl -n lab-k8s-wt delete pod PRIMARY --wait=false"
  lab fault replica-lag --on k8s --engine k8s-wt --member 2 --duration 5s --dry-run
  assert_success
  assert_output --partial "exec -i lab-rs0-2 -c mongod -- mongosh --quiet --norc <<< "
  assert_output --partial "fsyncLock()"
  assert_output --partial "fsyncUnlock()"
  [[ ! -s $STUB_KUBECTL_LOG ]] || fail "kubectl ran under --dry-run: $(kcalls)"
  local args
  for args in "stale-secondary" "failover --how partition" "replica-lag --method netem" "replica-lag --member 3" "replica-lag --duration 0s" "explode"; do
    # shellcheck disable=SC2086
    lab fault $args --on k8s --engine k8s-wt
    assert_failure 2
    [[ ${lines[0]} == error:* && ${#lines[@]} -le 2 ]] || fail "'$args': $output"
  done
  [[ ! -s $STUB_KUBECTL_LOG ]] || fail "kubectl ran: $(kcalls)"
}

@test "fault replica-lag --on k8s: fsyncLock then fsyncUnlock on the secondary, password on stdin only" {
  mkdir -p "$LAB/.secrets/k8s-k8s-wt"
  printf 'MONGODB_CLUSTER_ADMIN_USER=clusterAdmin\nMONGODB_CLUSTER_ADMIN_PASSWORD=s3cretPW\n' >"$LAB/.secrets/k8s-k8s-wt/users.env"
  krule "-n lab-k8s-wt exec -i lab-rs0-* -c mongod -- mongosh --quiet --norc" 0 "lab-rs0-0.lab-rs0.lab-k8s-wt.svc.cluster.local:27017"
  lab fault replica-lag --on k8s --engine k8s-wt --member 1 --duration 1s
  assert_success
  assert_output --partial "fsyncLock on lab-rs0-1 for 1 s"
  assert_output --partial "fsyncUnlock on lab-rs0-1: healed"
  assert_kcalled "-n lab-k8s-wt exec -i lab-rs0-1 -c mongod -- mongosh --quiet --norc"
  ! grep -q s3cretPW "$STUB_KUBECTL_LOG" || fail "password on a command line"
  lab fault replica-lag --on k8s --engine k8s-wt --member 0 --duration 1s
  assert_failure 2
  assert_output --partial "lab-rs0-0 is the primary now"
}
