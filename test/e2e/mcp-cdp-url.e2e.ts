import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { LaunchedBrowser } from '../../src/browser/launcher';
import { pollUntil } from '../../src/shared/time';
import { BrowserClient, launchTestBrowser } from './harness/browser';
import { FixtureServer } from './harness/fixture-server';
import { addMcpPages, indexIn, McpTestClient } from './harness/mcp';

/**
 * `tabpilot mcp --cdp-url` as two coding agents run it on one shared Chromium: the official SDK's client
 * spawns each server over stdio; each server works in a tab of its own, and leaves the browser running.
 */

function tabOf(text: string): string {
  const tab = /^Tab (\w+)/.exec(text)?.[1];
  if (tab === undefined) {
    throw new Error(`no tab named in: ${text}`);
  }
  return tab;
}

describe('tabpilot mcp --cdp-url: two servers on one browser', () => {
  const server = new FixtureServer();
  let browser: LaunchedBrowser;
  let observer: BrowserClient;
  let first: McpTestClient;
  let second: McpTestClient;

  beforeAll(async () => {
    addMcpPages(server);
    await server.start();
    browser = await launchTestBrowser();
    observer = await BrowserClient.connect(browser.cdpUrl);
    [first, second] = await Promise.all([
      new McpTestClient(['--cdp-url', browser.cdpUrl], 'first').connect(),
      new McpTestClient(['--cdp-url', browser.cdpUrl], 'second').connect(),
    ]);
  });

  afterAll(async () => {
    await Promise.all([first?.close(), second?.close()]);
    observer?.close();
    await browser?.kill();
    await server.stop();
  });

  it('each works in a tab of its own, and every screenshot of either is answered', async () => {
    const a = await first.ok('navigate', { url: server.url('/mcp/form.html') });
    const b = await second.ok('navigate', { url: server.url('/a.html') });
    expect(tabOf(a.text)).not.toBe(tabOf(b.text));
    const [stateA, stateB] = await Promise.all([first.ok('state'), second.ok('state')]);
    expect(stateA.text.startsWith(`Tab ${tabOf(a.text)}: MCP form`)).toBe(true);
    expect(stateB.text).toContain(server.url('/a.html'));
    await first.ok('click', { index: indexIn(stateA.text, 'Count me') });
    expect((await first.ok('state')).text).toContain('clicks:1');
    // Both tabs render: a tab hidden behind the other's would leave every second capture waiting for a frame.
    for (let shot = 0; shot < 3; shot++) {
      for (const mcp of [first, second]) {
        const answer = await mcp.ok('screenshot');
        expect(answer.result.content.some((block) => block.type === 'image')).toBe(true);
      }
    }
  });

  it('a server that leaves closes its own tabs and leaves the browser and the other’s tab running', async () => {
    await first.close();
    await pollUntil(
      async () =>
        (await observer.pageTargets()).some((target) => target.url === server.url('/mcp/form.html')) ? undefined : true,
      { timeoutMs: 20_000, intervalMs: 100, onTimeout: () => new Error('the first server’s tab stayed open') },
    );
    expect((await observer.pageTargets()).map((target) => target.url)).toContain(server.url('/a.html'));
    const state = await second.ok('state');
    expect(state.text).toContain(server.url('/a.html'));
  });
});
