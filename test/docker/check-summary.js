'use strict';
// check-summary.js SUMMARY_JSON: the Docker suite's experiment2 run is complete, on the shard's
// replica set (./run.sh's default --via primary), and filed under the stand-in it really ran on,
// never under the engine the stack was started as (loader/src/server/engine-label.js), with every shard
// member's block writes (cgroup v1 here) and data directory measured by ./run.sh. One line on failure.
const fs = require('node:fs');

const fail = (m) => { console.error(m); process.exit(1); };
let s;
try { s = JSON.parse(fs.readFileSync(process.argv[2], 'utf8')); } catch (e) { fail(`no summary.json: ${e.message}`); }
if (s.complete !== true) fail(`not complete: ${s.reason}`);
const vendors = (s.server && s.server.vendors) || [];
if (!vendors.some((v) => v.product === 'standin')) fail(`server vendors ${JSON.stringify(vendors)}: the stand-in is not named`);
if (s.engine !== 'standin' || s.engine_reported !== 'standin') fail(`filed under ${s.engine} (reported ${s.engine_reported}), not the stand-in`);
// the default route of ./run.sh (--via primary): straight to the primary of the shard, as seeds/004 did
if (!(s.topology && s.topology.kind === 'replica_set_member' && s.topology.set_name === 'shard01')) fail(`topology ${JSON.stringify(s.topology)}: not the replica set of the shard`);
// block writes (lib/block-writes.sh): every shard member's own cgroup read before and after the
// loader, on this host's cgroup v1 (blkio), each member's bytes or why not (a kernel that keeps v1
// statistics only on a disk with a throttle limit lists no device: counted nothing, said), the
// lower bound said, and the invocation's documents (the preload and the step) as the divisor.
const shard = fs.readFileSync(require('node:path').join(__dirname, '../../compose/topology.tsv'), 'utf8').split('\n')
  .map((l) => l.split('\t')).filter((c) => c[2] === 'shard').map((c) => c[0]);
const bw = s.block_writes;
if (!bw) fail(`no block_writes: ${s.block_writes_note}`);
if (bw.cgroup_version !== 1) fail(`block_writes read under cgroup ${bw.cgroup_version}, not v1 as this host has`);
const missing = shard.filter((m) => !Number.isInteger(bw.bytes[m]) && !(bw.absent && bw.absent[m]));
if (missing.length) fail(`block_writes: neither bytes nor a reason for ${missing.join(', ')}`);
if (!(bw.documents_written >= 2000 && bw.documents_written === s.documents_written)) fail(`block_writes over ${bw.documents_written} documents, the run wrote ${s.documents_written}`);
const counted = Object.keys(bw.bytes).length > 0;
if (counted ? typeof bw.bytes_per_doc !== 'number' : bw.bytes_per_doc !== null) fail(`block_writes: bytes_per_doc ${bw.bytes_per_doc} with bytes ${JSON.stringify(bw.bytes)}`);
if (!/lower bound/.test(bw.caveat || '')) fail(`block_writes: caveat ${bw.caveat}`);
console.log(`block writes (cgroup v1): ${JSON.stringify(bw.bytes)} bytes, ${bw.bytes_per_doc} bytes/doc over ${bw.documents_written} documents; absent ${JSON.stringify(bw.absent)}`);
// The data directory of every shard member too (lib/experiment.sh experiment_data_dirs), read by
// the same kind of loop over the members.
const dirBytes = (s.footprint && s.footprint.data_dir_bytes) || {};
const noDir = shard.filter((m) => !Number.isInteger(dirBytes[m]));
if (noDir.length) fail(`footprint.data_dir_bytes: no size for ${noDir.join(', ')} (${JSON.stringify(s.footprint && s.footprint.data_dir_bytes)})`);
// The measured steps the shared-host rule leaves out (common/step-exclusion.js, the report's and
// the loader's one rule): on Compose the loader always shares the host with the cluster it loads,
// so the share printed here is the rule's cost on the main job. Printed, not judged.
const { exclusionFacts, stepExclusion } = require('../../common/step-exclusion');
const why = (s.steps || []).map((st) => stepExclusion(exclusionFacts(st)));
console.log(`steps left out for the host: ${why.filter((w) => w === 'shared_host').length} of ${why.length} (left out for any reason: ${why.filter(Boolean).join(', ') || 'none'})`);
