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

# The summary.json the loader writes (src/results/summary.js buildSummary) for a run whose preload
# wrote DOCS documents and whose block writes are left to ./run.sh, made once for the file: it
# depends on DOCS alone (the same bytes each time), and a node start per run cost about 0.3 CPU
# seconds, 30 of them in this file (two per two_runs).
setup_file() {
  # shellcheck disable=SC2016  # JavaScript, its ${} is a template literal
  node -e 'const { buildSummary } = require(process.argv[1]);
    for (const docs of process.argv.slice(3).map(Number)) {
      const config = { name: "experiment1", setup: {}, preload: { docs }, workload: { type: "insert", clients: [1] } };
      const s = buildSummary({ complete: true, config, opts: {}, engine: "wiredtiger", steps: [],
        startedAt: new Date(0), preload: { docs }, loader: {} });
      require("fs").writeFileSync(`${process.argv[2]}/summary-${docs}.json`,
        JSON.stringify({ schema_version: 1, ...s }, null, 2) + "\n");
    }' "$BATS_TEST_DIRNAME/../loader/src/results/summary.js" "$BATS_FILE_TMPDIR" 1000 1500
}

# loader_summary DIR DOCS: that summary.json (setup_file) in DIR of the lab.
loader_summary() {
  mkdir -p "$LAB/$1"
  cp "$BATS_FILE_TMPDIR/summary-$2.json" "$LAB/$1/summary.json"
}

# block_writes DIR: summary.json's block_writes and block_writes_note, as JSON.
block_writes() {
  node -e 'const s = JSON.parse(require("fs").readFileSync(process.argv[1], "utf8"));
    console.log(JSON.stringify({ block_writes: s.block_writes, note: s.block_writes_note }))' "$LAB/$1/summary.json"
}

# data_disk: every member's /data/db is on the whole disk 8:0 (mountinfo and sysfs as a container
# sees them; no partition file).
data_disk() {
  rule "compose * exec -T * cat /proc/self/mountinfo" 0 '1040 1021 8:0 /var/lib/docker/volumes/x/_data /data/db rw,relatime - ext4 /dev/sda rw'
  rule "compose * exec -T * cat /sys/dev/block/8:0/dev" 0 '8:0'
  rule "compose * exec -T * cat /sys/dev/block/8:0/partition" 1 ''
}

two_runs() {
  all_up_rules
  rule "compose * run --rm *" 0 "results: /lab/$DIR1\nresults: /lab/$DIR2"
  loader_summary "$DIR1" 1000
  loader_summary "$DIR2" 1500
}

@test "cgroup v1 (no io.stat): blkio Write bytes per member over the invocation, over every document its runs wrote, a lower bound said" {
  two_runs
  data_disk
  rule "compose * exec -T * cat /sys/fs/cgroup/io.stat" 1 ""
  # 8:16 is another disk (not the data's): not counted
  rule "compose * exec -T shard01-a cat $V1" '0!' '8:0 Read 4096\n8:0 Write 1000\n8:0 Total 5096\nTotal 5096'
  rule "compose * exec -T shard01-a cat $V1" 0 '8:0 Read 4096\n8:0 Write 5001000\n8:16 Write 1000\n8:0 Total 5005096\nTotal 5005096'
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
  want+='"absent":{"shard01-c":"not read before the run: its cgroup'"'"'s block I/O could not be read (the member did not answer)"},'
  want+='"devices":{"shard01-a":"8:0","shard01-b":"8:0"},'
  want+="\"runs\":[\"$DIR1\",\"$DIR2\"],\"documents_written\":2500,\"bytes_per_doc\":2000,\"bytes_per_doc_note\":null,\"per_doc_of\":\"shard01-a\","
  want+='"caveat":"cgroup v1: buffered writeback by the kernel'"'"'s flusher threads is charged to the root cgroup, not the container, so these bytes are a lower bound (writes the member submits itself, e.g. through fsync, are counted)"},'
  run block_writes "$DIR1"
  assert_success
  assert_output --partial "$want"
  assert_output --regexp '"note":"measured by \./run\.sh: each shard member.s own cgroup \(v1\) read inside it before the loader started and after it ended'
  # the same span in each of the invocation's runs, and each still a valid summary.json
  cmp <(block_writes "$DIR1") <(block_writes "$DIR2")
  run node -e 'require(process.argv[1]).checkSummary(JSON.parse(require("fs").readFileSync(process.argv[2], "utf8")))' \
    "$REPO/loader/src/results/summary-schema.js" "$LAB/$DIR2/summary.json"
  assert_success
}

