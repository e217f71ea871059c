'use strict';
// YCSB 0.17.0's core (site.ycsb:core and its dependencies from Maven Central), fetched by
// test/install.d/46-ycsb-mongodb.sh into <repo>/.tools/ycsb-mongodb/lib/ (the folder the bench's
// YCSB runs from too): the real site.ycsb.Client with its built-in BasicDB, which runs
// CoreWorkload without a database and prints YCSB's measurement output.
const { execFile } = require('node:child_process');
const fs = require('node:fs');
const path = require('node:path');

const REPO = path.resolve(__dirname, '..', '..', '..', '..');
const JARS = path.join(REPO, '.tools', 'ycsb-mongodb', 'lib');
const HINT = "run 'bash test/install-tools.sh' (fetches YCSB 0.17.0's core from Maven Central into .tools/ycsb-mongodb/lib/)";

function classpath() {
  if (!fs.existsSync(path.join(JARS, 'core-0.17.0.jar'))) throw new Error(`YCSB core jar missing in ${JARS}: ${HINT}`);
  return path.join(JARS, '*');
}

// runYcsb(args) -> { stdout, stderr }: java -cp .tools/ycsb-mongodb/lib/* site.ycsb.Client ARGS.
function runYcsb(args, { timeoutMs = 120000 } = {}) {
  const cp = classpath();
  return new Promise((resolve, reject) => {
    execFile('java', ['-cp', cp, 'site.ycsb.Client', ...args], { maxBuffer: 256 * 1024 * 1024, timeout: timeoutMs }, (err, stdout, stderr) => {
      if (err) reject(new Error(`YCSB failed (${err.code ?? err.signal}): ${stderr.slice(-2000)}`));
      else resolve({ stdout, stderr });
    });
  });
}

// basicDbArgs(props, { load }): a BasicDB run of CoreWorkload with these properties.
function basicDbArgs(props, { load = false, threads = 1 } = {}) {
  const args = [load ? '-load' : '-t', '-db', 'site.ycsb.BasicDB', '-p', 'workload=site.ycsb.workloads.CoreWorkload', '-threads', String(threads), '-s'];
  for (const [k, v] of Object.entries(props)) args.push('-p', `${k}=${v}`);
  return args;
}

module.exports = { runYcsb, basicDbArgs, JARS, HINT };
