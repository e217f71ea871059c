#!/usr/bin/env bats
# ./run.sh ycsb-a (experiments/ycsb-a.yaml, the loader's ycsb kind) and ./run.sh ycsb-a --tool ycsb
# (lib/ycsb.sh, compose/ycsb.yml, images/ycsb/) with the stub docker: help lists it, bad input is
# refused before anything starts, the lab's loader runs it over --uri against mongo-java-server,
# and --tool ycsb's compose command lines carry the stack URI but never a password.

load test_helper

setup() {
  setup_lab_with_loader
}

# start_test_server / stop_test_server: test/test_helper.bash.
teardown() {
  stop_test_server
}

@test "help lists ycsb-a with its description and the YCSB flags" {
  lab help
  assert_success
  assert_output --regexp "ycsb-a +YCSB workload A \\(50% reads, 50% updates, zipfian keys\\)"
  assert_output --regexp "--threads +ycsb-a: thread steps"
  assert_output --regexp "--tool lab\\|ycsb"
}

@test "bad input: exit 2 with one line, nothing started (loader's checks and bash's)" {
  local args
  for args in "--threads 0" "--records 3 --threads 1,4" "--operations 10 --duration 1s" "--fields 0" \
    "--preload-docs 5" "--tool jmeter" "--tool ycsb --uri mongodb://db.example:27017/"; do
    # shellcheck disable=SC2086
    lab ycsb-a $args --dry-run
    assert_failure 2
    # one error line (run.sh adds its usual pointer to help after it)
    [[ ${lines[0]} == "error: "* && $(grep -c '^error: ' <<<"$output") -eq 1 ]] || fail "not one error line for '$args': $output"
    nothing_started
  done
  lab ycsb-a --threads 0
  assert_line "error: --threads: 0 is out of range 1..1000"
  lab ycsb-a --records 3 --threads 1,4
  assert_line "error: --records 3 is below the largest --threads step (4): every thread needs records to work on"
  lab ycsb-a --tool ycsb --repeat 2 --dry-run
  assert_failure 2
  assert_line "error: --repeat does not apply to --tool ycsb (run it again for another repetition)"
  lab experiment2 --tool ycsb --dry-run
  assert_failure 2
  assert_output --partial "--tool ycsb runs YCSB's own workloads (ycsb-a): experiment2 is not one"
  refute_called "* run *"
}

@test "ycsb-a runs with the lab's loader over --uri against mongo-java-server (load + run, tiny)" {
  start_test_server
  lab ycsb-a --uri "$SERVER_URI" --engine tiny --metrics-port 0 --records 200 --fields 2 --field-length 10 --threads 1,16 --operations 400
  assert_success
  local dir
  dir=$(sed -n 's/^results: \(results\/.*\)$/\1/p' <<<"$output")
  [[ -n $dir ]] || fail "no results line: $output"
  jq -e '.complete == true and .preload.docs == 200 and ([.steps[].clients] == [1, 16])
    and all(.steps[]; .ops.read.count + .ops.update.count == 400 and .ops.read.errors == 0)' "$LAB/$dir/summary.json" >/dev/null ||
    fail "summary: $(cat "$LAB/$dir/summary.json")"
  nothing_started --with-results
}

@test "--tool ycsb --dry-run: prepare in the loader's image, YCSB load then one run per thread step, summarize; no password" {
  lab ycsb-a --tool ycsb --engine inmemory --records 1000 --threads 1,4 --operations 5000 --dry-run
  assert_success
  assert_output --regexp "\\+ .*docker compose --project-directory [^ ]+ -p lab-inmemory .*-f compose/ycsb.yml .*--profile loader run --rm --no-deps --build --entrypoint node loader /lab/loader/bin/lab-ycsb.js prepare ycsb-a --uri mongodb://shard01-a:27017\\\\,shard01-b:27017\\\\,shard01-c:27017/\\\\\\?replicaSet=shard01 --engine inmemory --profile [a-z0-9-]+ --image mongodb=percona/percona-server-mongodb:8.0 --image ycsb=lab-ycsb:0.17.0 --results-dir /lab/results --experiments-dir /lab/experiments --records 1000 --threads 1,4 --operations 5000"
  assert_output --regexp "--profile ycsb run --rm --no-deps --build -e YCSB_URI=mongodb://shard01-a:27017\\\\,shard01-b:27017\\\\,shard01-c:27017/\\\\\\?replicaSet=shard01 -e YCSB_DATABASE=ycsb ycsb load /lab/results/ycsb-a/inmemory/.*UTC.* 4"
  assert_line --regexp "ycsb run /lab/results/ycsb-a/inmemory/.* 1$"
  assert_line --regexp "ycsb run /lab/results/ycsb-a/inmemory/.* 4$"
  assert_output --regexp "lab-ycsb.js summarize /lab/results/ycsb-a/inmemory/"
  refute_output --regexp "root:[^@ ]*@|password="
  refute_called "* run *"
}

