'use strict';
// Server parameters on the members that hold the data (durability/index.js dataMembers): read, set and
// put back, one direct connection per member with the run's credentials. Used by bulk_import's
// journalCommitInterval cases; a parameter set through mongos would change the router only.
const { SET_PARAMETER_ROLE } = require('./index');

// withMember(client, host, fn): fn(adminDb) on a direct connection to host, made with the same
// driver line and credentials as the run's client.
async function withMember(client, host, fn) {
  const Client = client.constructor;
  const cred = client.options.credentials;
  const opts = { directConnection: true, serverSelectionTimeoutMS: 5000, maxPoolSize: 1, appName: 'lab-loader' };
  if (cred && cred.username) Object.assign(opts, { auth: { username: cred.username, password: cred.password }, authSource: cred.source || 'admin' });
  const c = new Client(`mongodb://${host}/`, opts);
  try {
    await c.connect();
    return await fn(c.db('admin'));
  } finally {
    await c.close(true).catch(() => {});
  }
}

// refusal(e, verb, name): why the server did not let us, in one line; Unauthorized (13) names the
// built-in role that grants setParameter.
function refusal(e, verb, name) {
  if (e.code === 13 || e.codeName === 'Unauthorized') {
    return `${verb} ${name} is not authorized for this user (Unauthorized, 13): it needs the setParameter action, granted by the built-in role ${SET_PARAMETER_ROLE}`;
  }
  return `${verb} ${name} failed: ${e.codeName || e.name}${e.code !== undefined ? ` (${e.code})` : ''}: ${e.message}`;
}

// getOn(client, hosts, name) -> { values: {host: value}, error }: the current value on each host.
async function getOn(client, hosts, name) {
  const values = {};
  for (const host of hosts) {
    try {
      const r = await withMember(client, host, (admin) => admin.command({ getParameter: 1, [name]: 1 }));
      values[host] = r[name];
    } catch (e) {
      return { values, error: `${host}: ${refusal(e, 'getParameter', name)}` };
    }
  }
  return { values, error: null };
}

// setOn(client, values, name) -> error line or null: sets name to values[host] on each host
// (one value for all: pass a number).
async function setOn(client, hosts, name, value) {
  for (const host of hosts) {
    const v = typeof value === 'object' ? value[host] : value;
    try {
      await withMember(client, host, (admin) => admin.command({ setParameter: 1, [name]: v }));
    } catch (e) {
      return `${host}: ${refusal(e, 'setParameter', name)}`;
    }
  }
  return null;
}

module.exports = { withMember, getOn, setOn, refusal };
