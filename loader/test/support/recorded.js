'use strict';
// recorded(name): a recorded server output of support/recorded/ as the driver hands it over:
// dates as Date (fields whose name ends in Date, date, WallTime, Heartbeat, HeartbeatRecv),
// {T, I} as Timestamp. Each file names its repository, path and commit.
const fs = require('node:fs');
const path = require('node:path');
const { Timestamp } = require('mongodb');

function revive(v, key = '') {
  if (Array.isArray(v)) return v.map((x) => revive(x, key));
  if (v && typeof v === 'object') {
    if (typeof v.T === 'number' && typeof v.I === 'number' && Object.keys(v).length === 2) return new Timestamp({ t: v.T, i: v.I });
    return Object.fromEntries(Object.entries(v).map(([k, x]) => [k, revive(x, k)]));
  }
  if (typeof v === 'string' && /(Date|date|WallTime|Heartbeat|HeartbeatRecv)$/.test(key) && !Number.isNaN(Date.parse(v))) return new Date(v);
  return v;
}

const recorded = (name) => revive(JSON.parse(fs.readFileSync(path.join(__dirname, 'recorded', name), 'utf8')));

module.exports = { recorded };