@test "--tool ycsb in a running stack: the folder prepare made is the one summarised and printed" {
  all_up_rules
  rule "compose * --entrypoint node loader /lab/loader/bin/lab-ycsb.js prepare *" 0 "dir: /lab/results/ycsb-a/wiredtiger/20260101T000003Z\nthreads: 2 8"
  lab ycsb-a --tool ycsb --via mongos --records 100 --threads 2,8 --duration 5s
  assert_success
  assert_called "$(compose_prefix wiredtiger) -f compose/monitoring.yml -f compose/monitoring/healthcheck-start-interval.yml --profile ycsb run --rm --no-deps --build -e YCSB_URI=mongodb://mongos:27017/ -e YCSB_DATABASE=ycsb ycsb load /lab/results/ycsb-a/wiredtiger/20260101T000003Z 8"
  assert_called "* --profile ycsb run * ycsb run /lab/results/ycsb-a/wiredtiger/20260101T000003Z 2"
  assert_called "* --profile ycsb run * ycsb run /lab/results/ycsb-a/wiredtiger/20260101T000003Z 8"
  # with monitoring: one Grafana annotation per step, the admin password as a mounted file
  assert_called "* --entrypoint node loader /lab/loader/bin/lab-ycsb.js summarize /lab/results/ycsb-a/wiredtiger/20260101T000003Z --grafana-url http://grafana:3000 --grafana-password-file /run/lab-secrets/grafana-admin-password"
  assert_line "results: results/ycsb-a/wiredtiger/20260101T000003Z"
  refute_called "* up -d*"
}

@test "--tool ycsb: a failed YCSB phase stops the sweep, the run is still summarised, exit non-zero" {
  all_up_rules
  rule "compose * /lab/loader/bin/lab-ycsb.js prepare *" 0 "dir: /lab/results/ycsb-a/wiredtiger/20260101T000004Z\nthreads: 1 2"
  rule "compose * ycsb run /lab/results/ycsb-a/wiredtiger/20260101T000004Z 1" 1
  lab ycsb-a --tool ycsb --records 100 --threads 1,2 --duration 5s
  assert_failure 1
  refute_called "* ycsb run /lab/results/ycsb-a/wiredtiger/20260101T000004Z 2"
  assert_called "* /lab/loader/bin/lab-ycsb.js summarize /lab/results/ycsb-a/wiredtiger/20260101T000004Z*"
}

@test "compose/ycsb.yml renders with the real Compose v2: profile ycsb, secret read-only, results mounted, context images/ycsb" {
  local bin=$REPO/.tools/bin/docker-compose
  [ -x "$bin" ] || { echo "missing $bin: run 'bash test/install-tools.sh'" >&2; return 1; }
  # shellcheck source=/dev/null
  source "$REPO/run.sh"
  local envs=() json
  mapfile -t envs < <(stack_env)
  json=$(env "${envs[@]}" "$bin" --project-directory "$REPO" -p lab-wiredtiger -f compose/cluster.yml \
    -f compose/engines/wiredtiger.yml -f compose/ycsb.yml --profile ycsb config --format json)
  [ "$(jq -r '.services.ycsb.profiles | join(",")' <<<"$json")" = "ycsb" ]
  [ "$(jq -r '.services.ycsb.build.context' <<<"$json")" = "$REPO/images/ycsb" ]
  jq -e '.services.ycsb.volumes[] | select(.target == "/lab/results")' <<<"$json" >/dev/null
  jq -e '.services.ycsb.volumes[] | select(.target == "/run/lab-secrets" and .read_only == true)' <<<"$json" >/dev/null
  # `up` never starts it
  json=$(env "${envs[@]}" "$bin" --project-directory "$REPO" -p lab-wiredtiger -f compose/cluster.yml \
    -f compose/engines/wiredtiger.yml -f compose/ycsb.yml config --format json)
  [ "$(jq '[.services | keys[] | select(. == "ycsb")] | length' <<<"$json")" -eq 0 ]
}

