'use strict';
// The sampler: once a second, each member it can reach, over its own connection (one client per
// member, directConnection, pool of 1), on the main thread, which runs no measured operation:
// serverStatus; on a replica-set member also replSetGetStatus and the oplog's first and last
// entry. One line per member per second goes to server.ndjson (src/server-record/file.js).
//
// Honest about gaps (a member that does not answer in time, a field never reported, a command
// refused): loader/README.md, "The server's side".
const { driver } = require('../server/driver-line');
const { clientOptions } = require('../server/clients');
const { FIELDS } = require('./fields');
const { readStatus, lineValues } = require('./delta');
const { initialMembers, configMembers, memberUri } = require('./members');
const { replOf, oplogEnds } = require('./repl');
const { processStart } = require('../server/describe');
const { sameProcess } = require('../../../common/process-start');

// A member's commands share the second: whatever has not answered 900 ms after the tick is left
// for the next one (that member's second is missed), so one slow member never delays the others.
const ANSWER_WITHIN_MS = 900;
const UNAUTHORIZED = new Set([13, 'Unauthorized']);

class ServerRecord {
  // conn: the run's connection settings (uri, credentials, driverLine); description: describe.js;
  // seedHosts: the run client's hosts; out: { write(obj) } for server.ndjson; log(line).
  constructor({ conn, description, seedHosts, out, log, intervalMs = 1000, now = () => Date.now() }) {
    Object.assign(this, { conn, out, log, intervalMs, now });
    this.members = [];
    this.notRecorded = [];
    this.series = []; // compact per-second rows for per-step facts (step-facts.js)
    this.linesWritten = 0;
    for (const m of initialMembers(description, seedHosts)) this.addMember(m);
  }

  addMember({ host, role, set }) {
    if (this.members.some((m) => m.host === host)) return;
    const { MongoClient } = driver(this.conn.driverLine);
    const uri = memberUri(this.conn.uri, host);
    const opts = clientOptions({ ...this.conn, uri, serverSelectionTimeoutMs: 2000 }, null, {
      directConnection: true, maxPoolSize: 1, minPoolSize: 0, appName: 'lab-server-record', socketTimeoutMS: 5000,
    });
    delete opts.retryWrites; // the record writes nothing
    this.members.push({
      host, role, set, client: new MongoClient(uri, opts), busy: false, prev: null,
      lines: 0, missed: 0, reported: new Set(), answered: false, refused: new Set(), failing: null,
    });
  }

  start() {
    this.startedAt = this.now();
    // A timer may fire a millisecond before its time by the wall clock (Node's timers run on a
    // monotonic one): waiting the rest keeps each tick in its own interval, never two in one. The
    // line's time is the reading that found the tick due, and the next tick is due in an interval
    // after the last line's: a later reading a little behind it cannot bring either back.
    const fire = (due) => {
      const at = this.now();
      if (at < due) this.timer = setTimeout(() => fire(due), due - at);
      else this.pending = this.sweep(at).finally(loop);
    };
    const loop = () => {
      if (this.stopped) return;
      const next = Math.max(Math.ceil((this.now() - this.startedAt + 1) / this.intervalMs), (this.lastSlot ?? -1) + 1);
      const due = this.startedAt + next * this.intervalMs;
      this.timer = setTimeout(() => fire(due), Math.max(0, due - this.now()));
    };
    loop();
  }

  async stop() {
    this.stopped = true;
    clearTimeout(this.timer);
    if (this.pending) await Promise.race([this.pending, new Promise((r) => setTimeout(r, ANSWER_WITHIN_MS + 100))]);
    await Promise.all(this.members.map((m) => Promise.race([m.client.close(true).catch(() => {}),
      new Promise((r) => setTimeout(r, 1000))])));
  }

