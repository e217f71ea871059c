'use strict';
// A summary's numbers checked before anything adds them up (issue 27 item 7): a rate stored as a
// string would be dropped from a total without a word, a torn histogram would throw in the
// middle of a merge. checkSummary throws BadRun naming the first field that is wrong; read.js
// skips that run with the message and the others are reported as usual.
const { decode } = require('./hist');

class BadRun extends Error {}

const POINT_LISTS = ['steps', 'cases', 'phases'];
const isNum = (x) => typeof x === 'number' && Number.isFinite(x);

function numOrAbsent(v, where) {
  if (v !== undefined && v !== null && !isNum(v)) throw new BadRun(`${where} is ${JSON.stringify(v)}, not a number`);
}

function checkSummary(s) {
  for (const list of POINT_LISTS) {
    if (s[list] === undefined) continue;
    if (!Array.isArray(s[list])) throw new BadRun(`${list} is not a list`);
    s[list].forEach((e, i) => {
      const at = `${list}[${i}]`;
      if (!e || typeof e !== 'object') throw new BadRun(`${at} is not an object`);
      numOrAbsent(e.clients, `${at}.clients`);
      numOrAbsent(e.duration_s, `${at}.duration_s`);
      if (e.started_at !== undefined && e.started_at !== null && Number.isNaN(Date.parse(e.started_at))) throw new BadRun(`${at}.started_at ${JSON.stringify(e.started_at)} is not a time`);
      if (e.documents && typeof e.documents === 'object') for (const k of ['sent', 'arrived']) numOrAbsent(e.documents[k], `${at}.documents.${k}`);
      for (const [op, o] of Object.entries(e.ops || {})) {
        const w = `${at}.ops.${op}`;
        for (const k of ['count', 'errors', 'ops_per_s', 'docs_per_s', 'mb_per_s']) numOrAbsent(o[k], `${w}.${k}`);
        for (const [k, v] of Object.entries(o.latency_us || {})) numOrAbsent(v, `${w}.latency_us.${k}`);
        if (o.histogram !== undefined && o.histogram !== null) {
          if (typeof o.histogram !== 'string') throw new BadRun(`${w}.histogram is not a string`);
          try {
            decode(o.histogram);
          } catch (err) {
            throw new BadRun(`${w}.histogram is not a readable HdrHistogram (${String(err.message || err).split('\n')[0].slice(0, 80)})`);
          }
        }
      }
    });
  }
}

module.exports = { checkSummary, BadRun };
