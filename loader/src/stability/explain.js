'use strict';
// Each dip explained by what the server record holds for the dip's seconds and the second before
// (issue 40 item 2), by the rules of causes.json: every rule that holds is listed with the rows
// that made it hold (member, time, field, value), so a reviewer can check it against
// server.ndjson; no rule holding is "no server event recorded", never a guess.
// Pure: series = the server record's rows (src/server-record/sampler.js `series`), loader =
// the step's measured seconds as runner.js keeps them ({ end, interval_s, selfs, host }).
const { median } = require('../../../common/stats');
const RULES = require('./causes.json').rules;

const NO_EVENT = 'no server event recorded';

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
      const p = prev ? valueOf(prev, cond.field) : undefined;
      if (v === undefined || p === undefined) return undefined;
      if (cond.op === 'changed') return v !== p ? `${p} -> ${v}` : undefined;
      return v - p >= cond.value ? `${p} -> ${v}` : undefined;
    }
    case 'burst': {
      const m = ctx.memberMedian(row.member, cond.field);
      return typeof v === 'number' && v >= cond.min && m !== null && v >= cond.value * m ? `${v} (step median ${m})` : undefined;
    }
    case 'view_unhealthy': {
      const bad = (row.view || []).filter((m) => !['PRIMARY', 'SECONDARY', 'ARBITER'].includes(m.state));
      return bad.length ? bad.map((m) => `${m.name} ${m.state}`).join(', ') : undefined;
    }
    default: return undefined;
  }
}

// explainDips(dips, { series, loader, from, to }) -> the dips, each with `causes` and `cause_text`.
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
  return dips.map((d) => {
    const lo = Date.parse(d.start) - 1000; // the second before the dip
    const hi = Date.parse(d.end);
    const rows = series.filter((r) => r.at >= lo && r.at <= hi);
    const secs = loader.filter((s) => s.end > lo && s.end <= hi).map((s) => ({ at: s.end, values: { loader: loaderValues(s) } }));
    const causes = [];
    for (const rule of RULES) {
      const evidence = [];
      for (const cond of rule.any) {
        if (cond.op === 'member_silent') {
          for (const m of members) if (!rows.some((r) => r.member === m)) evidence.push({ member: m, condition: 'no server.ndjson line in these seconds (did not answer)' });
          continue;
        }
        const pool = rule.source === 'loader' ? secs : cond.op === 'view_unhealthy' ? rows.filter((r) => r.view) : rows.filter((r) => r.member);
        for (const r of pool) {
          const c = rule.source === 'loader' ? { ...cond, field: `loader.${cond.field}` } : cond;
          const v = holds(c, r, ctx);
          if (v !== undefined) evidence.push({ ...(r.member ? { member: r.member } : {}), t: new Date(r.at).toISOString(), field: cond.field || cond.op, value: v });
        }
      }
      if (evidence.length) causes.push({ id: rule.id, says: rule.says, evidence: evidence.slice(0, 4) });
    }
    // The server's causes, or "no server event recorded"; the loader's own stall is said apart,
    // after them: it is not a server event, and a stall the server did not report stays so.
    const server = causes.filter((c) => c.id !== 'loader_host');
    const host = causes.find((c) => c.id === 'loader_host');
    return { ...d, causes, cause_text: `${server.length ? server.map((c) => c.says).join(', ') : NO_EVENT}${host ? `; ${host.says}` : ''}` };
  });
}

module.exports = { explainDips, NO_EVENT, RULES };
