// lib/smoke.sh: write one document through mongos with w:majority and read it back with
// readConcern majority, as root. Prints "smoke write-read ok <_id>" or exits 1.
'use strict';
load('/lab/init/lab.js');
var c = connectRoot(LAB.mongos);
try {
  var coll = c.getDB('lab_smoke').getCollection('docs');
  var id = 'smoke-' + Date.now() + '-' + Math.floor(Math.random() * 1e6);
  coll.insertOne({ _id: id, at: new Date() }, { writeConcern: { w: 'majority', wtimeout: 30000 } });
  // Read back with readConcern majority; an engine without committed snapshots (MMAPv1:
  // ReadConcernMajorityNotEnabled, code 148) answers local reads only, and the line says so.
  var level = 'majority';
  var back = run(c.getDB('lab_smoke'), { find: 'docs', filter: { _id: id }, readConcern: { level: level } });
  if (back.ok !== 1 && (back.code === 148 || /majority/i.test(back.errmsg || ''))) {
    level = 'local';
    back = run(c.getDB('lab_smoke'), { find: 'docs', filter: { _id: id }, readConcern: { level: level } });
  }
  if (!back.cursor || back.cursor.firstBatch.length !== 1) {
    print('smoke write-read FAILED: document ' + id + ' not read back' + (back.errmsg ? ' (' + back.errmsg + ')' : ''));
    quit(1);
  }
  print('smoke write-read ok ' + id + (level === 'majority' ? '' : ' (read concern local: this engine serves no majority reads)'));
} finally { c.close(); }
