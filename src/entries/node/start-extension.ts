import { errorMessageOf } from '../../shared/errors';
import { mkdirSync } from 'node:fs';
import { resolve } from 'node:path';
import { ChromiumLauncher, shouldRunHeadless } from '../../platform/node/chromium-launcher';
import { stderrSink } from '../../platform/node/stderr-sink';
import { createLogger } from '../../shared/logger';

// `npm start`: Chromium with the built extension loaded, in a dedicated profile kept between runs,
// headed where there is a display and headless (with a DevTools port to reach it) otherwise.
// TABPILOT_PROFILE and TABPILOT_DEVTOOLS_PORT (0: any free port) move the profile and the port.
const EXTENSION_ID = 'dakiagajobemlckhchkemohalbompofb';
const root = resolve(import.meta.dirname, '../..');
const extensionDir = resolve(root, 'dist/extension');
const profileDir = resolve(process.env['TABPILOT_PROFILE'] ?? resolve(root, '.tabpilot/profile'));
const port = Number(process.env['TABPILOT_DEVTOOLS_PORT'] ?? '9222');

async function main(): Promise<void> {
  mkdirSync(profileDir, { recursive: true });
  const headless = shouldRunHeadless(null);
  const log = createLogger(stderrSink, { namespace: 'tabpilot:start' });
  const browser = await new ChromiumLauncher(log).launch({
    headless,
    executablePath: null,
    userDataDir: profileDir,
    remoteDebuggingPort: port,
    args: [`--disable-extensions-except=${extensionDir}`, `--load-extension=${extensionDir}`, '--site-per-process'],
  });
  const panel = `chrome-extension://${EXTENSION_ID}/src/entries/extension/sidepanel.html`;
  const devtools = `http://127.0.0.1:${new URL(browser.cdpUrl).port}`;
  const lines = [
    `tabpilot is running in Chromium (pid ${browser.pid}), profile ${profileDir}.`,
    `DevTools endpoint: ${devtools}`,
    `Panel page: ${panel}`,
    ...(headless
      ? [
          'No display here, so Chromium runs headless and the side panel has no window to open in. To use it:',
          `  1. In a Chrome with a display, open chrome://inspect, add ${devtools.slice('http://'.length)} under "Configure",`,
          '     and open the web page tabpilot should control there ("Open tab with url").',
          '  2. Open the panel page above the same way and click "inspect" under it.',
          '  3. In the panel\'s Actions view run "tabs" with "all" ticked, then "attach" with the web page\'s tab_id.',
          '     ("Attach current tab" would take the panel\'s own tab, which tabpilot does not control.)',
          `Or drive this browser from Node over CDP, without the extension: tabpilot connect --cdp-url ${devtools}`,
        ]
      : ['Click the tabpilot toolbar button to open the side panel, then "Attach current tab".']),
    `To use tabpilot in your own Chrome: chrome://extensions, Developer mode, "Load unpacked", pick ${extensionDir}.`,
    'Press Ctrl-C to quit.',
  ];
  process.stdout.write(`${lines.join('\n')}\n`);
  const stop = (): void => {
    void browser.kill().then(() => process.exit(0));
  };
  process.once('SIGINT', stop);
  process.once('SIGTERM', stop);
  await browser.exited;
  process.stdout.write('Chromium exited.\n');
}

main().catch((error: unknown) => {
  process.stderr.write(`tabpilot start failed: ${errorMessageOf(error)}\n`);
  process.exit(1);
});
