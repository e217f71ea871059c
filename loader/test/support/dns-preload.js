'use strict';
// Preloaded into the loader under test (NODE_OPTIONS=--require <this>, LAB_TEST_DNS=127.0.0.1:PORT):
// node:dns asks the test's DNS server (support/dns-server.js) instead of the machine's, for the
// driver's SRV/TXT queries (dns.promises.resolve) and for the host names those records name
// (net.connect resolves them with dns.lookup, i.e. getaddrinfo, which reads /etc/resolv.conf and
// cannot be pointed elsewhere: names under LAB_TEST_DNS_DOMAIN are resolved through the test
// server's A records instead). Worker threads load it too (preload modules run in every thread).
const dns = require('node:dns');

const server = process.env.LAB_TEST_DNS;
const domain = process.env.LAB_TEST_DNS_DOMAIN;
if (server) {
  dns.setServers([server]);
  const lookup = dns.lookup;
  dns.lookup = function testLookup(host, options, callback) {
    if (typeof options === 'function') { callback = options; options = {}; }
    if (typeof options === 'number') options = { family: options };
    if (!domain || typeof host !== 'string' || !(host === domain || host.endsWith(`.${domain}`))) return lookup.call(this, host, options, callback);
    dns.resolve4(host, (err, addrs) => {
      if (err) return callback(err);
      if (options.all) return callback(null, addrs.map((address) => ({ address, family: 4 })));
      return callback(null, addrs[0], 4);
    });
    return undefined;
  };
}
