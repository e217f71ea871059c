'use strict';
// A server that requires authentication, given none, answers the setup's drop with code 13
// (Unauthorized): the run said the raw "MongoServerError: Command drop requires authentication".
// The errors are the driver's own class, built as the driver builds them from a server reply.
const test = require('node:test');
const assert = require('node:assert/strict');
const { MongoServerError } = require('mongodb');
const { runErrorReason } = require('../src/run/run-error');

test('Unauthorized without credentials: what to give instead; without a privilege: which are needed; others as before', () => {
  const noAuth = new MongoServerError({ ok: 0, errmsg: 'Command drop requires authentication', code: 13, codeName: 'Unauthorized' });
  assert.match(runErrorReason(noAuth), /^the server requires authentication and none was given \(server: Command drop requires authentication\): give the user and password in --uri/);
  const noPrivilege = new MongoServerError({ ok: 0, errmsg: 'not authorized on lab to execute command { drop: "seed004" }', code: 13, codeName: 'Unauthorized' });
  assert.match(runErrorReason(noPrivilege), /^the user lacks a privilege this run needs \(server: not authorized on lab/);
  const other = new MongoServerError({ ok: 0, errmsg: 'boom', code: 8000, codeName: 'AtlasError' });
  assert.equal(runErrorReason(other), 'MongoServerError: boom');
  assert.equal(runErrorReason(new Error('our own sentence')), 'our own sentence');
});
