'use strict';
// check-summary.js SUMMARY_JSON: the Docker suite's experiment2 run is complete, on the shard's
// replica set (./run.sh's default --via primary), and filed under the stand-in it really ran on,
// never under the engine the stack was started as (loader/src/engine-label.js). One line on failure.
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
