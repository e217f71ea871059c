'use strict';
// The one interface between a fault process (loader image, no Docker socket) and bash, which owns
// every Docker action (lib/fault-bridge.sh): request and reply lines, and why bash and not the
// Docker API, in DEVELOPERS.md, "The Docker interface". The ops and their argument names are read
// from docker-ops.tsv beside this file, the one list bash reads too (lib/fault-bridge.sh, the
// authority: it refuses with 126 what it does not allow).
const fs = require('node:fs');
const path = require('node:path');
const readline = require('node:readline');
const { EventEmitter } = require('node:events');
const { parseTable } = require('../../../common/tables');

const PREFIX = '@lab-docker';
// bash's relay of a signal it received (lib/fault-bridge.sh): `@lab-signal<TAB>SIGINT|SIGTERM`
const SIGNAL_PREFIX = '@lab-signal\t';

// TABLE: {op: {args: [names in order], kind: 'action'|'probe'|'hook', undo}} from docker-ops.tsv.
// undo: what `fault heal` does about the action (scenarios/heal.js): an op, "cannot: why", or "-"
const TABLE = Object.fromEntries(parseTable(fs.readFileSync(path.join(__dirname, 'docker-ops.tsv'), 'utf8'))
  .map((r) => [r.op, { args: r.args === '-' ? [] : r.args.split(','), kind: r.kind, undo: r.undo ?? '-' }]));

class RefusedError extends Error {}

function encodeRequest(id, op, args) {
  if (!TABLE[op]) throw new RefusedError(`docker action '${op}' is not in the allow-list (${Object.keys(TABLE).join(', ')})`);
  // the op's argument names, in order, read from the request's args object
  const vals = TABLE[op].args.map((n) => {
    const v = args[n];
    if (v === undefined || v === null || v === '') throw new RefusedError(`docker action '${op}' needs ${n}`);
    const s = String(v);
    if (/[\t\n\r]/.test(s)) throw new RefusedError(`docker action '${op}': ${n} must not hold a tab or newline`);
    return s;
  });
  return [PREFIX, id, op, ...vals].join('\t');
}

function decodeReply(line) {
  const [id, rc, b64 = ''] = line.split('\t');
  return { id: Number(id), rc: Number(rc), output: Buffer.from(b64, 'base64').toString('utf8') };
}

// DockerPeer: ask(op, args) -> Promise<{rc, output}>; rejects when bash refuses (126), the action
// fails (rc != 0, unless allowFail) or bash's side closes (the run is being torn down).
// A signal bash relays is the event 'signal' (its name), taken by the runner while a run can be
// healed (runner.js); with no listener it is raised on this process, as if sent to it.
class DockerPeer extends EventEmitter {
  constructor({ input = process.stdin, output = process.stdout } = {}) {
    super();
    this.output = output;
    this.next = 1;
    this.pending = new Map();
    this.closed = false;
    this.rl = readline.createInterface({ input });
    this.rl.on('line', (l) => {
      if (!l.trim()) return;
      if (l.startsWith(SIGNAL_PREFIX)) {
        const sig = l.slice(SIGNAL_PREFIX.length).trim();
        if (!['SIGINT', 'SIGTERM'].includes(sig)) return;
        if (this.listenerCount('signal')) this.emit('signal', sig);
        else process.kill(process.pid, sig);
        return;
      }
      const r = decodeReply(l);
      const p = this.pending.get(r.id);
      if (!p) return; // a reply to nothing: ignored rather than crashing the run
      this.pending.delete(r.id);
      p.resolve(r);
    });
    this.rl.on('close', () => {
      this.closed = true;
      for (const p of this.pending.values()) p.reject(new Error('the docker side (bash) closed before replying'));
      this.pending.clear();
    });
  }

  async ask(op, args = {}, { allowFail = false } = {}) {
    const id = this.next++;
    const line = encodeRequest(id, op, args);
    if (this.closed) throw new Error('the docker side (bash) is closed');
    const reply = await new Promise((resolve, reject) => {
      this.pending.set(id, { resolve, reject });
      this.output.write(`${line}\n`);
    });
    if (reply.rc === 126) throw new RefusedError(`bash refused docker action '${op}': ${reply.output.trim()}`);
    if (reply.rc !== 0 && !allowFail) throw new Error(`docker action '${op} ${Object.values(args).join(' ')}' failed (exit ${reply.rc}): ${reply.output.trim().split('\n').pop() || ''}`);
    return reply;
  }

  close() {
    this.rl.close();
  }
}

module.exports = { DockerPeer, encodeRequest, RefusedError, TABLE, PREFIX, SIGNAL_PREFIX };
