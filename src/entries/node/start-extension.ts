import { mkdirSync } from 'node:fs';
import { createServer } from 'node:http';
import { homedir } from 'node:os';
import { resolve } from 'node:path';
import { ChromiumLauncher, shouldRunHeadless } from '../../platform/node/chromium-launcher';
import { loadCatalog } from '../../platform/node/native/cli-catalog';
import { runRepl } from '../../platform/node/native/cli-repl';
import { listRecords, pickRecord } from '../../platform/node/native/discovery';
import { HostClient } from '../../platform/node/native/host-client';
import { installHost } from '../../platform/node/native/installer';
import { preallowOwnClient } from '../../platform/node/native/preallow';
import { stateDir, statePaths } from '../../platform/node/native/state-dir';
import { stderrSink } from '../../platform/node/stderr-sink';
import { EXTENSION_ID } from '../../protocol/native-messages';
import { errorMessageOf } from '../../shared/errors';
import { createLogger } from '../../shared/logger';
import { pollUntil } from '../../shared/time';
import { fieldOf } from '../../shared/narrow';

// `npm start`: the whole chain. The host registered in a dedicated profile (kept between runs),
// Chromium launched with the extension (headed where there is a display, headless otherwise), a demo
// page opened through native messaging, and a REPL that drives the browser through the host.
const root = resolve(import.meta.dirname, '../..');
/**
 * This clone's CLI on the Node running now, which the engines range accepts (npm start provides one when
 * the system's is older); a bare `npx tabpilot` would run on the system's Node, or outside the clone
 * fetch whatever the registry holds under that name.
 */
const thisCli = `${process.execPath} ${resolve(root, 'bin/tabpilot.mjs')}`;
const extensionDir = resolve(root, 'dist/extension');
const cliPath = resolve(root, 'dist/node/cli.js');
const profileDir = resolve(process.env['TABPILOT_PROFILE'] ?? resolve(root, '.tabpilot/profile'));
const port = Number(process.env['TABPILOT_DEVTOOLS_PORT'] ?? '9222');
const HOST_WAIT_MS = 30_000;

const DEMO_PAGE = `<!doctype html><html><head><meta charset="utf-8"><title>tabpilot demo</title></head><body>
<h1>tabpilot demo</h1><p>Driven from the REPL through native messaging: try <code>state</code>, then
<code>input --index 1 --text "Ada"</code> and <code>click --index 2</code>.</p>
<label for="name">Your name</label> <input id="name"> <button id="greet" type="button">Greet</button>
<p id="out"></p>
<script>document.getElementById('greet').onclick = () => {
  document.getElementById('out').textContent = 'Hello, ' + (document.getElementById('name').value || 'stranger') + '!';
  document.title = 'greeted';
};</script></body></html>`;

function serveDemo(): Promise<{ url: string; close: () => void }> {
  const server = createServer((_req, res) => {
    res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
    res.end(DEMO_PAGE);
  });
  return new Promise((done, fail) =>
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      if (address === null || typeof address === 'string') {
        fail(new Error('the demo page has no port to be reached at'));
        return;
      }
      done({ url: `http://127.0.0.1:${address.port}/`, close: () => server.close() });
    }),
  );
}

async function main(): Promise<number> {
  mkdirSync(profileDir, { recursive: true });
  const headless = shouldRunHeadless(null);
  const log = createLogger(stderrSink, { namespace: 'tabpilot:start' });
  const state = stateDir();
  const say = (text: string): boolean => process.stderr.write(`${text}\n`);
  installHost({
    browsers: 'installed',
    userDataDir: profileDir,
    uninstall: false,
    launcher: {
      nodePath: process.execPath,
      cliPath,
      ...(process.env['TABPILOT_STATE_DIR'] === undefined ? {} : { stateDir: state }),
    },
    home: process.env['HOME'] ?? homedir(),
  });
  const demo = await serveDemo();
  const browser = await new ChromiumLauncher(log).launch({
    headless,
    executablePath: null,
    userDataDir: profileDir,
    remoteDebuggingPort: port,
    args: [`--disable-extensions-except=${extensionDir}`, `--load-extension=${extensionDir}`, '--site-per-process'],
  });
  const devtools = `http://127.0.0.1:${new URL(browser.cdpUrl).port}`;
  const panel = `chrome-extension://${EXTENSION_ID}/src/entries/extension/sidepanel.html`;
  say(
    [
      `tabpilot is running in Chromium (pid ${browser.pid}), profile ${profileDir}; the native host is registered there.`,
      headless
        ? `No display here, so Chromium runs headless. Reach it through DevTools at ${devtools} (chrome://inspect from another Chrome), open the panel page ${panel} there, or drive the same browser from Node: tabpilot connect --cdp-url ${devtools}`
        : 'Click the tabpilot toolbar button to open the side panel; the REPL below drives this browser too.',
      `To use tabpilot in your own Chrome: chrome://extensions, Developer mode, "Load unpacked", pick ${extensionDir}, then tabpilot install-host.`,
    ].join('\n'),
  );
  const stop = async (code: number): Promise<number> => {
    demo.close();
    await browser.kill();
    return code;
  };
  try {
    await pollUntil(() => pickRecord(listRecords(statePaths(state).run), profileDir)?.record.profile_id ?? undefined, {
      timeoutMs: HOST_WAIT_MS,
      intervalMs: 100,
      onTimeout: () => new Error(`the extension started no native host within ${HOST_WAIT_MS / 1000} s`),
    });
    // The person just ran npm start: its REPL and CLI (the `tabpilot` client on this Node) need no consent.
    await preallowOwnClient({ cdpUrl: browser.cdpUrl, stateDir: state, client: 'tabpilot' });
    const client = await HostClient.connect({ client: 'tabpilot', stateDir: state, userDataDir: profileDir });
    const opened = await client.request('navigate', { url: demo.url });
    const tabId = opened.ok ? fieldOf(opened.result, 'tab_id') : undefined;
    if (typeof tabId === 'string') {
      await client.request('switch', { tab_id: tabId, activate: true });
    }
    client.close();
  } catch (error) {
    say(
      `tabpilot: ${errorMessageOf(error)}. Run: TABPILOT_STATE_DIR=${state} ${thisCli} doctor --user-data-dir ${profileDir}`,
    );
    return stop(1);
  }
  say(
    `The demo page ${demo.url} is open in the tab tabpilot's REPL drives through native messaging${headless ? ' (headless)' : ''}.` +
      ` Other terminals can drive it too: tabpilot state (once installed, as the README says), or ${thisCli} state.` +
      ' Ctrl-D or .exit quits (and closes Chromium).',
  );
  for (const signal of ['SIGINT', 'SIGTERM'] as const) {
    process.once(signal, () => void stop(130).then((code) => process.exit(code)));
  }
  const code = await runRepl(
    {
      client: 'tabpilot',
      stateDir: state,
      userDataDir: profileDir,
      json: false,
      outcome: false,
      catalog: loadCatalog(resolve(root, 'dist/node')),
      out: (text) => process.stdout.write(`${text}\n`),
      err: (text) => process.stderr.write(`${text}\n`),
    },
    { input: process.stdin, output: process.stdout, banner: 'Type .help for help.' },
  );
  return stop(code);
}

main().then(
  (code) => process.exit(code),
  (error: unknown) => {
    process.stderr.write(`tabpilot start failed: ${errorMessageOf(error)}\n`);
    process.exit(1);
  },
);
