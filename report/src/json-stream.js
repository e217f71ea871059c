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

// small(v) -> whether v's text is surely under SMALL_CHARS (estimated, counted no further than that).
function small(v) {
  let n = 0;
  const stack = [v];
  while (stack.length) {
    const x = stack.pop();
    // What toJSON gives is unknown until it is called (a run's series read from its folder:
    // src/lazy-series.js): walked here, so that it is read and written one at a time.
    if (x !== null && typeof x === 'object' && typeof x.toJSON === 'function') return false;
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

// what JSON.stringify leaves out of an object (and writes as null in an array)
const skipped = (v) => v === undefined || typeof v === 'function' || typeof v === 'symbol';

function writeJson(fd, value) {
  let parts = [];
  let size = 0;
  const put = (s) => {
    parts.push(s);
    size += s.length;
    if (size >= CHUNK) flush();
  };
  const flush = () => {
    if (parts.length) fs.writeSync(fd, parts.join(''));
    parts = [];
    size = 0;
  };
  const emit = (v, key, pad) => {
    if (v !== null && typeof v === 'object' && typeof v.toJSON === 'function') v = v.toJSON(key);
    if (v === null || typeof v !== 'object' || small(v)) {
      const s = JSON.stringify(v, null, 1);
      put(pad && s.includes('\n') ? s.replace(/\n/g, `\n${pad}`) : s);
      return;
    }
    const inner = `${pad} `;
    if (Array.isArray(v)) {
      if (!v.length) return put('[]');
      put('[\n');
      for (let i = 0; i < v.length; i++) {
        put(i ? `,\n${inner}` : inner);
        if (skipped(v[i])) put('null');
        else emit(v[i], String(i), inner);
      }
      return put(`\n${pad}]`);
    }
    const keys = Object.keys(v).filter((k) => {
      const x = v[k];
      return !skipped(x !== null && typeof x === 'object' && typeof x.toJSON === 'function' ? x.toJSON(k) : x);
    });
    if (!keys.length) return put('{}');
    put('{\n');
    keys.forEach((k, i) => {
      put(`${i ? ',\n' : ''}${inner}${JSON.stringify(k)}: `);
      emit(v[k], k, inner);
    });
    return put(`\n${pad}}`);
  };
  emit(value, '', '');
  flush();
}

module.exports = { writeJson, SMALL_CHARS };
