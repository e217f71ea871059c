'use strict';
// Each dip explained by what the server record holds for the dip's seconds and the second before
//, by the rules of causes.json: every rule that holds is listed with the rows
// that made it hold (member, time, field, value), so a reviewer can check it against
// server.ndjson; no rule holding is "no server event recorded", never a guess.
// A rule is named as a cause ("with ...") only where its event is more frequent in the step's
// dips than outside them: each rule's base rate over the step's 2 s windows (the share of windows
// in dips where it holds, against the share outside dips) is kept with it (base_rate), and an
// event at least as frequent outside the dips is said as "coincides with ..." at most, in
// `coincides`, never among `causes` (MongoRocks' compaction-pending, one evicted page: events of
// every second are no cause of a dip). The comparison needs MIN_OUTSIDE_WINDOWS windows outside
// the dips: the window after a dip often holds the event that outlasted it by a second (a
// checkpoint's last row), and a live dip early in a step (live.js) had only that window outside,
// "1/1", which said the checkpoint it was in coincided with it. Below that the rule is named as
// a cause, its base rate kept with it.
// Pure: series = the server record's rows (src/server-record/sampler.js `series`), loader =
// the step's measured seconds as run/step-loop.js keeps them ({ end, interval_s, selfs, host }).
const { median } = require('../../../common/stats');
const RULES = require('./causes.json').rules;

const NO_EVENT = 'no server event recorded';
const MIN_OUTSIDE_WINDOWS = 3;

// valueOf(row, key): 'repl.x' from the row's replication part, else from its serverStatus values.
function valueOf(row, key) {
  const [group, name] = key.split('.');
  const from = group === 'repl' ? row.repl : row.values && row.values[group];
  const v = from ? from[name] : undefined;
  return typeof v === 'number' || typeof v === 'string' ? v : undefined;
}

const loaderValues = (s) => ({
  eld_max_ms: Math.max(-1, ...(s.selfs || []).map((w) => (typeof w.eldMaxMs === 'number' ? w.eldMaxMs : -1))),
  steal_cores: s.host ? s.host.steal_cores : undefined,
  other_share: s.host && s.host.cores ? Math.round((s.host.other_cores / s.host.cores) * 1000) / 1000 : undefined,
});

// holds(cond, row, ctx) -> the value that made it hold, or undefined.
function holds(cond, row, ctx) {
  const v = cond.field ? valueOf(row, cond.field) : undefined;
  switch (cond.op) {
    case 'gt': return typeof v === 'number' && v > cond.value ? v : undefined;
    case 'ge': return typeof v === 'number' && v >= cond.value ? v : undefined;
    case 'le': return typeof v === 'number' && v <= cond.value ? v : undefined;
    case 'ratio_ge': {
      const over = valueOf(row, cond.over);
      return typeof v === 'number' && over > 0 && v / over >= cond.value ? Math.round((v / over) * 1000) / 1000 : undefined;
    }
    case 'rise_ge': case 'changed': {
      const prev = ctx.previous(row);
      // Only between adjacent seconds: a rise against a row further back is no jump.
      if (cond.op === 'rise_ge' && prev && row.at - prev.at > 1500) return undefined;
      const p = prev ? valueOf(prev, cond.field) : undefined;
      if (v === undefined || p === undefined) return undefined;
      if (cond.op === 'changed') return v !== p ? `${p} -> ${v}` : undefined;
      // Lag from the heartbeat optime moves 0-2 s with no event (its floor, repl.js lag_floor_s):
      // a jump there must rise that much further.
      const floor = cond.field === 'repl.lag_s' && row.repl && typeof row.repl.lag_floor_s === 'number' ? row.repl.lag_floor_s : 0;
      return v - p >= cond.value + floor ? `${p} -> ${v}` : undefined;
    }
    case 'burst': {
      const m = ctx.memberMedian(row.member, cond.field);
      return typeof v === 'number' && v >= cond.min && m !== null && v >= cond.value * m ? `${v} (step median ${m})` : undefined;
    }
    case 'view_unhealthy': {
      const bad = (row.view || []).filter((m) => !['PRIMARY', 'SECONDARY', 'ARBITER'].includes(m.state));
      return bad.length ? bad.map((m) => `${m.name} ${m.state}`).join(', ') : undefined;
    }
  }
}