@test "cgroup v2: io.stat wbytes of the data disk alone, no caveat; a member whose counter went back (restarted) or with no write listed is absent with the reason" {
  two_runs
  data_disk
  rule "compose * exec -T shard01-a cat /sys/fs/cgroup/io.stat" '0!' '8:0 rbytes=1 wbytes=100 rios=1 wios=1 dbytes=0 dios=0'
  rule "compose * exec -T shard01-a cat /sys/fs/cgroup/io.stat" 0 '8:0 rbytes=1 wbytes=400100 rios=1 wios=9 dbytes=0 dios=0\n259:0 rbytes=0 wbytes=100000 rios=0 wios=3 dbytes=0 dios=0'
  rule "compose * exec -T shard01-b cat /sys/fs/cgroup/io.stat" '0!' '8:0 rbytes=0 wbytes=900000 rios=0 wios=1 dbytes=0 dios=0'
  rule "compose * exec -T shard01-b cat /sys/fs/cgroup/io.stat" 0 '8:0 rbytes=0 wbytes=5000 rios=0 wios=1 dbytes=0 dios=0'
  rule "compose * exec -T shard01-c cat /sys/fs/cgroup/io.stat" 0 ''
  lab experiment1 --docs 1000
  assert_success
  refute_called "* cat /sys/fs/cgroup/blkio/*"
  run block_writes "$DIR2"
  local want='{"block_writes":{"cgroup_version":2,"bytes":{"shard01-a":400000},"absent":{"shard01-b":"its counter went back'
  want+=' (900000 to 5000 bytes): the container restarted during the run","shard01-c":"not counted: io.stat lists no write'
  want+=' to its data disk (8:0) after the run"},"devices":{"shard01-a":"8:0"}'
  assert_output --partial "$want"
  assert_output --partial '"documents_written":2500,"bytes_per_doc":160,'
  assert_output --partial '"caveat":null}'
}

@test "no member answers: block_writes stays null, the note says why for each" {
  two_runs
  rule "compose * exec -T * cat *" 1 ""
  lab experiment1 --docs 1000
  assert_success
  assert_line --partial "block writes: not measured"
  run block_writes "$DIR1"
  assert_output --partial '{"block_writes":null,"note":"not measured: no shard member'"'"'s block I/O was read on both sides of the run (shard01-a: not read before the run: no mount at /data/db could be read inside it'
}

@test "cgroup v1 files that list no device (a kernel that keeps v1 statistics only where a throttle limit is set): nothing counted, said per member, no figure" {
  two_runs
  data_disk
  rule "compose * exec -T * cat /sys/fs/cgroup/io.stat" 1 ""
  rule "compose * exec -T * cat /sys/fs/cgroup/blkio/*" 0 'Total 0'
  lab experiment1 --docs 1000
  assert_success
  assert_line --partial "block writes: no shard member's writes counted under cgroup v1 (summary.json block_writes.absent says why)"
  assert_called "* exec -T shard01-b cat /sys/fs/cgroup/blkio/blkio.bfq.io_service_bytes"
  run block_writes "$DIR1"
  assert_output --partial '{"block_writes":{"cgroup_version":1,"bytes":{},"absent":{"shard01-a":"not counted: cgroup v1 blkio shows no write to its data disk (8:0) after the run, which a kernel does where it keeps no count there'
  assert_output --partial '"documents_written":2500,"bytes_per_doc":null,"bytes_per_doc_note":"no member'"'"'s writes were counted (absent says why)","per_doc_of":null,'
  run node -e 'require(process.argv[1]).checkSummary(JSON.parse(require("fs").readFileSync(process.argv[2], "utf8")))' \
    "$REPO/loader/src/results/summary-schema.js" "$LAB/$DIR1/summary.json"
  assert_success
}

