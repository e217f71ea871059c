'use strict';
// Real headless Chromium (Debian's package) driven by playwright-core over CDP. The flags keep it
// from reaching out to the network: without the background-networking ones it hangs here.
const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');

const CHROMIUM = process.env.CHROMIUM || '/usr/bin/chromium';
const HINT = "run 'bash test/install-tools.sh' (installs Debian's chromium and report/node_modules)";
const FLAGS = ['--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run',
  '--disable-background-networking', '--disable-component-update', '--disable-sync'];

// openPage(file, shotDir, { timeout }) -> { page, errors, close() }; errors collects console
// errors and uncaught page errors; timeout (ms) bounds the load and the wait for page.js's end
// (Playwright's own default, 30 s, unless given). If the page cannot be opened, Chromium is closed
// before the error is thrown: left running, it keeps the test file's process alive to the runner's
// limit. beforeClose(error), if given, runs first, while Chromium's processes still live (what a
// test measures of them is gone once they have ended).
async function openPage(file, shotDir, { timeout = 30000, beforeClose = () => {} } = {}) {
  if (!fs.existsSync(CHROMIUM)) throw new Error(`chromium not found at ${CHROMIUM}: ${HINT}`);
  let pw;
  try {
    pw = require('playwright-core');
  } catch {
    throw new Error(`playwright-core missing in report/node_modules: ${HINT}`);
  }
  const profile = fs.mkdtempSync(path.join(shotDir || os.tmpdir(), 'chromium-profile-'));
  const context = await pw.chromium.launchPersistentContext(profile, {
    executablePath: CHROMIUM, headless: true, args: FLAGS, viewport: { width: 1300, height: 900 }, timeout: 60000,
  });
  try {
    const page = await context.newPage();
    const errors = [];
    page.on('console', (m) => { if (m.type() === 'error') errors.push(`console: ${m.text()}`); });
    page.on('pageerror', (e) => errors.push(`pageerror: ${e.message}`));
    // Offline proof: any request leaving file:// is an error (no CDN, no server).
    await page.route((url) => !url.href.startsWith('file:'), (route) => {
      errors.push(`network request: ${route.request().url()}`);
      return route.abort();
    });
    await page.goto(`file://${file}`, { waitUntil: 'load', timeout });
    await page.waitForSelector('body[data-rendered="true"]', { timeout }).catch(() => {});
    return { page, errors, close: () => context.close() };
  } catch (e) {
    beforeClose(e);
    await context.close().catch(() => {});
    throw e;
  }
}

module.exports = { openPage, CHROMIUM, HINT, FLAGS };