// explainDips(dips, { series, loader, from, to }) -> the dips, each with `causes`, `coincides`
// and `cause_text`.
function explainDips(dips, { series = [], loader = [], from, to }) {
  if (!dips) return dips;
  const stepRows = series.filter((r) => r.at > from && r.at <= to);
  const medians = new Map();
  const ctx = {
    previous(row) {
      for (let i = series.indexOf(row) - 1; i >= 0; i--) if (series[i].member === row.member) return series[i];
      return null;
    },
    memberMedian(member, key) {
      const k = `${member}\t${key}`;
      if (!medians.has(k)) medians.set(k, median(stepRows.filter((r) => r.member === member).map((r) => valueOf(r, key)).filter((x) => typeof x === 'number')));
      return medians.get(k);
    },
  };
  const members = [...new Set(stepRows.filter((r) => r.member).map((r) => r.member))];
  // evidenceIn(rule, lo, hi): the rows of [lo, hi] on which the rule holds. A rule may name
  // engines it does not apply to (not_on: the row's serverStatus.storageEngine.name).
  const evidenceIn = (rule, lo, hi) => {
    const rows = series.filter((r) => r.at >= lo && r.at <= hi
      && !(rule.not_on && r.engine && rule.not_on.includes(r.engine)));
    const secs = loader.filter((s) => s.end > lo && s.end <= hi)
      .map((s) => ({ at: s.end, values: { loader: loaderValues(s) } }));
    const evidence = [];
    for (const cond of rule.any) {
      if (cond.op === 'member_silent') {
        for (const m of members) if (!rows.some((r) => r.member === m)) evidence.push({ member: m, condition: 'no server.ndjson line in these seconds (did not answer)' });
        continue;
      }
      // An event placed back over its own length (an MMAPv1 flush is reported in the second it
      // ends, with last_ms its length): rows up to that length after the window count too.
      const pool = cond.back_ms_field ? series.filter((r) => r.member && r.at >= lo && r.at <= hi + 60000
        && r.at - (Number(valueOf(r, cond.back_ms_field)) || 0) <= hi)
        : rule.source === 'loader' ? secs : cond.op === 'view_unhealthy' ? rows.filter((r) => r.view) : rows.filter((r) => r.member);
      for (const r of pool) {
        const c = rule.source === 'loader' ? { ...cond, field: `loader.${cond.field}` } : cond;
        const v = holds(c, r, ctx);
        if (v !== undefined) evidence.push({ ...(r.member ? { member: r.member } : {}), t: new Date(r.at).toISOString(),
          field: cond.field || cond.op, value: v });
      }
    }
    return evidence;
  };
  const windows = dips.map((d) => [Date.parse(d.start) - 1000, Date.parse(d.end)]);
  const inDip = (lo, hi) => windows.some(([a, b]) => lo <= b && hi >= a);
  // The step's 2 s windows, each in a dip or outside: the base rate of every rule.
  const steps = [];
  for (let hi = from + 2000; hi <= to; hi += 1000) steps.push([hi - 2000 + 1, hi]);
  const base = new Map(RULES.map((rule) => {
    const n = { in: [0, 0], out: [0, 0] };
    for (const [lo, hi] of steps) {
      const k = inDip(lo, hi) ? 'in' : 'out';
      n[k][1] += 1;
      if (evidenceIn(rule, lo, hi).length) n[k][0] += 1;
    }
    return [rule.id, n];
  }));
  return dips.map((d) => {
    const lo = Date.parse(d.start) - 1000; // the second before the dip
    const hi = Date.parse(d.end);
    const causes = [];
    const coincides = [];
    for (const rule of RULES) {
      const evidence = evidenceIn(rule, lo, hi);
      if (!evidence.length) continue;
      const n = base.get(rule.id);
      const rateIn = n.in[1] ? n.in[0] / n.in[1] : 1;
      const rateOut = n.out[1] ? n.out[0] / n.out[1] : 0;
      const entry = { id: rule.id, says: rule.says, evidence: evidence.slice(0, 4), base_rate: { in_dips: `${n.in[0]}/${n.in[1]}`, outside_dips: `${n.out[0]}/${n.out[1]}` } };
      if (rateIn > rateOut || n.out[1] < MIN_OUTSIDE_WINDOWS) causes.push(entry);
      else coincides.push(entry);
    }
    // The server's causes, or "no server event recorded"; the loader's own stall is said apart,
    // after them: it is not a server event, and a stall the server did not report stays so.
    const server = causes.filter((c) => c.id !== 'loader_host');
    const host = causes.find((c) => c.id === 'loader_host');
    const also = coincides.length ? `; coincides with ${coincides.map((c) => `${c.says.replace(/^(with|during) /, '')} (as often outside dips: ${c.base_rate.outside_dips} windows)`).join(', ')}` : '';
    return { ...d, causes, ...(coincides.length ? { coincides } : {}), cause_text: `${server.length ? server.map((c) => c.says).join(', ') : NO_EVENT}${host ? `; ${host.says}` : ''}${also}` };
  });
}

module.exports = { explainDips, NO_EVENT, RULES, MIN_OUTSIDE_WINDOWS };
