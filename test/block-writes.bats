#!/usr/bin/env bats
# ./run.sh NAME in the stack (lib/block-writes.sh) with the stub docker: each shard member's own
# cgroup read inside it before the loader starts and after it ends (cgroup v2 io.stat, else v1
# blkio), the bytes written in between per member, the cgroup version and v1's lower-bound
# caveat, divided by every document the invocation's runs wrote, into each run's summary.json.

load test_helper

setup() {
  setup_lab_with_loader
}

DIR1=results/experiment1/wiredtiger/20260101T000002Z
DIR2=results/experiment1/wiredtiger/20260101T000003Z
V1=/sys/fs/cgroup/blkio/blkio.throttle.io_service_bytes

# loader_summary DIR DOCS: the summary.json the loader writes (src/summary.js buildSummary), a run
# whose preload wrote DOCS documents and whose block writes are left to ./run.sh.
loader_summary() {
  mkdir -p "$LAB/$1"
  node -e 'const { buildSummary } = require(process.argv[1]);
    const config = { name: "experiment1", setup: {}, preload: { docs: +process.argv[2] }, workload: { type: "insert", clients: [1] } };
    const s = buildSummary({ complete: true, config, opts: {}, engine: "wiredtiger", steps: [], startedAt: new Date(0), preload: { docs: +process.argv[2] }, loader: {} });
    process.stdout.write(JSON.stringify({ schema_version: 1, ...s }, null, 2) + "\n")' \
    "$REPO/loader/src/summary.js" "$2" >"$LAB/$1/summary.json"
}

# block_writes DIR: summary.json's block_writes and block_writes_note, as JSON.
block_writes() {
  node -e 'const s = JSON.parse(require("fs").readFileSync(process.argv[1], "utf8"));
    console.log(JSON.stringify({ block_writes: s.block_writes, note: s.block_writes_note }))' "$LAB/$1/summary.json"
}

two_runs() {
  all_up_rules
  rule "compose * run --rm *" 0 "results: /lab/$DIR1\nresults: /lab/$DIR2"
  loader_summary "$DIR1" 1000
  loader_summary "$DIR2" 1500
}

@test "cgroup v1 (no io.stat): blkio Write bytes per member over the invocation, over every document its runs wrote, a lower bound said" {
  two_runs
  rule "compose * exec -T * cat /sys/fs/cgroup/io.stat" 1 ""
  rule "compose * exec -T shard01-a cat $V1" '0!' '8:0 Read 4096\n8:0 Write 1000\n8:0 Total 5096\nTotal 5096'
  rule "compose * exec -T shard01-a cat $V1" 0 '8:0 Read 4096\n8:0 Write 5000000\n8:16 Write 1000\n8:0 Total 5005096\nTotal 5005096'
  rule "compose * exec -T shard01-b cat $V1" '0!' '8:0 Write 2000'
  rule "compose * exec -T shard01-b cat $V1" 0 '8:0 Write 3002000'
  rule "compose * exec -T shard01-c cat *" 1 ""
  # docker compose exec -T forwards stdin: the loop over the members must not lose its input.
  export STUB_DOCKER_EXEC_STDIN=1
  lab experiment1 --docs 1000
  assert_success
  assert_line --partial "block writes (cgroup v1, a lower bound): shard01-a 5000000 bytes, 2000.0 per document (summary.json)"
  local p
  p="$(compose_prefix wiredtiger) -f compose/monitoring.yml -f compose/monitoring/healthcheck-start-interval.yml exec -T"
  assert_called "$p shard01-a cat /sys/fs/cgroup/io.stat"
  assert_called "$p shard01-a cat $V1"
  # shard01-c answered neither file: the fallback was asked too.
  assert_called "$p shard01-c cat /sys/fs/cgroup/blkio/blkio.io_service_bytes"
  # read before the loader ran and after it
  run awk '/ exec -T shard01-a cat .*throttle/ { print "read" } / run --rm / { print "loader" }' "$STUB_DOCKER_LOG"
  assert_output $'read\nloader\nread'
  local want
  want='{"block_writes":{"cgroup_version":1,"bytes":{"shard01-a":5000000,"shard01-b":3000000},'
  want+='"absent":{"shard01-c":"its cgroup'"'"'s block I/O could not be read before the run (the member did not answer)"},'
  want+="\"runs\":[\"$DIR1\",\"$DIR2\"],\"documents_written\":2500,\"bytes_per_doc\":2000,\"bytes_per_doc_note\":null,\"per_doc_of\":\"shard01-a\","
  want+='"caveat":"cgroup v1: buffered writeback by the kernel'"'"'s flusher threads is charged to the root cgroup, not the container, so these bytes are a lower bound (writes the member submits itself, e.g. through fsync, are counted)"},'
  run block_writes "$DIR1"
  assert_success
  assert_output --partial "$want"
  assert_output --regexp '"note":"measured by \./run\.sh: each shard member.s own cgroup \(v1\) read inside it before the loader started and after it ended'
  # the same span in each of the invocation's runs, and each still a valid summary.json
  cmp <(block_writes "$DIR1") <(block_writes "$DIR2")
  run node -e 'require(process.argv[1]).checkSummary(JSON.parse(require("fs").readFileSync(process.argv[2], "utf8")))' \
    "$REPO/loader/src/summary-schema.js" "$LAB/$DIR2/summary.json"
  assert_success
}

