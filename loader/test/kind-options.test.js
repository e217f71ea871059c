'use strict';
// Every workload kind's own settings as it declares them (src/kinds/index.js `options`), learned
// from the registry (KINDS), never from a list: `lab-loader flags` and NAME --help print each
// option's declared default (or "required") and file key; `check` takes each from its flag, else
// the experiment file's key, else the default (a required one missing is refused naming the key)
// and says which; a file value goes through the flag's own parser (a bad one names the file and
// the key). Each kind is tried on a copy of an experiment file of that kind.
const test = require('node:test');
const assert = require('node:assert/strict');
const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');
const { spawnSync } = require('node:child_process');
const YAML = require('js-yaml');
const { KINDS } = require('../src/kinds');
const { optionsProblem } = require('../src/module-contract');
const { parse } = require('../src/cli/args');
const { load } = require('../src/experiment/config');
const { settingsLines } = require('../src/cli/catalog');
const { UsageError } = require('../src/text/usage');
const { WIDTH } = require('../src/text/wrap');

const REPO = path.resolve(__dirname, '..', '..');
const EXPERIMENTS = path.join(REPO, 'experiments');
const lab = (...args) => spawnSync(process.execPath, [path.join(REPO, 'loader', 'bin', 'lab-loader.js'), ...args, '--experiments-dir', EXPERIMENTS], { encoding: 'utf8' });
const files = fs.readdirSync(EXPERIMENTS).filter((f) => f.endsWith('.yaml')).map((f) => YAML.load(fs.readFileSync(path.join(EXPERIMENTS, f), 'utf8'), { schema: YAML.CORE_SCHEMA }));
const KINDS_WITH_OPTIONS = Object.values(KINDS).filter((k) => Object.keys(k.options || {}).length);
const experimentsOf = (k) => files.filter((d) => d.workload?.type === k.name);
const at = (doc, dotted) => dotted.split('.').reduce((v, key) => v?.[key], doc);
function put(doc, dotted, value) {
  const keys = dotted.split('.');
  const last = keys.pop();
  const parent = keys.reduce((v, key) => (v[key] ??= {}), doc);
  if (value === undefined) delete parent[last];
  else parent[last] = value;
}
const asText = (v) => [].concat(v).join(',');
const declared = (o) => (o.required ? '[required' : `[default ${o.default ?? 'none'}`);
// refusal(o, name, text): the message o's parser gives for text under name, or null when it takes it.
function refusal(o, name, text) {
  try {
    o.parse(name, text);
    return null;
  } catch (e) {
    return e.message;
  }
}

// check(doc, args): what `lab-loader check` does with the experiment file doc (written to a
// scratch folder) and the flags: { status 0, out: its printed lines, settings } or { status 2, err }.
const scratch = fs.mkdtempSync(path.join(os.tmpdir(), 'lab-kind-options-'));
test.after(() => fs.rmSync(scratch, { recursive: true, force: true }));
function check(doc, args = []) {
  const file = path.join(scratch, `${doc.name}.yaml`);
  fs.writeFileSync(file, YAML.dump(doc));
  try {
    const { config, settings } = load(parse(['check', doc.name, '--experiments-dir', scratch, ...args]));
    return { file, status: 0, out: settingsLines(config.workload.type, settings), settings };
  } catch (e) {
    if (!(e instanceof UsageError)) throw e;
    return { file, status: 2, err: e.message };
  }
}
// shown(out, flag) -> { text, source } as the check line prints the option.
function shown(out, flag) {
  const m = new RegExp(`(?:^|[ :])${flag} (\\S+) \\((flag|file|default)\\)`).exec(out);
  assert.ok(m, `${flag} in the check line: ${out}`);
  return { text: m[1], source: m[2] };
}
// smokeValue(doc, flag): the flag's value in the file's smoke: line (a size the kind takes).
const smokeValue = (doc, flag) => {
  const words = String(doc.smoke || '').split(/\s+/);
  const i = words.indexOf(flag);
  return i >= 0 ? words[i + 1] : undefined;
};

// The declaration's own rules are the loader's check as it loads a kind (src/module-contract.js
// optionsProblem: a flag, a parser, help without the default in it, a default or required, a
// default that parses); test/module-contract.test.js shows a broken one refused.
test('every kind option declares a flag, a parser, help without a default written in it, and a default or required', () => {
  assert.ok(KINDS_WITH_OPTIONS.length > 0);
  for (const k of KINDS_WITH_OPTIONS) assert.equal(optionsProblem(k.options), null, k.name);
});

