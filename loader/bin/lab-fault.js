#!/usr/bin/env node
'use strict';
// lab-fault: the Node side of ./run.sh fault|resync, in the fault-tool service
// (compose/faults.yml) on the stack's network:
//   run SCENARIO [flags]                             the whole scenario in this one process
//                                                    (src/faults/process.js, scenarios/<name>.js)
//   check SCENARIO [flags]                           the module's flags checked (exit 2 with one
//                                                    line) and its stack hooks, one request line
//                                                    each, for bash to perform before `run`
//   usage | list                                     every scenario's usage from the modules /
//                                                    their names, one a line (./run.sh help)
// (every module in src/faults/scenarios/ is a scenario; --scenarios-dir DIR reads another folder)
// and two one-shot steps bash runs before a scenario's process starts:
//   watch      --until COND [--member M] ...         one line + one timeline row per second until
//                                                    COND holds (exit 0) or --timeout (exit 3);
//                                                    the failpoint restart's health watch
//   oplog-size [--expect N]                          each member's oplog maxSize in MB (JSON);
//                                                    exit 4 when not every member has N MB
//                                                    (stale-secondary: reuse or recreate)
// Exit codes: 0 ok, 1 environment/runtime error, 2 usage, 3 condition not reached in time.
const fs = require('node:fs');
const path = require('node:path');
const { parseArgs } = require('node:util');
const d = require('../src/faults/decisions');
const { Members } = require('../src/faults/cluster');
const tables = require('../../common/tables');
const { watchUntil, parseUntil } = require('../src/faults/watch');
const { runCommand, scenarioNames, UsageError } = require('../src/faults/process');
const catalog = require('../src/faults/catalog');

const OPTIONS = {
  members: { type: 'string', default: tables.shardSet().hosts.join(',') }, // compose/topology.tsv
  user: { type: 'string', default: 'root' },
  'password-file': { type: 'string', default: '/run/lab-secrets/root-password' },
  member: { type: 'string' },
  expect: { type: 'string' },
  until: { type: 'string' },
  timeout: { type: 'string', default: '600' },
  timeline: { type: 'string' },
  phase: { type: 'string', default: '' },
  result: { type: 'string' },
  'optime-file': { type: 'string' },
};

class NotReached extends Error {}

const say = (s) => process.stdout.write(`${s}\n`);

function need(opts, key) {
  if (opts[key] === undefined || opts[key] === '') throw new UsageError(`--${key} is required`);
  return opts[key];
}

function writeJson(file, obj) {
  if (!file) return;
  fs.mkdirSync(path.dirname(file), { recursive: true });
  fs.writeFileSync(file, `${JSON.stringify(obj, null, 2)}\n`);
}

// ---- watch (src/faults/watch.js) -----------------------------------------------------------------
async function cmdWatch(m, opts) {
  const cond = parseUntil(need(opts, 'until'));
  const member = opts.member;
  if (cond.needsMember) need(opts, 'member');
  if (member) m.resolve(member);
  const timeoutS = d.parseDuration(opts.timeout);
  if (timeoutS == null) throw new UsageError(`--timeout '${opts.timeout}' is not a duration`);
  const optime = cond.kind === 'rolled-past'
    ? d.toTs(JSON.parse(fs.readFileSync(need(opts, 'optime-file'), 'utf8')).optime) : null;
  const tl = opts.timeline ? fs.openSync(opts.timeline, 'a') : null;
  let res;
  try {
    res = await watchUntil(m, { until: opts.until, member: member || null, timeoutS, phase: opts.phase, optime, say, timeline: (row) => tl !== null && fs.writeSync(tl, `${JSON.stringify(row)}\n`) });
  } finally {
    if (tl !== null) fs.closeSync(tl);
  }
  writeJson(opts.result, res);
  if (!res.reached && cond.kind !== 'never') throw new NotReached(`condition '${opts.until}' not reached within ${timeoutS} s`);
}

// oplog-size [--expect N]: each member's oplog maxSize in MB (one JSON line, for people); with
// --expect the answer is the exit code (0: every member has N MB, 4: not), so bash reads no output.
async function cmdOplogSize(m, opts) {
  const out = {};
  for (const h of m.hosts) out[d.shortName(h)] = await m.window(h).then((w) => w.maxSizeMB, () => null);
  say(JSON.stringify(out));
  if (opts.expect !== undefined && !Object.values(out).every((mb) => mb === Number(opts.expect))) process.exitCode = 4;
}

// ---- main -------------------------------------------------------------------------------------------------
async function main(argv) {
  const [cmd, ...rest] = argv;
  if (cmd === 'run') {
    const r = await runCommand(rest);
    process.exitCode = r.code;
    return;
  }
  if (cmd === 'check') {
    for (const line of catalog.check(rest)) say(line);
    return;
  }
  if (cmd === 'usage' || cmd === 'list') {
    const at = rest.indexOf('--scenarios-dir');
    const dir = at >= 0 ? rest[at + 1] : path.join(__dirname, '..', 'src', 'faults', 'scenarios');
    process.stdout.write(cmd === 'usage' ? catalog.usage(dir) : `${scenarioNames(dir).join('\n')}\n`);
    return;
  }
  let opts;
  try {
    opts = parseArgs({ args: rest, options: OPTIONS, allowPositionals: false }).values;
  } catch (e) {
    throw new UsageError(e.message);
  }
  const m = new Members(opts.members.split(','), { user: opts.user, passwordFile: opts['password-file'] });
  try {
    switch (cmd) {
      case 'watch': return await cmdWatch(m, opts);
      case 'oplog-size': return await cmdOplogSize(m, opts);
      default: throw new UsageError(`unknown subcommand '${cmd ?? ''}' (see the header of bin/lab-fault.js)`);
    }
  } finally {
    await m.close();
  }
}

main(process.argv.slice(2)).then(
  () => process.exit(process.exitCode || 0),
  (e) => {
    // a usage error is one line as run.sh prints its own (`error: ...`), which bash passes on
    process.stderr.write(`${e instanceof UsageError || e.usage ? 'error' : 'lab-fault'}: ${e.message}\n`);
    process.exit(e instanceof UsageError || e.usage ? 2 : e instanceof NotReached ? 3 : 1);
  },
);
