import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ImageContent } from '@modelcontextprotocol/sdk/types.js';
import { pollUntil } from '../../src/shared/time';
import { AGENT_ACTIONS } from '../../src/agent/agent-actions';
import { ACTIONS, personAlone } from '../../src/protocol/actions';
import { FixtureServer } from './harness/fixture-server';
import { addMcpPages, imageSize, indexIn, McpTestClient, textOf } from './harness/mcp';
import { NativeChain } from './harness/native';
import { PanelPage } from './harness/panel';

/**
 * `tabpilot mcp --extension` as an MCP client app runs it: the official SDK's client spawns the server
 * over stdio, the server reaches the real native host (installed in the test profile by
 * `tabpilot install-host`, started by Chromium for the built extension) through its socket, and the
 * extension's worker drives the pages. Nothing is mocked.
 */

interface WorkerEventView {
  type: string;
  source: string | undefined;
  status: string;
  handlers: Array<{ status: string; error?: { code: string } }>;
}

function tabOf(text: string): string {
  const tab = /^Tab (\w+)/.exec(text)?.[1];
  if (tab === undefined) {
    throw new Error(`no tab named in: ${text}`);
  }
  return tab;
}

describe('tabpilot mcp --extension: through the native host into the extension', () => {
  const server = new FixtureServer();
  let chain: NativeChain;
  let alpha: McpTestClient;
  let beta: McpTestClient;
  let alphaTab: string;

  const start = (name: string, args: string[] = []): Promise<McpTestClient> =>
    new McpTestClient(['--extension', ...args], name, { TABPILOT_STATE_DIR: chain.stateDir }).connect();

  /** The worker's bus history: what reached the extension's own event bus, by client. */
  const workerEvents = (type: string, client: string): Promise<WorkerEventView[]> =>
    chain.inWorker<WorkerEventView[]>(
      `globalThis.tabpilot.session.bus.history().filter((view) => view.type === ${JSON.stringify(type)} && (view.source ?? '').includes(${JSON.stringify(client)})).map((view) => ({ type: view.type, source: view.source, status: view.status, handlers: view.handlers.map((h) => ({ status: h.status, error: h.error })) }))`,
    );

  const setApproval = (on: boolean): Promise<unknown> =>
    chain.inWorker(
      `globalThis.tabpilot.settings.save({ ...globalThis.tabpilot.settings.config, native_clients: { enabled: true, approve_new_clients: ${on} } })`,
    );

  beforeAll(async () => {
    addMcpPages(server);
    await server.start();
    chain = await NativeChain.start();
    await chain.host();
    [alpha, beta] = await Promise.all([start('alpha'), start('beta')]);
  });

  afterAll(async () => {
    await Promise.all([alpha?.close(), beta?.close()]);
    await chain?.close();
    await server.stop();
  });

  it('lists every action as a tool with its schema and annotations, as with --launch', async () => {
    const { tools } = await alpha.client.listTools();
    // The built-in agent's actions too: the extension's worker serves them, with its panel's model.
    expect(tools.map((tool) => tool.name)).toEqual([
      ...ACTIONS.filter((action) => !personAlone(action.name)).map((action) => action.name),
      'batch',
      'replay',
      ...AGENT_ACTIONS.map((action) => action.name),
    ]);
    const click = tools.find((tool) => tool.name === 'click');
    expect(click?.inputSchema.type).toBe('object');
    // A hint left out is the spec's default: click may destroy and is not read-only.
    expect(click?.annotations).toBeUndefined();
    expect(tools.find((tool) => tool.name === 'state')?.annotations).toMatchObject({ readOnlyHint: true });
  });

  it('navigates, reads the state, clicks, types and takes a screenshot in a tab of its own', async () => {
    const navigated = await alpha.ok('navigate', { url: server.url('/mcp/form.html') });
    alphaTab = tabOf(navigated.text);
    const state = await alpha.ok('state');
    expect(state.text.startsWith(`Tab ${alphaTab}: MCP form - ${server.url('/mcp/form.html')}`)).toBe(true);
    expect(state.result.structuredContent).toMatchObject({ tab_id: alphaTab, title: 'MCP form' });
    const clicked = await alpha.ok('click', { index: indexIn(state.text, 'Count me') });
    expect(clicked.text).toMatch(new RegExp(`^Tab ${alphaTab}: click done`));
    const typed = await alpha.ok('input', { index: indexIn(state.text, 'id=name'), text: 'Grace Hopper' });
    expect(typed.text).toContain(`Tab ${alphaTab}`);
    const after = await alpha.ok('state');
    expect(after.text).toContain('clicks:1');
    expect(after.text).toContain('echo:Grace Hopper');

    const shot = await alpha.ok('screenshot');
    const image = shot.result.content.find((block): block is ImageContent => block.type === 'image');
    expect(image?.mimeType).toBe('image/png');
    const size = imageSize(image?.data ?? '');
    expect(Math.max(size.width, size.height)).toBeLessThanOrEqual(1568);
    expect(size.width * size.height).toBeLessThanOrEqual(1_150_000);
    expect(shot.text).toMatch(new RegExp(`^Tab ${alphaTab}: screenshot`));

    // The tab is the client's own, under the MCP client's name, and the person sees it in the panel.
    const tabs = await chain.connect('tabpilot:observer');
    try {
      const listed = await tabs.request('tabs');
      expect(listed.ok).toBe(true);
      const mine = (
        listed.ok ? (listed.result as { tabs: Array<{ tab_id: string; owner: string | null }> }).tabs : []
      ).find((tab) => tab.tab_id === alphaTab);
      expect(mine?.owner).toBe('mcp:alpha');
    } finally {
      tabs.close();
    }
    const panel = await PanelPage.open(chain.client);
    try {
      await panel.waitFor(
        `document.querySelector('[data-client="mcp:alpha"] [data-tab-id="${alphaTab}"]')`,
        'the MCP server’s tab under its name in the panel',
      );
      expect(await panel.text('[data-client="mcp:alpha"]')).toContain('mcp:alpha');
    } finally {
      await chain.client.root.send('Target.closeTarget', { targetId: panel.targetId });
    }
  });

  it('takes every screenshot of its background tab, a page at rest, one after another', async () => {
    for (let shot = 0; shot < 3; shot++) {
      const answer = await alpha.ok('screenshot');
      expect(answer.text).toMatch(new RegExp(`^Tab ${alphaTab}: screenshot`));
      expect(answer.result.content.some((block) => block.type === 'image')).toBe(true);
    }
  });

  it('answers a bad argument as isError with what to do next', async () => {
    const bad = await alpha.call('click', { index: 'twelve' });
    expect(bad.isError).toBe(true);
    expect(textOf(bad)).toMatch(/^click failed in tab \w+ \(INVALID_PARAMS\): .+\nNext: Fix the argument "index"/);
  });

  it('two MCP servers at once each work in their own tabs; one is refused on the other’s', async () => {
    const [a, b] = await Promise.all([
      alpha.ok('navigate', { url: server.url('/a.html') }),
      beta.ok('navigate', { url: server.url('/b.html') }),
    ]);
    const betaTab = tabOf(b.text);
    expect(tabOf(a.text)).toBe(alphaTab);
    expect(betaTab).not.toBe(alphaTab);
    const [alphaState, betaState] = await Promise.all([alpha.ok('state'), beta.ok('state')]);
    expect(alphaState.text).toContain(server.url('/a.html'));
    expect(betaState.text).toContain(server.url('/b.html'));
    const refused = await beta.call('refresh', { tab_id: alphaTab });
    expect(refused.isError).toBe(true);
    expect(textOf(refused)).toMatch(/FORBIDDEN.*\nNext: That tab belongs to another client \(mcp:alpha\)/s);
  });

  it('two servers under one MCP client name are one client, sharing its focused tab; --client gives a server a client of its own', async () => {
    const [first, second, own] = await Promise.all([
      start('twin'),
      start('twin'),
      start('twin', ['--client', 'twin-2']),
    ]);
    try {
      const navigated = await first.ok('navigate', { url: server.url('/mcp/form.html') });
      const tab = tabOf(navigated.text);
      // No tab_id: the second server's call goes to the client's focused tab, the one the first opened.
      const state = await second.ok('state');
      expect(state.text.startsWith(`Tab ${tab}: MCP form`)).toBe(true);
      const separate = await own.ok('navigate', { url: server.url('/a.html') });
      expect(tabOf(separate.text)).not.toBe(tab);
      const refused = await own.call('refresh', { tab_id: tab });
      expect(refused.isError).toBe(true);
      expect(textOf(refused)).toMatch(/That tab belongs to another client \(mcp:twin\)/);
      expect(own.stderr).toContain('connected to the tabpilot host as mcp:twin-2');
    } finally {
      await Promise.all([first.close(), second.close(), own.close()]);
    }
  });

  it('evaluate is listed but refused while the extension’s settings forbid it, with what to do', async () => {
    const refused = await alpha.call('evaluate', { code: '1 + 1' });
    expect(refused.isError).toBe(true);
    expect(textOf(refused)).toMatch(
      /^evaluate failed in tab \w+ \(FORBIDDEN\): .*\nNext: The person controls this setting/s,
    );
  });

  it('an MCP server killed mid-call leaves nothing running in the extension', async () => {
    const doomed = await start('doomed');
    const call = doomed.call('wait', { seconds: 30 }).catch((error: unknown) => error);
    await pollUntil(
      async () =>
        (await workerEvents('WaitEvent', 'mcp:doomed')).some((view) => view.status === 'started') ? true : undefined,
      { timeoutMs: 20_000, intervalMs: 50, onTimeout: () => new Error('the wait never reached the extension') },
    );
    const pid = doomed.transport.pid;
    expect(pid).not.toBeNull();
    process.kill(pid ?? 0, 'SIGKILL');
    const ended = await pollUntil(
      async () => (await workerEvents('WaitEvent', 'mcp:doomed')).find((view) => view.status === 'completed'),
      { timeoutMs: 20_000, intervalMs: 50, onTimeout: () => new Error('the killed server’s wait kept running') },
    );
    expect(ended.handlers[0]).toMatchObject({ status: 'error', error: { code: 'CANCELLED' } });
    await call;
    await doomed.close();
  });

  it('a cancelled call is cancelled on the extension’s bus, and the next call runs at once', async () => {
    const controller = new AbortController();
    const call = beta.call('wait', { seconds: 30 }, { signal: controller.signal });
    await pollUntil(
      async () =>
        (await workerEvents('WaitEvent', 'mcp:beta')).some((view) => view.status === 'started') ? true : undefined,
      { timeoutMs: 20_000, intervalMs: 50, onTimeout: () => new Error('the wait never reached the extension') },
    );
    controller.abort();
    await expect(call).rejects.toThrow();
    const cancelled = await pollUntil(
      async () => (await workerEvents('WaitEvent', 'mcp:beta')).find((view) => view.status === 'completed'),
      { timeoutMs: 20_000, intervalMs: 50, onTimeout: () => new Error('the wait was not cancelled in the extension') },
    );
    expect(cancelled.handlers[0]).toMatchObject({ status: 'error', error: { code: 'CANCELLED' } });
    // The client's chain is free: the 30 s wait no longer holds it.
    const tabs = await beta.ok('tabs');
    expect(tabs.text).toMatch(/\w/);
  });

  it('with approve_new_clients on, a new MCP server is asked for at start; allowed in the panel its held call runs, refused its calls say so', async () => {
    await setApproval(true);
    const panel = await PanelPage.open(chain.client);
    const servers: McpTestClient[] = [];
    try {
      const approved = await start('approved');
      servers.push(approved);
      // Asked as soon as the client is initialized, before the agent's first call.
      await panel.waitFor(
        `document.querySelector('[data-client="mcp:approved"][data-approval="pending"] [data-action="allow"]')`,
        'Allow for the MCP server, before any tool call',
      );
      let answered = false;
      const navigating = approved.call('navigate', { url: server.url('/a.html') }).finally(() => (answered = true));
      await pollUntil(
        async () =>
          (await workerEvents('NavigateToUrlEvent', 'mcp:approved')).length === 0 && !answered ? true : undefined,
        {
          timeoutMs: 5_000,
          intervalMs: 50,
          onTimeout: () => new Error('the navigate ran before the person allowed it'),
        },
      );
      await panel.click('[data-client="mcp:approved"] [data-action="allow"]');
      const navigated = await navigating;
      expect(navigated.isError, textOf(navigated)).not.toBe(true);
      expect(textOf(navigated)).toContain(server.url('/a.html'));
      expect(await workerEvents('NavigateToUrlEvent', 'mcp:approved')).toHaveLength(1);

      const refused = await start('refused');
      servers.push(refused);
      await panel.waitFor(
        `document.querySelector('[data-client="mcp:refused"] [data-action="refuse"]')`,
        'Refuse for the second MCP server',
      );
      await panel.click('[data-client="mcp:refused"] [data-action="refuse"]');
      const answer = await refused.call('navigate', { url: server.url('/b.html') });
      expect(answer.isError).toBe(true);
      expect(textOf(answer)).toMatch(
        /\(FORBIDDEN\): The person did not allow mcp:refused.*\nNext: The person refused this client in the tabpilot side panel/s,
      );
      expect(await workerEvents('NavigateToUrlEvent', 'mcp:refused')).toEqual([]);
    } finally {
      await Promise.all(servers.map((one) => one.close()));
      await setApproval(false);
      await chain.client.root.send('Target.closeTarget', { targetId: panel.targetId });
    }
  });

  it('the host killed mid-call: the call is answered DISCONNECTED with a next step, and the next call goes through the new host', async () => {
    const first = await chain.host();
    const call = alpha.call('wait', { seconds: 20 });
    await pollUntil(
      async () =>
        (await workerEvents('WaitEvent', 'mcp:alpha')).some((view) => view.status === 'started') ? true : undefined,
      { timeoutMs: 20_000, intervalMs: 50, onTimeout: () => new Error('the wait never reached the extension') },
    );
    process.kill(first.record.pid, 'SIGKILL');
    const dropped = await call;
    expect(dropped.isError).toBe(true);
    expect(textOf(dropped)).toMatch(
      /^wait failed \(DISCONNECTED\): .*\nNext: Check that the browser with the tabpilot extension is open/s,
    );
    await chain.host({ not: first.record.pid });
    const state = await alpha.ok('state');
    expect(state.text.startsWith(`Tab ${alphaTab}: `)).toBe(true);
    // The wait the dead host left behind was cancelled in the extension: nobody could read its answer.
    const left = await pollUntil(
      async () => (await workerEvents('WaitEvent', 'mcp:alpha')).find((view) => view.status === 'completed'),
      { timeoutMs: 20_000, intervalMs: 50, onTimeout: () => new Error('the orphaned wait kept running') },
    );
    expect(left.handlers[0]).toMatchObject({ status: 'error', error: { code: 'CANCELLED' } });
    expect(alpha.stderr).toContain('connected to the tabpilot host as mcp:alpha');
  });
});
