'use strict';
// groupBy(items, keyOf, valueOf) -> Map(key -> [valueOf(item), ...]), keys in the order first seen:
// runs by set, by side, by group. (Map.groupBy is Node 21's; the report runs on 20.19 too.)
function groupBy(items, keyOf, valueOf = (x) => x) {
  const out = new Map();
  for (const x of items) {
    const k = keyOf(x);
    if (!out.has(k)) out.set(k, []);
    out.get(k).push(valueOf(x));
  }
  return out;
}

module.exports = { groupBy };