test('flags (./run.sh help) and NAME --help print each option\'s declared default, its file key and each file\'s value', () => {
  const flags = lab('flags');
  assert.equal(flags.status, 0, flags.stderr);
  // entry(text, flag): the option's line and its continuation lines, joined
  const entry = (text, flag) => {
    const lines = text.split('\n');
    const i = lines.findIndex((l) => l.startsWith(`  ${flag} `));
    assert.ok(i >= 0, `${flag} listed:\n${text}`);
    let j = i + 1;
    while (j < lines.length && /^ {26}\S/.test(lines[j])) j++;
    return lines.slice(i, j).map((l) => l.trim()).join(' ');
  };
  for (const k of KINDS_WITH_OPTIONS) {
    const docs = experimentsOf(k);
    assert.ok(docs.length > 0, `${k.name}: an experiment of the kind (flags lists a kind by its experiments)`);
    const help = lab(docs[0].name, '--help');
    assert.equal(help.status, 0, help.stderr);
    for (const o of Object.values(k.options)) {
      for (const [what, text, values] of [['flags', flags.stdout, docs], ['NAME --help', help.stdout, docs.slice(0, 1)]]) {
        const line = entry(text, o.flag);
        assert.ok(line.includes(declared(o)), `${what}: ${o.flag} says ${declared(o)}: ${line}`);
        if (!o.file) continue;
        assert.ok(line.includes(`file: ${o.file}`), `${what}: ${o.flag} names its file key ${o.file}: ${line}`);
        for (const d of values.filter((x) => at(x, o.file) !== undefined)) {
          assert.ok(line.includes(asText(at(d, o.file))), `${what}: ${o.flag} gives ${d.name}'s ${asText(at(d, o.file))}: ${line}`);
        }
      }
    }
  }
});

test('check: each option from its flag, else the file, else its default, saying which; a file value is parsed as the flag', () => {
  for (const k of KINDS_WITH_OPTIONS) {
    const base = { ...experimentsOf(k)[0], name: `opts-${k.name.replace(/_/g, '-')}` };
    const copy = () => structuredClone(base);
    const plain = check(copy());
    assert.equal(plain.status, 0, plain.err);
    assert.ok(plain.out.split('\n').every((l) => l.length <= WIDTH), plain.out);
    for (const o of Object.values(k.options)) {
      const inFile = o.file === undefined ? undefined : at(base, o.file);
      // the file's value (or, where the file has none, the default written into it)
      if (o.file && (inFile !== undefined || 'default' in o)) {
        const doc = copy();
        put(doc, o.file, inFile ?? o.default);
        assert.deepEqual(shown(check(doc).out, o.flag), { text: asText(inFile ?? o.default), source: 'file' }, `${k.name} ${o.flag}`);
      }
      // neither flag nor file: the default, or refused naming the key
      const without = copy();
      if (o.file) put(without, o.file, undefined);
      const r = check(without);
      if (o.required) {
        assert.equal(r.status, 2, `${k.name} ${o.flag}: required`);
        assert.match(r.err, new RegExp(`^${r.file}: ${o.file}: required`));
      } else {
        assert.equal(r.status, 0, `${k.name} ${o.flag}: ${r.err}`);
        assert.deepEqual(shown(r.out, o.flag), { text: o.default ?? 'none', source: 'default' }, `${k.name} ${o.flag}`);
      }
      // the flag over the file: a value the kind takes (its smoke: size, else the file's or the
      // default, whichever differs from the file's)
      const other = [smokeValue(base, o.flag), o.default, inFile !== undefined ? asText(inFile) : undefined]
        .find((v) => v !== undefined && v !== asText(inFile)) ??
        (inFile !== undefined ? asText(inFile) : undefined);
      if (other !== undefined) {
        assert.deepEqual(shown(check(copy(), [o.flag, other]).out, o.flag), { text: other, source: 'flag' }, `${k.name} ${o.flag} ${other}`);
        if (o.alias) assert.deepEqual(shown(check(copy(), [`--${o.alias}`, other]).out, o.flag), { text: other, source: 'flag' }, `${k.name} --${o.alias}`);
      }
      const refused = refusal(o, o.flag, '%%');
      if (refused) assert.deepEqual(check(copy(), [o.flag, '%%']), { file: plain.file, status: 2, err: refused }, `${k.name} ${o.flag} %%: its own parser`);
      // a bad value in the file: the flag's parser, naming the file and the key
      const badInFile = o.file && refusal(o, o.file, '%%');
      if (badInFile) {
        const doc = copy();
        put(doc, o.file, '%%');
        assert.deepEqual(check(doc), { file: plain.file, status: 2, err: `${plain.file}: ${badInFile}` }, `${k.name} ${o.file}: %%`);
      }
    }
  }
});

test('lab-loader check prints those lines, one run per kind', () => {
  for (const k of KINDS_WITH_OPTIONS) {
    const doc = experimentsOf(k)[0];
    const r = lab('check', doc.name);
    assert.equal(r.status, 0, r.stderr);
    const { config, settings } = load(parse(['check', doc.name, '--experiments-dir', EXPERIMENTS]));
    // then ./run.sh's lines, each @lab- (src/cli/stack-requests.js)
    assert.equal(r.stdout.split('\n').filter((l) => l && !l.startsWith('@lab-')).join('\n'), settingsLines(config.workload.type, settings));
    assert.match(r.stdout, new RegExp(`^${k.name} settings: `));
  }
});