  // sweep(): one second: every member at once; then the lines, lag computed against the
  // primary's own replSetGetStatus (the view rs.printSecondaryReplicationInfo uses).
  async sweep(at = this.now()) {
    // A tick whose timer fired a whole interval late (a saturated host) lands in the next
    // interval, and start()'s next due time is after it: the interval it skipped has no line for
    // any member and is counted as missed, so "a line or a miss for every second" holds.
    const slot = Math.floor((at - this.startedAt) / this.intervalMs);
    const skipped = this.lastSlot === undefined ? 0 : slot - this.lastSlot - 1;
    this.lastSlot = slot;
    if (skipped > 0) for (const m of this.members) m.missed += skipped;
    const results = await Promise.all(this.members.map((m) => this.sampleMember(m)));
    const primary = results.find((r) => r && r.repl && r.repl.self_state === 'PRIMARY');
    // The primary's view of every member this second: state changes (step-facts.js) include a
    // member that stopped answering the record, as the primary sees it go.
    if (primary) this.series.push({ at, view: (primary.repl.raw.members || [])
      .map((x) => ({ name: x.name, state: x.stateStr })) });
    for (let i = 0; i < this.members.length; i++) {
      const m = this.members[i];
      const r = results[i];
      if (!r) { m.missed += 1; continue; }
      this.writeLine(m, r, primary, at);
    }
  }

  async sampleMember(m) {
    if (m.busy) return null; // last second's commands are still out: this second is missed
    m.busy = true;
    // What the member says is heard when it comes, even after its second was given up: a killed
    // member's next command waits out server selection (2 s), longer than a second allows, so a
    // failure read only inside the race would never be said, and its seconds go missing silently.
    // Once the record is stopped its own close ends the commands still out (the driver fails them
    // as closed): that is not the member's answer, and the summary keeps what the member said.
    const work = this.readMember(m).then((r) => {
      if (this.stopped) return null;
      if (m.failing) { this.log(`server record: ${m.host} answers again`); m.failing = null; }
      return r;
    }, (e) => {
      if (this.stopped) return null;
      if (!m.failing) this.log(`server record: ${m.host} did not answer (${e.name}: ${e.message}); its seconds are absent until it answers`);
      m.failing = `${e.name}: ${e.message}`;
      return null;
    }).finally(() => { m.busy = false; });
    const timeout = new Promise((r) => setTimeout(() => r(null), ANSWER_WITHIN_MS));
    return Promise.race([work, timeout]);
  }

  // refused(m, what, e): a privilege the run's user lacks: said once, not asked again.
  refused(m, what, e) {
    if (!UNAUTHORIZED.has(e.code) && !UNAUTHORIZED.has(e.codeName)) return false;
    if (!m.refused.has(what)) {
      m.refused.add(what);
      const line = `${m.host}: ${what} refused (${e.codeName || e.code}: ${e.message}): ${what === 'serverStatus' ? 'no server counters' : what === 'replSetGetStatus' ? 'no member state, optime or lag' : 'no oplog window'} recorded for it (grant the run's user clusterMonitor${what === 'oplog' ? ' and read on local' : ''})`;
      this.notRecorded.push(line);
      this.log(`server record: ${line}`);
    }
    return true;
  }

  async readMember(m) {
    const admin = m.client.db('admin');
    const at = this.now();
    // ask(what, read, otherwise): what read answers; null when the user lacks the privilege (said
    // once, never asked again); any other error is otherwise's, which answers for it or rejects.
    const ask = async (what, read, otherwise = (e) => Promise.reject(e)) => {
      if (m.refused.has(what)) return null;
      try {
        return await read();
      } catch (e) {
        return this.refused(m, what, e) ? null : otherwise(e);
      }
    };
    const status = await ask('serverStatus', () => admin.command({ serverStatus: 1 }));
    if (status) for (const c of configMembers(status)) this.addMember(c);
    const isMember = Boolean(status && status.repl && status.repl.setName) || (m.set && m.role !== 'router');
    const notReplicated = (e) => (/NoReplicationEnabled|not running with --replSet/.test(e.message) ? null : Promise.reject(e));
    const repl = isMember
      ? await ask('replSetGetStatus', async () => replOf(await admin.command({ replSetGetStatus: 1 }), m.host), notReplicated)
      : null;
    const oplog = repl
      ? await ask('oplog', () => oplogEnds(m.client), (e) => ({ error: `${e.codeName || e.name}: ${e.message}` })) : null;
    m.answered = true;
    return { at, status, repl, replStatus: repl && repl.raw, oplog };
  }

