'use strict';
// ./run.sh smoke checks that every dashboard panel's query returns data (lib/monitoring.sh,
// monitoring_panels_have_data). The intended-latency panel reads lab_loader_intended_latency_seconds,
// which the loader sets only in a paced step (--rate: src/run/metrics.js setIntendedLatency), so with
// no smoke step paced that panel is always empty and smoke cannot pass. At least one experiment's
// smoke: line paces its steps, and the loader accepts that line.
const test = require('node:test');
const assert = require('node:assert/strict');
const fs = require('node:fs');
const path = require('node:path');
const YAML = require('js-yaml');

const ROOT = path.join(__dirname, '..', '..');
const EXPERIMENTS = path.join(ROOT, 'experiments');

test('the intended-latency panel is fed by paced steps only, and a smoke: line paces one', () => {
  const generated = fs.readdirSync(path.join(ROOT, 'dashboards')).filter((f) => f.endsWith('.json'))
    .some((f) => fs.readFileSync(path.join(ROOT, 'dashboards', f), 'utf8').includes('lab_loader_intended_latency_seconds'));
  assert.ok(generated, 'a dashboard panel reads lab_loader_intended_latency_seconds');
  const paced = fs.readdirSync(EXPERIMENTS).filter((f) => f.endsWith('.yaml')).filter((f) => {
    const doc = YAML.load(fs.readFileSync(path.join(EXPERIMENTS, f), 'utf8'), { schema: YAML.CORE_SCHEMA });
    return /(^|\s)--rate\s+[1-9][0-9]*(\s|$)/.test(doc.smoke || '');
  });
  assert.ok(paced.length >= 1, 'no experiment\'s smoke: line has --rate N: the intended-latency panel stays empty in ./run.sh smoke');
});
