#!/usr/bin/env bats
# run.sh's Kubernetes verbs (lib/k8s.sh, k8s/*.sh) with a stub kubectl (test/stub/kubectl) and the
# stub docker: the exact command lines, what is applied (the stub keeps each "-f -" stdin), and
# the one-line refusals: every k8s command line, the watch over the loader pods (a failed pod named
# in one line, the others stopped, the run ending after 40 s when they do not hand over, everything
# collected from bundles, not logs) and the node-fit refusal. The manifests themselves are checked
# by real tools in test/suites/70-k8s.sh (kubeconform, kube-apiserver, the operator's own code), the
# loaders' Job as processes in test/suites/72-k8s-loaders.sh.

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
  local t=$LAB/compose/engines.tsv rows
  rows=$(engine_row_like "$t" percona-wt k8s-wt
    engine_row_like "$t" inmemory k8s-mem
    engine_row_like "$t" wiredtiger k8s-upstream
    engine_row_like "$t" percona-wt k8s-old image=percona/percona-server-mongodb:4.0 server_line=4.0 shell=mongo
    engine_row_like "$t" percona-wt k8s-mmap server_engine=mmapv1)
  printf '%s\n' "$rows" >>"$t"
  # each engine's storage declaration (compose/engines/<engine>.yml), from the table's engine of
  # the same storage engine
  cp "$LAB/compose/engines/percona-wt.yml" "$LAB/compose/engines/k8s-wt.yml"
  cp "$LAB/compose/engines/inmemory.yml" "$LAB/compose/engines/k8s-mem.yml"
  cp "$LAB/compose/engines/wiredtiger.yml" "$LAB/compose/engines/k8s-upstream.yml"
  cp "$LAB/compose/engines/percona-wt.yml" "$LAB/compose/engines/k8s-old.yml"
  cp "$LAB/compose/engines/mmapv1.yml" "$LAB/compose/engines/k8s-mmap.yml"
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
  assert_output --regexp "DOCKER_BUILDKIT=1 docker build --build-arg LOADER_DEPS=(host|registry) -t reg.example/lab/lab-mongodb-exporter:0.43.1"
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
  assert_called "build --build-arg LOADER_DEPS=* -t reg.example/lab/lab-mongodb-exporter:0.43.1 *"
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
  # lib/secrets.sh secret_password's: 32 characters of [A-Za-z0-9]; Grafana's file holds no newline
  [[ $(grep -cE '^MONGODB_[A-Z_]+_PASSWORD=[A-Za-z0-9]{32}$' "$LAB/.secrets/k8s-k8s-mem/users.env") == 5 ]] ||
    fail "users.env: $(sed 's/=.*/=.../' "$LAB/.secrets/k8s-k8s-mem/users.env")"
  grep -qE '^[A-Za-z0-9]{32}$' "$LAB/.secrets/k8s-k8s-mem/grafana-admin-password" &&
    [[ $(wc -c <"$LAB/.secrets/k8s-k8s-mem/grafana-admin-password") == 32 ]] || fail "grafana-admin-password is not 32 characters"
  applied | grep -q "engine: inMemory" || fail "no inMemory PerconaServerMongoDB applied"
  applied | grep -q "name: lab-grafana-dashboards" || fail "dashboards not applied"
  # up unpauses a cluster that down paused: spec.pause false through pause's own manager, after
  # the CR (whose manifest never names pause, so the lab manager never owns it)
  assert_kcalled "--context kind-lab apply --server-side --field-manager=lab-pause --force-conflicts -f -"
  local last
  last=$(find "$STUB_KUBECTL_STDIN" -name '*.yaml' | sort -V | tail -1)
  grep -q "^  pause: false$" "$last" || fail "up did not end with pause: false ($(cat "$last"))"
  # the CR's own document whole (each applied file split at ---), not a window of lines above its
  # storage engine: no pause: anywhere in it
  local cr
  cr=$(awk 'function out() { if (doc ~ /kind: PerconaServerMongoDB/ && doc ~ /engine: inMemory/) printf "%s", doc; doc = "" }
    FNR == 1 { out() } /^---/ { out(); next } { doc = doc $0 "\n" } END { out() }' "$STUB_KUBECTL_STDIN"/*.yaml)
  [[ -n $cr ]] || fail "no PerconaServerMongoDB with engine: inMemory among the applied documents"
  ! grep -qE '^ *pause:' <<<"$cr" || fail "the CR names pause (the lab manager would own it): $(grep -nE '^ *pause:' <<<"$cr")"
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

@test "k8s up: --storage-size not a quantity in 1Gi..64Ti, --storage-class not a DNS subdomain: refused, no manifest" {
  local args want words
  while IFS='|' read -r args want; do
    # the case's words; \x20 in one is a space within it
    read -r -a words <<<"$args"
    lab k8s up --engine k8s-wt --registry r --dry-run "${words[@]//\\x20/ }"
    assert_failure 2
    assert_line --index 0 --partial "error: $want"
    [[ ${#lines[0]} -le 120 ]] || fail "over 120 columns: ${lines[0]}"
    refute_output --partial "storage:"
  done <<'CASES'
--storage-size 99999999999Ti|--storage-size must be between 1Gi and 64Ti (got '99999999999Ti'): each member's
--storage-size 500Mi|--storage-size must be between 1Gi and 64Ti (got '500Mi'): each member's volume holds its data
--storage-size 20GB|--storage-size must be a size like 20Gi (a Kubernetes quantity: Mi, Gi, Ti or M, G, T; got '20GB')
--storage-size 0.0Gi|--storage-size must be more than zero (got '0.0Gi'): each member's volume holds its data
--storage-class a\x20b|--storage-class 'a b' is not a StorageClass name (a-z, 0-9, '-', '.'; kubectl get storageclass)
--storage-class Fast|--storage-class 'Fast' is not a StorageClass name (a-z, 0-9, '-', '.'; kubectl get storageclass)
--storage-class fast..ssd|--storage-class 'fast..ssd' is not a StorageClass name (a-z, 0-9, '-', '.';
CASES
  [[ ! -s $STUB_KUBECTL_LOG && ! -s $STUB_DOCKER_LOG ]] || fail "something ran: $(kcalls) $(calls)"
  # a quantity Kubernetes takes, and a dotted class name, reach the PVC as given
  lab k8s up --engine k8s-wt --registry r --dry-run --storage-size 1.5Ti --storage-class fast.ssd-1
  assert_success
  assert_output --partial "storage: 1.5Ti"
  assert_output --partial "storageClassName: fast.ssd-1"
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

# k8s_nodes_json NAME:CPU:MEMORY...: a `kubectl get nodes -o json` answer with allocatable resources.
k8s_nodes_json() {
  local spec items=""
  for spec in "$@"; do
    IFS=: read -r n c m <<<"$spec"
    items+="${items:+,}{\"metadata\":{\"name\":\"$n\"},\"status\":{\"allocatable\":{\"cpu\":\"$c\",\"memory\":\"$m\"}}}"
  done
  printf '{"items":[%s]}' "$items"
}

@test "k8s up: a profile whose member pod fits no labelled node is refused in one line naming the node and the need" {
  # a 4-vCPU node allocates 3920m after the kubelet's reserve: seed2013's shard pod asks 4000m
  krule "get nodes -l lab.role=shard -o json" 0 "$(k8s_nodes_json a:3920m:7Gi b:8:16284052Ki c:8:16Gi)"
  krule "get nodes -l lab.role=* -o json" 0 "$(k8s_nodes_json x:8:16Gi)"
  krule "get nodes -l lab.role=*" 0 "node/a\nnode/b\nnode/c"
  lab k8s up --engine k8s-wt --registry r --profile seed2013
  assert_failure 1
  assert_line "error: nodes labelled lab.role=shard are too small for profile seed2013: a allocates 3920m CPU / 7168Mi; each shard member's pod asks 4000m CPU / 2176Mi (the profile's 4 CPUs, the exporter's 250m among them, and 2g + the exporter's 128Mi): use nodes that allocate that much (kubectl describe node: Allocatable), or another --profile"
  [[ ! -s $STUB_DOCKER_LOG ]] || fail "something was built before the refusal: $(calls)"
  ! grep -q "kind: PerconaServerMongoDB" <(applied) || fail "the cluster was applied anyway"
  # nodes that allocate enough: up goes on
  : >"$STUB_KUBECTL_RULES"
  krule "get nodes -l lab.role=* -o json" 0 "$(k8s_nodes_json a:4:2300Mi b:4:3Gi c:4:3Gi)"
  krule "get nodes -l lab.role=*" 0 "node/a\nnode/b\nnode/c"
  lab k8s up --engine k8s-wt --registry r --profile seed2013
  assert_success
  refute_output --partial "too small"
}

@test "k8s up: placement auto is one member per node when enough nodes are labelled" {
  krule "get nodes -l lab.role=*" 0 "node/a\nnode/b\nnode/c"
  lab k8s up --engine k8s-wt --registry r
  assert_success
  applied | grep -q "lab.role: shard" || fail "no nodeSelector"
  # one member per node across every lab namespace (affinity.advanced), not only within the cluster
  applied | grep -q "namespaceSelector:" || fail "no anti-affinity across the lab's namespaces"
  applied | grep -A1 "matchExpressions:" | grep -q "{key: lab.engine, operator: Exists}" || fail "anti-affinity not across the lab's namespaces"
}

@test "k8s status / down / destroy: the engine's namespace, pause for engines that keep data" {
  lab k8s status --engine k8s-wt --namespace bench
  assert_success
  assert_kcalled "-n bench get psmdb,statefulsets,deployments,pods -o wide"
  lab k8s down --engine k8s-wt
  assert_success
  # spec.pause has one field manager of its own (lab-pause), for down and up alike
  assert_kcalled "apply --server-side --field-manager=lab-pause --force-conflicts -f -"
  applied | grep -q "^  pause: true$" || fail "down did not apply pause: true"
  ! grep -q "patch psmdb" "$STUB_KUBECTL_LOG" || fail "pause set by kubectl patch (manager kubectl-patch)"
  ! applied | grep -q "^  pause: false$" || fail "down unpaused"
  assert_kcalled "-n lab-k8s-wt scale deployment/prometheus deployment/grafana --replicas=0"
  : >"$STUB_KUBECTL_LOG"
  lab k8s down --engine k8s-mem
  assert_success
  assert_kcalled "-n lab-k8s-mem delete psmdb/lab --ignore-not-found --wait=true"
  # paused as the others are (spec.pause through its own manager), or by any patch: not for inMemory
  ! grep -qE -- "--field-manager=lab-pause| patch " "$STUB_KUBECTL_LOG" ||
    fail "inMemory paused (it is removed): $(grep -E -- "--field-manager=lab-pause| patch " "$STUB_KUBECTL_LOG")"
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
  krule "-n lab-k8s-wt get pods -l batch.kubernetes.io/job-name=* -o json" 0 "$(k8s_pods_json 0:Failed:false:1 1:Failed:false:1 2:Failed:false:1)"
  export LAB_K8S_POLL_S=0.1
  lab experiment2 --on k8s --loaders 3 --clients 3,6 --engine k8s-wt --registry r --duration 10s
  assert_kcalled "-n lab-k8s-wt get pods -l batch.kubernetes.io/job-name=lab-experiment2-* -o json"
  assert_called "build --build-arg LOADER_DEPS=* -t r/lab-loader:* -f $LAB/images/loader/Dockerfile $LAB"
  local job
  job=$(applied)
  grep -q "completionMode: Indexed" <<<"$job" || fail "not Indexed"
  grep -q "completions: 3" <<<"$job" && grep -q "parallelism: 3" <<<"$job" || fail "not 3 pods at once"
  # the loader splits the clients (--share-of): each pod runs 1,2 of 3,6
  grep -A1 -- '- "--clients"' <<<"$job" | grep -q '"3,6"' || fail "clients not passed through as given"
  grep -A1 -- '- "--share-of"' <<<"$job" | grep -q '"3"' || fail "no --share-of 3"
  grep -A1 -- '- "--group"' <<<"$job" | grep -q '"k8s-experiment2-k8s-wt-' || fail "no shared group"
  grep -q "whenUnsatisfiable: DoNotSchedule" <<<"$job" || fail "pods not spread one per node"
  grep -A8 "podAntiAffinity:" <<<"$job" | grep -q "{key: lab.engine, operator: Exists}" || fail "loader pods may share a node with another engine's loaders"
  grep -q "backoffLimitPerIndex: 0" <<<"$job" || fail "a failed pod would not be limited to its own index"
  ! grep -q "^  backoffLimit:" <<<"$job" || fail "backoffLimit would terminate every pod at the first failure"
}

# k8s_pods_json SPEC...: a `kubectl get pods -o json` answer, one pod per "index:phase:ready:exit".
k8s_pods_json() {
  local spec idx phase ready code items=""
  for spec in "$@"; do
    IFS=: read -r idx phase ready code <<<"$spec"
    local term=""
    [[ $code == - ]] || term=",\"state\":{\"terminated\":{\"exitCode\":$code}}"
    items+="${items:+,}{\"metadata\":{\"name\":\"lab-e-$idx\",\"annotations\":{\"batch.kubernetes.io/job-completion-index\":\"$idx\"}},\"status\":{\"phase\":\"$phase\",\"containerStatuses\":[{\"name\":\"loader\",\"ready\":$ready$term}]}}"
  done
  printf '{"items":[%s]}' "$items"
}

# k8s_bundle INDEX: what loader-pod.js leaves in <scratch>/out/results.ndjson: a summary.json of
# a stopped (incomplete) loader.
k8s_bundle() {
  local b64
  b64=$(printf '{"schema_version":1,"complete":false,"reason":"stopped by SIGTERM","group":"g","steps":[]}' | base64 -w0)
  # one rules line: \\n is turned into a newline by the stub
  printf 'LAB-RESULT {"index":%s,"path":"experiment2/k8s-wt/20260101T000000Z/summary.json","part":0,"parts":1,"b64":"%s"}\\nLAB-RESULT-END {"index":%s,"files":1,"exit":143,"stopped":true}' "$1" "$b64" "$1"
}

@test "experiment --on k8s: a failed loader pod is named in one line with its exit and last log lines; the others' parts are kept, the run marked incomplete" {
  ln -s "$REPO/report" "$LAB/report"
  export LAB_K8S_POLL_S=0.1 LAB_K8S_STOP_WAIT_S=2
  krule "get nodes -l lab.role=client -o name" 0 "node/x\nnode/y\nnode/z"
  krule "-n lab-k8s-wt get pods -l batch.kubernetes.io/job-name=* -o json" 0 "$(k8s_pods_json 0:Running:true:- 1:Failed:false:3 2:Running:true:-)"
  krule "-n lab-k8s-wt logs lab-e-1 -c loader --tail=200" 0 "loader-pod 1: all 3 loaders ready\nlab-loader: JavaScript heap out of memory\nloader-pod 1: the loader exited with 3\nLAB-RESULT-END {\"index\":1,\"files\":0,\"exit\":3}"
  krule "-n lab-k8s-wt logs lab-e-1 -c loader --tail=-1" 0 "LAB-RESULT-END {\"index\":1,\"files\":0,\"exit\":3}"
  krule "-n lab-k8s-wt exec lab-e-0 -c loader -- cat /tmp/lab/out/results.ndjson" 0 "$(k8s_bundle 0)"
  krule "-n lab-k8s-wt exec lab-e-2 -c loader -- cat /tmp/lab/out/results.ndjson" 0 "$(k8s_bundle 2)"
  krule "-n lab-k8s-wt get pods -l app.kubernetes.io/instance=lab -o json" 0 '{"items":[{"metadata":{"name":"lab-rs0-0"},"spec":{"nodeName":"n1"},"status":{"containerStatuses":[{"name":"mongod","image":"percona/percona-server-mongodb:8.0.26-11","imageID":"docker.io/percona/percona-server-mongodb@sha256:aaa"},{"name":"lab-exporter","image":"x","imageID":"y"}]}},{"metadata":{"name":"lab-cfg-0"},"spec":{"nodeName":"n2"},"status":{"containerStatuses":[{"name":"mongod","image":"percona/percona-server-mongodb:8.0.26-11","imageID":"docker.io/percona/percona-server-mongodb@sha256:bbb"}]}}]}'
  lab experiment2 --on k8s --loaders 3 --clients 3 --engine k8s-wt --registry r --duration 10s
  assert_failure 1
  assert_line "error: loader pod lab-e-1 (index 1) failed with exit 3; last log lines: loader-pod 1: all 3 loaders ready | lab-loader: JavaScript heap out of memory | loader-pod 1: the loader exited with 3"
  [[ $(grep -c "^error: loader pod" <<<"$output") == 1 ]] || fail "the failure was not said exactly once: $output"
  assert_output --partial "warning: the members ran different server builds: docker.io/percona/percona-server-mongodb@sha256:aaa, docker.io/percona/percona-server-mongodb@sha256:bbb"
  local run
  run=$(echo "$LAB"/results/experiment2/k8s-wt/*-k8s)
  [[ -d $run/pod-0 && -d $run/pod-2 ]] || fail "the other pods' parts were not kept: $(find "$LAB/results")"
  jq -e '.complete == false and (.reason | test("pod 1: the loader exited with 3"))' "$run/pod-0/summary.json" || fail "pod-0 not marked: $(cat "$run/pod-0/summary.json")"
  jq -e '.k8s.server_image == "percona/percona-server-mongodb:8.0.26-11" and .k8s.members["lab-rs0-0"].image_id == "docker.io/percona/percona-server-mongodb@sha256:aaa"' "$run/pod-2/summary.json" || fail "no server image in the summary"
  jq -e '.complete == false and ([.pods[].state] == ["stopped", "failed", "stopped"])' "$run/k8s-run.json" || fail "$(cat "$run/k8s-run.json")"
  # the pods that waited for collection are released; the bundle, not the log, carried their results
  assert_kcalled "-n lab-k8s-wt exec lab-e-0 -c loader -- touch /tmp/lab/out/collected"
  assert_kcalled "-n lab-k8s-wt exec lab-e-2 -c loader -- touch /tmp/lab/out/collected"
  ! grep -q "logs lab-e-0" "$STUB_KUBECTL_LOG" || fail "a healthy pod's results were read from its log"
}

@test "experiment --on k8s: after a failure the running pods are stopped, and the run ends when they do not hand over in time" {
  ln -s "$REPO/report" "$LAB/report"
  export LAB_K8S_POLL_S=0.1 LAB_K8S_STOP_WAIT_S=1
  krule "get nodes -l lab.role=client -o name" 0 "node/x\nnode/y"
  krule "-n lab-k8s-wt get pods -l batch.kubernetes.io/job-name=* -o json" 0 "$(k8s_pods_json 0:Running:false:- 1:Failed:false:137)"
  krule "-n lab-k8s-wt logs lab-e-1 -c loader --tail=200" 0 "loader-pod 1: starting"
  lab experiment2 --on k8s --loaders 2 --clients 2 --engine k8s-wt --registry r --duration 10s
  assert_failure 1
  assert_line --partial "error: loader pod lab-e-1 (index 1) failed with exit 137; last log lines: loader-pod 1: starting"
  assert_kcalled "-n lab-k8s-wt exec lab-e-0 -c loader -- touch /tmp/lab/stop"
  [[ $(grep -c "exec lab-e-0 -c loader -- touch /tmp/lab/stop" "$STUB_KUBECTL_LOG") == 1 ]] || fail "stopped more than once"
  assert_output --partial "after 1 s, 0 of 1 other loader pod(s) had handed over their results"
  local run
  run=$(echo "$LAB"/results/experiment2/k8s-wt/*-k8s)
  jq -e '.complete == false and ([.pods[] | "\(.state) \(.exit)"] == ["missing null", "failed 137"])' "$run/k8s-run.json" || fail "$(cat "$run/k8s-run.json")"
}

@test "experiment --on k8s: every pod's results collected from its bundle, the run complete" {
  ln -s "$REPO/report" "$LAB/report"
  export LAB_K8S_POLL_S=0.1
  krule "get nodes -l lab.role=client -o name" 0 "node/x\nnode/y"
  krule "-n lab-k8s-wt get pods -l batch.kubernetes.io/job-name=* -o json" 0 "$(k8s_pods_json 0:Running:true:- 1:Running:true:-)"
  local b64
  b64=$(printf '{"schema_version":1,"complete":true,"group":"g","steps":[]}' | base64 -w0)
  krule "-n lab-k8s-wt exec lab-e-* -c loader -- cat /tmp/lab/out/results.ndjson" 0 "LAB-RESULT {\"index\":0,\"path\":\"e/k/s/summary.json\",\"part\":0,\"parts\":1,\"b64\":\"$b64\"}\nLAB-RESULT-END {\"index\":0,\"files\":1,\"exit\":0}\nLAB-RESULT {\"index\":1,\"path\":\"e/k/s/summary.json\",\"part\":0,\"parts\":1,\"b64\":\"$b64\"}\nLAB-RESULT-END {\"index\":1,\"files\":1,\"exit\":0}"
  lab experiment2 --on k8s --loaders 2 --clients 2 --engine k8s-wt --registry r --duration 10s
  refute_output --partial "error: loader pod"
  refute_output --partial "incomplete"
  local run
  run=$(echo "$LAB"/results/experiment2/k8s-wt/*-k8s)
  jq -e '.complete == true' "$run/k8s-run.json" "$run/pod-0/summary.json" "$run/pod-1/summary.json" || fail "$(cat "$run/k8s-run.json")"
  ! grep -q "touch /tmp/lab/stop" "$STUB_KUBECTL_LOG" || fail "a pod was stopped"
}

@test "experiment --on k8s: bad input is one line, exit 2, nothing run" {
  local args
  # the loader beside run.sh checks the flags (it splits the clients per pod: --share-of)
  ln -s "$REPO/loader" "$LAB/loader"
  for args in "--on k8s --loaders 3 --clients 4 --registry r" "--on k8s --loaders 2 --registry r" \
    "--on k8s --loaders 0 --clients 2 --registry r" "--on k8s --clients 2" "--on moon --registry r" \
    "--on k8s --registry r --uri mongodb://x/" "--on k8s --registry r --group g"; do
    # shellcheck disable=SC2086
    lab experiment2 --engine k8s-wt $args
    assert_failure 2
    [[ ${lines[0]} == error:* ]] || fail "'$args': $output"
  done
  lab experiment2 --engine k8s-wt --on k8s --loaders 2 --clients 2 --registry r --sla p99=10ms
  assert_failure 2
  assert_line --index 0 "error: --sla searches one loader's rate: run it with --loaders 1$(
    ) (--loaders 2 would run 2 searches, each on its own)"
  lab experiment2 --engine k8s-upstream --on k8s --registry r
  assert_failure 2
  assert_line --index 0 --partial "error: engine 'k8s-upstream' runs mongo:8.0"
  [[ ! -s $STUB_KUBECTL_LOG && ! -s $STUB_DOCKER_LOG ]] || fail "something ran: $(kcalls) $(calls)"
}

@test "--on k8s --loaders N: each refusal one line in 120 columns; gridfs is told --loaders 1, not --clients" {
  ln -s "$REPO/loader" "$LAB/loader"
  local args
  for args in "experiment2 --loaders 99" "experiment2 --loaders 3 --clients 4" "ycsb-a --loaders 3 --threads 4" \
    "experiment2 --loaders 99 --clients 99 --sla p99=10ms" "gridfs --loaders 2"; do
    # shellcheck disable=SC2086  # words on purpose
    lab $args --engine k8s-wt --on k8s --registry r
    assert_failure 2
    [[ ${lines[0]} == error:* ]] || fail "'$args': $output"
    [[ ${#lines[0]} -le 120 && ${lines[1]:-} != " "* ]] || fail "'$args': over 120 columns or wrapped: $output"
  done
  assert_line --index 0 "error: --loaders 2: gridfs runs one upload stream, then one download stream: they do not$(
    ) split; run it with --loaders 1"
  refute_output --partial -- "--clients"
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

@test "--dry-run never touches the cluster: k8s status prints its kubectl line (it ran kubectl for real); --storage-size 0Gi refused before anything" {
  lab k8s status --engine k8s-wt --dry-run
  assert_success
  assert_output --partial "+ kubectl -n lab-k8s-wt get psmdb,statefulsets,deployments,pods -o wide"
  [[ ! -s $STUB_KUBECTL_LOG ]] || fail "kubectl was called under --dry-run: $(cat "$STUB_KUBECTL_LOG")"
  lab k8s up --engine k8s-wt --storage-size 0Gi --dry-run
  assert_failure 2
  assert_line --index 0 "error: --storage-size must be more than zero (got '0Gi'): each member's volume holds its data"
  [[ ! -s $STUB_KUBECTL_LOG ]] || fail "kubectl was called: $(cat "$STUB_KUBECTL_LOG")"
}

@test "a flag without its value, or a word that is no flag, is one line naming it (lib/common.sh flag_value)" {
  local args want
  while IFS='|' read -r args want; do
    # shellcheck disable=SC2086  # words on purpose
    lab $args
    assert_failure 2
    assert_line --index 0 "error: $want"
  done <<'CASES'
k8s up --engine k8s-wt --namespace|--namespace needs a value
experiment2 --engine k8s-wt --on k8s --loaders|--loaders needs a value
fault failover --engine k8s-wt --on k8s --member|--member needs a value
fault failover --engine k8s-wt --on k8s member|fault failover --on k8s does not take 'member'
compare experiment2 --engines|--engines needs a value
compare experiment2 bogus|compare does not take 'bogus'
CASES
  [[ ! -s $STUB_KUBECTL_LOG && ! -s $STUB_DOCKER_LOG ]] || fail "something ran: $(kcalls) $(calls)"
}