@test "cgroup v2: io.stat wbytes summed over devices, no caveat; a member whose counter went back (restarted) is absent with the reason" {
  two_runs
  rule "compose * exec -T shard01-a cat /sys/fs/cgroup/io.stat" '0!' '8:0 rbytes=1 wbytes=100 rios=1 wios=1 dbytes=0 dios=0'
  rule "compose * exec -T shard01-a cat /sys/fs/cgroup/io.stat" 0 '8:0 rbytes=1 wbytes=400100 rios=1 wios=9 dbytes=0 dios=0\n259:0 rbytes=0 wbytes=100000 rios=0 wios=3 dbytes=0 dios=0'
  rule "compose * exec -T shard01-b cat /sys/fs/cgroup/io.stat" '0!' '8:0 rbytes=0 wbytes=900000 rios=0 wios=1 dbytes=0 dios=0'
  rule "compose * exec -T shard01-b cat /sys/fs/cgroup/io.stat" 0 '8:0 rbytes=0 wbytes=5000 rios=0 wios=1 dbytes=0 dios=0'
  rule "compose * exec -T shard01-c cat /sys/fs/cgroup/io.stat" 0 ''
  lab experiment1 --docs 1000
  assert_success
  refute_called "* cat /sys/fs/cgroup/blkio/*"
  run block_writes "$DIR2"
  assert_output --partial '{"block_writes":{"cgroup_version":2,"bytes":{"shard01-a":500000,"shard01-c":0},"absent":{"shard01-b":"its counter went back (900000 to 5000 bytes): the container restarted during the run"}'
  assert_output --partial '"documents_written":2500,"bytes_per_doc":200,'
  assert_output --partial '"caveat":null}'
}

@test "no member answers: block_writes stays null, the note says why for each" {
  two_runs
  rule "compose * exec -T * cat *" 1 ""
  lab experiment1 --docs 1000
  assert_success
  assert_line --partial "block writes: not measured"
  run block_writes "$DIR1"
  assert_output --partial '{"block_writes":null,"note":"not measured: no shard member'"'"'s block I/O was read on both sides of the run (shard01-a: its cgroup'"'"'s block I/O could not be read before the run'
}

@test "cgroup v1 files that list no device (a kernel that keeps v1 statistics only where a throttle limit is set): nothing counted, said per member, no figure" {
  two_runs
  rule "compose * exec -T * cat /sys/fs/cgroup/io.stat" 1 ""
  rule "compose * exec -T * cat /sys/fs/cgroup/blkio/*" 0 'Total 0'
  lab experiment1 --docs 1000
  assert_success
  assert_line --partial "block writes: no shard member's writes counted under cgroup v1 (summary.json block_writes.absent says why)"
  assert_called "* exec -T shard01-b cat /sys/fs/cgroup/blkio/blkio.bfq.io_service_bytes"
  run block_writes "$DIR1"
  assert_output --partial '{"block_writes":{"cgroup_version":1,"bytes":{},"absent":{"shard01-a":"cgroup v1 blkio lists no device for it, before or after the run: nothing was counted (the kernel keeps v1 statistics only on a disk with a throttle limit configured'
  assert_output --partial '"documents_written":2500,"bytes_per_doc":null,"bytes_per_doc_note":"no member'"'"'s writes were counted (absent says why)","per_doc_of":null,'
  run node -e 'require(process.argv[1]).checkSummary(JSON.parse(require("fs").readFileSync(process.argv[2], "utf8")))' \
    "$REPO/loader/src/summary-schema.js" "$LAB/$DIR1/summary.json"
  assert_success
}
