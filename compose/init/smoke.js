// lib/smoke.sh: write one document through mongos with w:majority and read it back with
// readConcern majority, as root. Prints "smoke write-read ok <_id>" or exits 1.
'use strict';
load('/lab/init/lab.js');
var c = connectRoot(LAB.mongos);
try {
  var coll = c.getDB('lab_smoke').getCollection('docs');
  var id = 'smoke-' + Date.now() + '-' + Math.floor(Math.random() * 1e6);
  coll.insertOne({ _id: id, at: new Date() }, { writeConcern: { w: 'majority', wtimeout: 30000 } });
  var back = c.getDB('lab_smoke').runCommand({ find: 'docs', filter: { _id: id }, readConcern: { level: 'majority' } });
  if (!back.cursor || back.cursor.firstBatch.length !== 1) {
    print('smoke write-read FAILED: document ' + id + ' not read back');
    quit(1);
  }
  print('smoke write-read ok ' + id);
} finally { c.close(); }
