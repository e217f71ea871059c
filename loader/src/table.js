'use strict';
// The console table printed at the end of a run, from the summary's steps (every kind alike:
// one row per step and op, whatever ops the kind records).
function formatTable({ name, engine, complete, steps, preload }) {
  if (!steps.length) return '';
  const rows = [['step', 'clients', 'op', 'ops', 'ops/s', 'p50 ms', 'p99 ms', 'p99.9 ms', 'errors']];
  const ms = (us) => (us === null || us === undefined ? '-' : (us / 1000).toFixed(2));
  for (const s of steps) {
    for (const [op, o] of Object.entries(s.ops)) {
      // A case is named (w:majority, j:true, ...): its name beside its number.
      rows.push([s.name ? `${s.index} ${s.name}` : String(s.index), String(s.clients), op, String(o.count), String(o.ops_per_s), ms(o.latency_us.p50), ms(o.latency_us.p99), ms(o.latency_us.p999), String(o.errors)]);
      if (o.intended_latency_us) rows.push(['', '', `${op} (intended)`, '', '', ms(o.intended_latency_us.p50), ms(o.intended_latency_us.p99), ms(o.intended_latency_us.p999), '']);
    }
  }
  const widths = rows[0].map((_, i) => Math.max(...rows.map((r) => r[i].length)));
  const lines = rows.map((r) => r.map((c, i) => (i < 3 ? c.padEnd(widths[i]) : c.padStart(widths[i]))).join('  '));
  let out = `\n${name} on ${engine}${complete ? '' : ' (INCOMPLETE)'}\n${lines.join('\n')}\n`;
  if (preload) out += `preload: ${preload.docs} docs in ${preload.duration_s}s (not measured)\n`;
  for (const s of steps) {
    if (!s.complete) out += `note: step ${s.index} ended early; its ops/s are over the ${s.measured_s} s it was measuring (to its last completed operation)\n`;
    if (s.loader.limited) out += `WARNING: step ${s.index} was limited by the loader, not the server: ${s.loader.reasons.join('; ')}\n`;
    if (s.loader.contention.length) out += `note: step ${s.index} shared the host with other load (not counted against the loader): ${s.loader.contention.join('; ')}\n`;
  }
  return out;
}

module.exports = { formatTable };
