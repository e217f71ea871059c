'use strict';
// writeJson(fd, value) writes JSON.stringify(value, null, 1) to fd, the same bytes, without ever
// holding it as one string: report.json of 1,000 runs of default length is about 350 MB and V8's
// longest string about 512 MB (1,200 runs ended in "RangeError: Invalid string length" with
// nothing written). Containers too large to stringify at once (an estimate of their text above
// SMALL_CHARS: strings by their length, other values 8 characters each) are walked here, one entry
// at a time; smaller ones go to JSON.stringify whole and are indented to their depth. Output
// leaves in chunks of about CHUNK characters.
const fs = require('node:fs');

const SMALL_CHARS = 1 << 20;
const CHUNK = 1 << 20;

const hasToJson = (v) => v !== null && typeof v === 'object' && typeof v.toJSON === 'function';

// small(v) -> whether v's text is surely under SMALL_CHARS (estimated, counted no further than that).
function small(v) {
  let n = 0;
  const stack = [v];
  while (stack.length) {
    const x = stack.pop();
    // What toJSON gives is unknown until it is called (a run's series read from its folder:
    // src/lazy-series.js): walked here, so that it is read and written one at a time.
    if (hasToJson(x)) return false;
    n += typeof x === 'string' ? x.length + 2 : 8;
    if (n > SMALL_CHARS) return false;
    if (x !== null && typeof x === 'object') {
      if (Array.isArray(x)) for (let i = 0; i < x.length; i++) stack.push(x[i]);
      else {
        for (const k in x) {
          if (!Object.hasOwn(x, k)) continue;
          n += k.length + 4;
          stack.push(x[k]);
        }
      }
    }
  }
  return true;
}

// what JSON.stringify leaves out of an object (and writes as null in an array), after toJSON
const skipped = (v) => v === undefined || typeof v === 'function' || typeof v === 'symbol';
const resolved = (v, key) => (hasToJson(v) ? v.toJSON(key) : v);

// writeJson(fd, value, { compact, escape }): compact gives JSON.stringify(value)'s bytes instead (the
// page's embedded JSON: src/html.js); escape(text) is applied to every piece written (the page's
// "<" as \u003c, a one-character rewrite that pieces cannot split).
function writeJson(fd, value, { compact = false, escape = (s) => s } = {}) {
  let parts = [];
  let size = 0;
  const put = (s) => {
    parts.push(s);
    size += s.length;
    if (size >= CHUNK) flush();
  };
  const flush = () => {
    if (parts.length) fs.writeSync(fd, escape(parts.join('')));
    parts = [];
    size = 0;
  };
  // JSON.stringify's layout: one space of indent a level, a newline before each entry; none compact
  const open = compact ? () => '' : (pad) => `\n${pad}`;
  const colon = compact ? ':' : ': ';
  // emit(v, pad): v as toJSON gave it (each value's toJSON is called once: a run's series is read
  // from its folder there, src/lazy-series.js)
  const emit = (v, pad) => {
    if (v === null || typeof v !== 'object' || small(v)) {
      const s = compact ? JSON.stringify(v) : JSON.stringify(v, null, 1);
      put(pad && s.includes('\n') ? s.replace(/\n/g, `\n${pad}`) : s);
      return;
    }
    const inner = `${pad} `;
    if (Array.isArray(v)) {
      if (!v.length) return put('[]');
      put('[');
      for (let i = 0; i < v.length; i++) {
        put(i ? `,${open(inner)}` : open(inner));
        const x = resolved(v[i], String(i));
        if (skipped(x)) put('null');
        else emit(x, inner);
      }
      return put(`${open(pad)}]`);
    }
    let first = true;
    for (const k of Object.keys(v)) {
      const x = resolved(v[k], k);
      if (skipped(x)) continue;
      put(`${first ? '{' : ','}${open(inner)}${JSON.stringify(k)}${colon}`);
      first = false;
      emit(x, inner);
    }
    return put(first ? '{}' : `${open(pad)}}`);
  };
  emit(resolved(value, ''), '');
  flush();
}

module.exports = { writeJson, SMALL_CHARS };
