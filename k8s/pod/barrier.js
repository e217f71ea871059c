'use strict';
// The loaders' start barrier: no loader pod starts its run before all N have proved they can reach
// the cluster. Pod 0 serves it (LAB_BARRIER_PORT); every pod, pod 0 included, connects, says
// "ready <index>" and waits; when N distinct indexes are in, the server answers "go" to all at
// once. It lives outside the loader (the loader offers no pause/resume), so it holds back the
// loader *process*: each pod's loader then connects, sets up, preloads and measures on its own.
// Plain TCP and one line each way: no dependency, works wherever pods reach pod 0's DNS name
// (the Job's headless Service) or, in the tests, 127.0.0.1.
const net = require('node:net');

// serve({ port, n, timeoutMs, log }) -> Promise<server>: resolves once listening; closes itself
// after "go" (or after the timeout, telling every waiting pod why).
function serve({ port, n, timeoutMs, log = () => {} }) {
  const waiting = new Map(); // index -> socket
  const server = net.createServer((sock) => {
    sock.setEncoding('utf8');
    let buf = '';
    sock.on('data', (chunk) => {
      buf += chunk;
      const m = /^ready (\d+)\n/.exec(buf);
      if (!m) return;
      const index = Number(m[1]);
      if (index >= n) { sock.end(`error index ${index} is not below ${n}\n`); return; }
      waiting.set(index, sock);
      log(`barrier: ${waiting.size} of ${n} loaders ready (index ${index})`);
      if (waiting.size === n) {
        for (const s of waiting.values()) s.end('go\n');
        clearTimeout(timer);
        server.close();
      }
    });
    sock.on('error', () => {});
  });
  const timer = setTimeout(() => {
    const missing = [...Array(n).keys()].filter((i) => !waiting.has(i));
    for (const s of waiting.values()) s.end(`error timeout: loaders ${missing.join(',')} never became ready\n`);
    server.close();
  }, timeoutMs);
  timer.unref();
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, () => resolve(server));
  });
}

// wait({ host, port, index, timeoutMs }) -> Promise<void>: resolves on "go"; rejects on an error
// line or the timeout. Retries the connection (pod 0 may start later than the others).
function wait({ host, port, index, timeoutMs, retryMs = 500 }) {
  const deadline = Date.now() + timeoutMs;
  return new Promise((resolve, reject) => {
    const attempt = () => {
      if (Date.now() > deadline) { reject(new Error(`barrier: no "go" from ${host}:${port} within ${timeoutMs / 1000} s`)); return; }
      const sock = net.connect({ host, port });
      let buf = '';
      let answered = false;
      sock.setEncoding('utf8');
      sock.on('connect', () => sock.write(`ready ${index}\n`));
      sock.on('data', (c) => { buf += c; });
      sock.on('end', () => {
        answered = true;
        if (buf.startsWith('go\n')) resolve();
        else reject(new Error(`barrier: ${buf.trim() || 'closed without an answer'}`));
      });
      sock.on('error', () => {});
      sock.on('close', () => { if (!answered) setTimeout(attempt, retryMs); });
      sock.setTimeout(Math.max(1, deadline - Date.now()), () => sock.destroy());
    };
    attempt();
  });
}

module.exports = { serve, wait };
