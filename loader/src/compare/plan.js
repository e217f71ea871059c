'use strict';
// The order of a comparison's runs (./run.sh compare): every side REPEAT times, in rounds; odd
// rounds in the order given, even rounds reversed (A B B A for two sides, A B C C B A for three).
// Why: the host's drift falls on every side alike, and neighbouring runs are of different sides
// (README.md "Comparing engines: the report"). An odd REPEAT leaves its last round unbalanced;
// the plan printed by lib/compare.sh says so.

// planOrder(repeat, sides) -> [{ position, side }], positions from 1 in run order.
function planOrder(repeat, sides) {
  const reversed = [...sides].reverse();
  const order = [];
  for (let round = 1; round <= repeat; round++) order.push(...(round % 2 ? sides : reversed));
  return order.map((side, i) => ({ position: i + 1, side }));
}

// planTsv(plan) -> plan.tsv's text: position<TAB>side, one line a run.
const planTsv = (plan) => plan.map(({ position, side }) => `${position}\t${side}\n`).join('');

module.exports = { planOrder, planTsv };