@test "images/ycsb: every jar the image fetches is pinned in jars.sha256 (the pins install.d checks the bench's copies against), the binding is compiled from binding/, ycsb-run's classpath is the image's layout" {
  local dockerfile=$REPO/images/ycsb/Dockerfile sums=$REPO/images/ycsb/jars.sha256 paths added pinned p
  paths=$(sed -nE 's|^ADD \$\{CENTRAL\}/([^ ]+) /opt/ycsb/lib/$|\1|p' "$dockerfile")
  added=$(xargs -n1 basename <<<"$paths" | sort)
  pinned=$(awk 'length($1) == 64 && $1 ~ /^[0-9a-f]+$/ && NF == 2 { print $2 }' "$sums" | sort)
  [[ -n $added && $(wc -l <<<"$added") -eq 6 ]] || fail "the Dockerfile ADDs 6 jars from Maven Central: $added"
  [[ $added == "$pinned" ]] || fail "ADDed jars and pinned jars differ:"$'\n'"$(diff <(echo "$added") <(echo "$pinned"))"
  grep -q '^ARG CENTRAL=https://repo1.maven.org/maven2$' "$dockerfile"
  grep -q '^RUN cd /opt/ycsb/lib && sha256sum -c /tmp/jars.sha256$' "$dockerfile"
  # each ADD path is the jar's Maven Central path (group/artifact/version/artifact-version.jar)
  while read -r p; do
    [[ $p =~ ^(.+)/([^/]+)/([^/]+)/([^/]+)\.jar$ && ${BASH_REMATCH[4]} == "${BASH_REMATCH[2]}-${BASH_REMATCH[3]}" ]] || fail "not a Maven Central layout: $p"
  done <<<"$paths"
  # the copies the bench and the tests run (test/install.d/46-ycsb-mongodb.sh) are the same files
  (cd "$REPO/.tools/ycsb-mongodb/lib" && sha256sum --quiet -c "$sums") || fail "run 'bash test/install-tools.sh': .tools/ycsb-mongodb/lib differs from jars.sha256"
  local f
  for f in MongoDbClient OptionsSupport; do
    [[ -f $REPO/images/ycsb/binding/site/ycsb/db/$f.java ]] || fail "missing binding/site/ycsb/db/$f.java"
    grep -q "/src/site/ycsb/db/$f.java" "$dockerfile" || fail "the Dockerfile does not compile $f.java"
  done
  grep -q 'COPY --from=build /opt/ycsb /opt/ycsb' "$dockerfile"
  # shellcheck disable=SC2016  # the $ are the script's own text, matched literally
  grep -qF 'java -cp "$YCSB_HOME/lib/*:$YCSB_HOME/classes" site.ycsb.Client' "$REPO/images/ycsb/ycsb-run.sh"
}

@test "images/ycsb/ycsb-run.sh: mongodb.url with the secret's password only in a -P file, never in java's arguments" {
  local bin=$BATS_TEST_TMPDIR/bin dir=$BATS_TEST_TMPDIR/run
  mkdir -p "$bin" "$dir/ycsb"
  : >"$dir/ycsb/workload.properties"
  printf 'p@ss w/rd\n' >"$BATS_TEST_TMPDIR/pw"
  # A java that records its arguments and the properties files it was given.
  cat >"$bin/java" <<'JAVA'
#!/usr/bin/env bash
echo "ARGS: $*"
prev=""
for a in "$@"; do [[ $prev == -P ]] && cat "$a"; prev=$a; done
JAVA
  chmod +x "$bin/java"
  PATH="$bin:$PATH" YCSB_HOME=/opt/ycsb YCSB_URI='mongodb://shard01-a:27017,shard01-b:27017/?replicaSet=shard01' \
    YCSB_DATABASE=ycsb YCSB_PASSWORD_FILE=$BATS_TEST_TMPDIR/pw run bash "$REPO/images/ycsb/ycsb-run.sh" run "$dir" 8
  assert_success
  local out=$dir/ycsb/run-threads-8.txt
  grep -q '^# started: [0-9T:.-]*Z$' "$out" || fail "no started line: $(cat "$out")"
  grep -qx 'mongodb.url=mongodb://root:p%40ss%20w%2Frd@shard01-a:27017,shard01-b:27017/ycsb?replicaSet=shard01&authSource=admin&w=1' "$out" ||
    fail "mongodb.url: $(cat "$out")"
  grep '^ARGS: ' "$out" | grep -q -- "-t -db site.ycsb.db.MongoDbClient -P $dir/ycsb/workload.properties -P /.* -threads 8 -s" || fail "args: $(cat "$out")"
  if grep '^ARGS: ' "$out" | grep -Eq 'p@ss|p%40ss|mongodb\.url'; then fail "the password is on java's command line"; fi
  run bash "$REPO/images/ycsb/ycsb-run.sh" bogus "$dir" 1
  assert_failure
}