  writeLine(m, r, primary, at) {
    const line = { t: new Date(at).toISOString(), member: m.host, role: m.role, ...(m.set ? { set: m.set } : {}) };
    let values = {};
    if (r.status) {
      const cur = { at: r.at, ...readStatus(r.status) };
      for (const k of Object.keys(cur.values)) m.reported.add(k);
      const { fields, gaps } = lineValues(m.prev, cur);
      line.interval_s = m.prev ? Math.round((cur.at - m.prev.at) / 10) / 100 : null;
      Object.assign(line, fields);
      if (gaps.length) line.gaps = gaps;
      m.prev = cur;
      values = fields;
    }
    if (r.repl) {
      const view = primary ? primary.repl : r.repl;
      const lag = view.lagOf(m.host);
      line.repl = {
        state: r.repl.self_state,
        optime: r.repl.self_optime,
        ...(r.repl.self_state === 'SECONDARY' ? { lag_s: lag.lagSeconds, lag_source: lag.source, ...(lag.floor_s ? { lag_floor_s: lag.floor_s } : {}), lag_seen_by: primary ? 'primary' : 'itself (no primary answered this second)' } : {}),
        ...(r.oplog && !r.oplog.error ? r.oplog : {}),
        ...(r.oplog && r.oplog.error ? { oplog_error: r.oplog.error } : {}),
      };
    }
    m.lines += 1;
    this.linesWritten += 1;
    this.out.write(line);
    if (r.status && r.status.storageEngine && r.status.storageEngine.name) m.engine = r.status.storageEngine.name;
    // Each member's process, every second (pid and start time: common/process-start.js): a member
    // behind a mongos, or a replica-set member the run does not talk to, that restarts is seen
    // here at no extra cost; its host is its own (directConnection), so a failover is no restart.
    const p = r.status ? processStart(r.status) : null;
    if (p && m.process && !sameProcess(m.process, p)) (m.restarts ||= []).push({ t: new Date(at).toISOString(),
      from: m.process, to: p });
    if (p) m.process = p;
    this.series.push({ at, member: m.host, role: m.role, set: m.set, engine: m.engine ?? null,
      interval_s: line.interval_s ?? null, values, repl: line.repl || null });
  }

  // restarts() -> [{ host, role, t, from, to }]: every member process that changed while recorded.
  restarts() {
    return this.members.flatMap((m) => (m.restarts || []).map((x) => ({ host: m.host, role: m.role, ...x })));
  }

  // summary() -> summary.json server_record.
  summary() {
    const absent = {};
    for (const m of this.members) {
      if (!m.answered || m.refused.has('serverStatus')) continue;
      // A group none of whose fields the member reported is one entry ("mmapv1.*"), so the list
      // reads as what the line lacks: a WiredTiger member has no MMAPv1 or MongoRocks section.
      const missing = [...new Set(FIELDS.map((f) => f.key.split('.')[0]))].flatMap((group) => {
        const keys = FIELDS.map((f) => f.key).filter((k) => k.startsWith(`${group}.`));
        const not = keys.filter((k) => !m.reported.has(k));
        return not.length === keys.length ? [`${group}.*`] : not;
      });
      if (missing.length) absent[m.host] = missing;
    }
    return {
      file: 'server.ndjson',
      interval_ms: this.intervalMs,
      // The ticks are due at started_at + k x interval_ms: the interval a line's time falls in is
      // its second, and a second with no line of a member is in that member's missed_s.
      started_at: this.startedAt === undefined ? null : new Date(this.startedAt).toISOString(),
      fields: 'loader/src/server-record/fields.js (per server line, with the source each name was read in)',
      lines: this.linesWritten,
      members: this.members.map((m) => ({ host: m.host, role: m.role, set: m.set ?? null, lines: m.lines,
        missed_s: m.missed, ...(m.failing ? { last_error: m.failing } : {}),
        ...(m.restarts ? { restarts: m.restarts } : {}) })),
      absent,
      not_recorded: this.notRecorded,
    };
  }
}

module.exports = { ServerRecord };
