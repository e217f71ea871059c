'use strict';
// A stand-in for Grafana's annotation API (POST /api/annotations, loader/src/run/grafana.js) on a free
// loopback port, recording each request the loader makes: { url, auth, body } (body parsed).
// grafanaRecorder() -> { url, posts, close() }.
const http = require('node:http');

async function grafanaRecorder() {
  const posts = [];
  const server = http.createServer((req, res) => {
    let b = '';
    req.on('data', (d) => { b += d; });
    req.on('end', () => { posts.push({ url: req.url, auth: req.headers.authorization, body: JSON.parse(b) }); res.end('{}'); });
  });
  await new Promise((r) => server.listen(0, '127.0.0.1', r));
  return {
    url: `http://127.0.0.1:${server.address().port}`,
    posts,
    close: () => new Promise((r) => server.close(r)),
  };
}

module.exports = { grafanaRecorder };