# era_rules DIR: the stub answers each member's reads from a folder of test/vectors/block-writes
# (its README says how): the counter's .before reading once per member, then its .after; any other
# path fails to read.
era_rules() {
  local f path member
  # era_text FILE: its lines joined by \n, as a rule's answer
  era_text() { awk '{ printf "%s%s", (NR > 1 ? "\\n" : ""), $0 }' "$1"; }
  # the .before rules first: the first rule that matches answers
  for f in "$1"/*.before; do
    path=${f##*/} && path=${path//%//}
    for member in shard01-a shard01-b shard01-c; do
      rule "compose * exec -T $member cat ${path%.before}" '0!' "$(era_text "$f")"
    done
  done
  for f in "$1"/%*; do
    path=${f##*/} && path=${path//%//}
    case $path in
      *.before) ;;
      *.after) rule "compose * exec -T * cat ${path%.after}" 0 "$(era_text "$f")" ;;
      *) rule "compose * exec -T * cat $path" 0 "$(era_text "$f")" ;;
    esac
  done
  rule "compose * exec -T * cat *" 1 ""
}

@test "every kernel era and disk layout (test/vectors/block-writes): the data disk's writes counted where the kernel counts them, else not counted (never 0); a stacked device counted once" {
  local dir era want bytes
  for dir in "$BATS_TEST_DIRNAME"/vectors/block-writes/*/; do
    dir=${dir%/}
    era=${dir##*/}
    : >"$STUB_DOCKER_RULES" && rm -f "$STUB_DOCKER_RULES.spent"
    two_runs
    era_rules "$dir"
    lab experiment1 --docs 1000
    assert_success
    run block_writes "$DIR1"
    want=$(cat "$dir/expect")
    case $want in
      counted*)
        bytes=${want#counted }
        [[ $output == *'"bytes":{"shard01-a":'"$bytes"',"shard01-b":'"$bytes"',"shard01-c":'"$bytes"'}'* ]] ||
          fail "$era: want $bytes bytes per member, got: $output"
        [[ $output == *'"bytes_per_doc":'"$(awk -v b="$bytes" 'BEGIN { printf "%g", b / 2500 }')"','* ]] ||
          fail "$era: want $bytes / 2500 per document, got: $output"
        ;;
      "not counted")
        [[ $output == *'"bytes":{},'* && $output == *'"shard01-a":"not counted: '* && $output == *'"bytes_per_doc":null,'* ]] ||
          fail "$era: want not counted, got: $output"
        ;;
      *) fail "$era: expect says '$want'" ;;
    esac
  done
}

# v1_host ROOT_DEVICE_LINE: this host as the lab reads it for a local daemon under cgroup v1, the
# Docker root on the partition 8:17 of disk 8:16 (sysfs and /dev/block stand-ins; the disk's node
# a link to a real block device, as udev's /dev/block/MAJ:MIN links are).
v1_host() {
  local block
  block=$(find /dev -maxdepth 1 -type b -print -quit)
  [[ -n $block ]] || fail "this test needs a block device node under /dev to stand for the disk"
  mkdir -p "$BATS_TEST_TMPDIR/sys/8:17" "$BATS_TEST_TMPDIR/devblock"
  echo 1 >"$BATS_TEST_TMPDIR/sys/8:17/partition"
  echo 8:16 >"$BATS_TEST_TMPDIR/sys/dev"
  ln -sf "$block" "$BATS_TEST_TMPDIR/devblock/8:16"
  printf '%s\n' '27 1 254:0 / / rw,relatime shared:1 - ext4 /dev/vda rw' \
    '40 27 8:17 / /var/lib/docker rw,relatime shared:9 - ext4 /dev/sdb1 rw' >"$LAB_MOUNTINFO"
  export LAB_SYS_DEV_BLOCK=$BATS_TEST_TMPDIR/sys LAB_DEV_BLOCK=$BATS_TEST_TMPDIR/devblock
  export STUB_DOCKER_LOG_ENV=LAB_BLOCK_WRITES_DISK
}

