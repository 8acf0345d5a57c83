import { writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { BIN } from '../../test/e2e/harness/native';
import { repositoryRoot } from '../../test/e2e/harness/browser';
import { TimedMcpClient, type TimedAnswer } from './timed-client';

const CHROMIUM = '/usr/bin/chromium';
const VIEWPORT = { width: 1280, height: 720 };

/** The label of the benchmark pages' click target (`#bench-btn`, which counts its clicks in the page). */
export const CLICK_LABEL = 'Bench click target';

/** One MCP server as an agent uses it: its own tool names and argument shapes for the same five steps. */
export interface McpSubject {
  readonly name: string;
  /** The page-snapshot tool's name, for the tables. */
  readonly snapshotTool: string;
  readonly screenshotTool: string;
  navigate(url: string): Promise<TimedAnswer>;
  snapshot(): Promise<TimedAnswer>;
  /**
   * A snapshot of the whole page, where the default one is not: tabpilot's state shows the viewport and
   * 1000 px around it; Playwright MCP's and chrome-devtools-mcp's snapshots are the whole page already.
   */
  wholePageSnapshot?: () => Promise<TimedAnswer>;
  screenshot(): Promise<TimedAnswer>;
  /** The click target's reference in this server's own snapshot (an index, a ref, a uid). */
  refOf(snapshot: string): string;
  click(ref: string): Promise<TimedAnswer>;
  /** The console and network tools' names, for the tables. */
  readonly consoleTool: string;
  readonly networkTool: string;
  consoleMessages(): Promise<TimedAnswer>;
  networkRequests(): Promise<TimedAnswer>;
  /** Clicks `ref` `times` times in one call, where the server has a tool for several actions. */
  clickInOneCall?: (ref: string, times: number) => Promise<TimedAnswer>;
  /** window.__benchClicks, read through the server's own script tool. */
  benchClicks(): Promise<number>;
  /** Its tools/list, as a client receives it. */
  toolList(): Promise<{ tools: number; chars: number }>;
  close(): Promise<void>;
}

/** Every script tool returns this marked string, so each server's answer format reads the same. */
const COUNT_EXPRESSION = "'clicks=' + window.__benchClicks + ';'";

function countIn(text: string, server: string): number {
  const count = /clicks=(\d+);/.exec(text)?.[1];
  if (count === undefined) {
    throw new Error(`${server}: no click count in ${text.slice(0, 300)}`);
  }
  return Number(count);
}

function refFrom(snapshot: string, pattern: RegExp, server: string): string {
  const ref = pattern.exec(snapshot)?.[1];
  if (ref === undefined) {
    throw new Error(`${server}: no "${CLICK_LABEL}" reference in its snapshot:\n${snapshot.slice(0, 2000)}`);
  }
  return ref;
}

/**
 * tabpilot's own server, `tabpilot mcp --launch --headless`: a Chromium of its own, with the same viewport
 * as the others and evaluate allowed (only to read the click count; no measured step uses it).
 */
export async function startTabpilot(workDir: string): Promise<McpSubject> {
  const config = join(workDir, 'tabpilot-mcp.json');
  writeFileSync(config, JSON.stringify({ viewport: VIEWPORT, allow_evaluate: true }));
  const client = await TimedMcpClient.start('tabpilot', [
    BIN,
    'mcp',
    '--launch',
    '--headless',
    '--config',
    config,
    '--output-dir',
    join(workDir, 'tabpilot-out'),
  ]);
  return {
    name: 'tabpilot mcp --launch',
    snapshotTool: 'state',
    screenshotTool: 'screenshot',
    navigate: (url) => client.call('navigate', { url }),
    snapshot: () => client.call('state', {}),
    wholePageSnapshot: () => client.call('state', { viewport_expansion: -1 }),
    screenshot: () => client.call('screenshot', {}),
    refOf: (snapshot) => refFrom(snapshot, /\[(\d+)\][^\n]*Bench click target/, 'tabpilot'),
    click: (ref) => client.call('click', { index: Number(ref) }),
    consoleTool: 'console_messages',
    networkTool: 'network_requests',
    consoleMessages: () => client.call('console_messages', {}),
    networkRequests: () => client.call('network_requests', {}),
    clickInOneCall: (ref, times) =>
      client.call('batch', {
        steps: Array.from({ length: times }, () => ({ action: 'click', params: { index: Number(ref) } })),
      }),
    benchClicks: async () => countIn((await client.call('evaluate', { code: COUNT_EXPRESSION })).text, 'tabpilot'),
    toolList: () => client.toolList(),
    close: () => client.close(),
  };
}

/**
 * Playwright MCP (`@playwright/mcp`, pinned) with its defaults (a full snapshot after each action, saved
 * to a file and linked; 500 ms of settling after each action) but a longer limit per call, on the system
 * Chromium.
 */
export async function startPlaywrightMcp(workDir: string): Promise<McpSubject> {
  const out = join(workDir, 'playwright-mcp');
  // Playwright gives a tool call 30 s, which its navigate of the huge page (load, settle, a full snapshot)
  // passes on a loaded machine: 5 minutes each, through an init page (the one hook MCP offers for it).
  const initPage = join(workDir, 'playwright-timeout.cjs');
  writeFileSync(initPage, 'module.exports = { default: async ({ page }) => page.setDefaultTimeout(300000) };\n');
  const client = await TimedMcpClient.start(
    'Playwright MCP',
    [
      resolve(repositoryRoot(), 'node_modules/@playwright/mcp/cli.js'),
      '--executable-path',
      CHROMIUM,
      '--headless',
      '--isolated',
      // Chromium refuses to start as root with its sandbox on.
      '--no-sandbox',
      '--viewport-size',
      `${VIEWPORT.width}x${VIEWPORT.height}`,
      '--output-dir',
      out,
      '--init-page',
      initPage,
    ],
    { cwd: workDir },
  );
  return {
    name: 'Playwright MCP 0.0.83',
    snapshotTool: 'browser_snapshot',
    screenshotTool: 'browser_take_screenshot',
    navigate: (url) => client.call('browser_navigate', { url }),
    snapshot: () => client.call('browser_snapshot', {}),
    screenshot: () => client.call('browser_take_screenshot', {}),
    refOf: (snapshot) => refFrom(snapshot, /"Bench click target" \[ref=(\w+)\]/, 'Playwright MCP'),
    click: (ref) => client.call('browser_click', { element: CLICK_LABEL, target: ref }),
    consoleTool: 'browser_console_messages',
    networkTool: 'browser_network_requests',
    consoleMessages: () => client.call('browser_console_messages', {}),
    networkRequests: () => client.call('browser_network_requests', {}),
    benchClicks: async () =>
      countIn(
        (await client.call('browser_evaluate', { function: `() => ${COUNT_EXPRESSION}` })).text,
        'Playwright MCP',
      ),
    toolList: () => client.toolList(),
    close: () => client.close(),
  };
}

/**
 * chrome-devtools-mcp (pinned) with its defaults, on the system Chromium in a temporary profile, usage
 * statistics and CrUX look-ups off (no network here). Its page tools take the page's id from list_pages.
 */
export async function startChromeDevtoolsMcp(workDir: string): Promise<McpSubject> {
  const client = await TimedMcpClient.start(
    'chrome-devtools-mcp',
    [
      resolve(repositoryRoot(), 'node_modules/chrome-devtools-mcp/build/src/bin/chrome-devtools-mcp.js'),
      '--executablePath',
      CHROMIUM,
      '--headless',
      '--isolated',
      '--chromeArg=--no-sandbox',
      '--viewport',
      `${VIEWPORT.width}x${VIEWPORT.height}`,
      '--usageStatistics=false',
      '--performanceCrux=false',
    ],
    { cwd: workDir, env: { CHROME_DEVTOOLS_MCP_NO_USAGE_STATISTICS: '1' } },
  );
  const pages = await client.call('list_pages', {});
  const pageId = Number(/^(\d+):/m.exec(pages.text)?.[1]);
  if (!Number.isInteger(pageId)) {
    throw new Error(`chrome-devtools-mcp: no page id in list_pages: ${pages.text}`);
  }
  return {
    name: 'chrome-devtools-mcp 1.11.0',
    snapshotTool: 'take_snapshot',
    screenshotTool: 'take_screenshot',
    navigate: (url) => client.call('navigate_page', { pageId, type: 'url', url }),
    snapshot: () => client.call('take_snapshot', { pageId }),
    screenshot: () => client.call('take_screenshot', { pageId }),
    refOf: (snapshot) => refFrom(snapshot, /uid=(\S+) button "Bench click target"/, 'chrome-devtools-mcp'),
    click: (ref) => client.call('click', { pageId, uid: ref }),
    consoleTool: 'list_console_messages',
    networkTool: 'list_network_requests',
    consoleMessages: () => client.call('list_console_messages', { pageId }),
    networkRequests: () => client.call('list_network_requests', { pageId }),
    benchClicks: async () =>
      countIn(
        (await client.call('evaluate_script', { pageId, function: `() => ${COUNT_EXPRESSION}` })).text,
        'chrome-devtools-mcp',
      ),
    toolList: () => client.toolList(),
    close: () => client.close(),
  };
}