@test "cgroup v1, local daemon: every compose call carries a write limit on the Docker data disk (its whole disk) for each shard member; v2, a rootless or remote daemon: none" {
  v1_host
  all_up_rules
  rule "info --format {{.CgroupVersion}} {{json .SecurityOptions}} {{.DockerRootDir}}" 0 '1 ["name=apparmor","name=seccomp,profile=builtin"] /var/lib/docker'
  lab up
  assert_success
  assert_called "LAB_BLOCK_WRITES_DISK=$BATS_TEST_TMPDIR/devblock/8:16 compose * -f compose/block-writes-v1.yml *"
  refute_called "compose --project-directory *"
  # asked once per run
  [[ $(grep -c "CgroupVersion" "$STUB_DOCKER_LOG") == 1 ]] || fail "asked $(grep -c CgroupVersion "$STUB_DOCKER_LOG") times"
  # the file gives exactly the shard members the limit, on the path given
  run grep -E '^  [a-z0-9-]+: \*count-writes$' "$REPO/compose/block-writes-v1.yml"
  assert_output "$(awk -F'\t' '$3 == "shard" { print "  " $1 ": *count-writes" }' "$REPO/compose/topology.tsv")"
  local case
  for case in '2 ["name=seccomp,profile=builtin","name=cgroupns"] /var/lib/docker' \
    '1 ["name=seccomp,profile=builtin","name=rootless"] /home/u/.local/share/docker'; do
    : >"$STUB_DOCKER_LOG" && : >"$STUB_DOCKER_RULES"
    all_up_rules
    rule "info --format {{.CgroupVersion}} {{json .SecurityOptions}} {{.DockerRootDir}}" 0 "$case"
    lab up
    assert_success
    refute_called "*block-writes-v1*"
    refute_called "LAB_BLOCK_WRITES_DISK=*"
  done
  : >"$STUB_DOCKER_LOG" && : >"$STUB_DOCKER_RULES"
  all_up_rules
  rule "info --format {{.CgroupVersion}} {{json .SecurityOptions}} {{.DockerRootDir}}" 0 '1 [] /var/lib/docker'
  DOCKER_HOST=tcp://10.0.0.9:2375 lab up
  refute_called "*block-writes-v1*"
  refute_called "info --format {{.CgroupVersion}}*"
}

@test "cgroup v1 on a host without udev's /dev/block links: the limit goes on the disk's own node (sysfs DEVNAME); no node, no limit" {
  v1_host
  rm -f "$BATS_TEST_TMPDIR/devblock/8:16"
  mkdir -p "$BATS_TEST_TMPDIR/sys/8:16" "$BATS_TEST_TMPDIR/dev"
  printf 'MAJOR=8\nMINOR=16\nDEVNAME=sdb\nDEVTYPE=disk\n' >"$BATS_TEST_TMPDIR/sys/8:16/uevent"
  ln -sf "$(find /dev -maxdepth 1 -type b -print -quit)" "$BATS_TEST_TMPDIR/dev/sdb"
  export LAB_DEV=$BATS_TEST_TMPDIR/dev
  all_up_rules
  rule "info --format {{.CgroupVersion}} {{json .SecurityOptions}} {{.DockerRootDir}}" 0 '1 [] /var/lib/docker'
  lab up
  assert_success
  assert_called "LAB_BLOCK_WRITES_DISK=$BATS_TEST_TMPDIR/dev/sdb compose * -f compose/block-writes-v1.yml *"
  rm "$BATS_TEST_TMPDIR/dev/sdb"
  : >"$STUB_DOCKER_LOG"
  lab up
  assert_success
  refute_called "*block-writes-v1*"
}
