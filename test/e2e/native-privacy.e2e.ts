import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { HostClient } from '../../src/platform/node/native/host-client';
import type { CommandResponse, EventMessage } from '../../src/protocol/commands';
import { pollUntil } from '../../src/shared/time';
import { addAgentPages } from './harness/agent-pages';
import { FakeModelServer, type ModelRequestView, type ScriptedReply } from './harness/fake-model-server';
import { FixtureServer } from './harness/fixture-server';
import { PANEL_URL } from './harness/browser';
import { NativeChain } from './harness/native';
import { PanelPage } from './harness/panel';

/**
 * Issue 24's trust rules through the real chain: real Chromium, the built extension, the native host
 * Chrome starts, clients on its socket, and the real side panel page. The person's Stop holds every
 * program until the person presses Resume in the panel; what one program does stays its own (events,
 * approvals, runs). The debugging bar's Cancel is pressed for real in test/e2e/headed/client-hold.e2e.ts.
 */
const API_KEY = 'sk-e2e-privacy-7c2e';
const pages = new FixtureServer();
const model = new FakeModelServer(() => ({ kind: 'hang' }));
let chain: NativeChain;

function ok<T>(response: CommandResponse): T {
  if (!response.ok) {
    throw new Error(`${response.error.code}: ${response.error.message}`);
  }
  return response.result as T;
}

/** Every event a client receives, from now on. */
function collect(client: HostClient): EventMessage[] {
  const events: EventMessage[] = [];
  client.onMessage((message) => {
    if ('event' in message) {
      events.push(message);
    }
  });
  return events;
}

async function saveAgentSettings(agent: Record<string, unknown>): Promise<void> {
  const outcome = await chain.inWorker<{ ok: boolean; error?: { message: string } }>(`(async () => {
    const { settings, hub, agentKeys } = globalThis.tabpilot;
    await agentKeys.set('openai', ${JSON.stringify(API_KEY)});
    const config = settings.config;
    const outcome = await settings.save({ ...config, agent: { ...config.agent, ...${JSON.stringify(agent)} } });
    if (outcome.ok) hub.broadcast({ type: 'settings', config: { ...outcome.config } });
    return outcome;
  })()`);
  expect(outcome.ok, outcome.error?.message).toBe(true);
}

beforeAll(async () => {
  addAgentPages(pages);
  await Promise.all([pages.start(), model.start()]);
  model.cors = true;
  chain = await NativeChain.start();
  await chain.host();
  await saveAgentSettings({
    provider: 'openai',
    base_url: model.baseUrl,
    model: 'fake-model',
    max_retries: 0,
    max_failures: 2,
    approval: true,
    risky: ['new_domain'],
  });
});

afterAll(async () => {
  await chain?.close();
  await Promise.all([pages.stop(), model.stop()]);
});

describe('the person’s Stop holds every program until Resume in the panel', () => {
  // A test that failed before its Resume must not leave the next ones held.
  afterEach(async () => {
    await chain.inWorker('globalThis.tabpilot.router.liftHold()');
  });

  it('after Stop, every subscribed client is told BrowserStoppedEvent; a client’s attach, navigate and new tab answer FORBIDDEN naming the Stop; Resume (by keyboard) lets them work again', async () => {
    const alpha = await chain.connect('mcp:held');
    // Another program, subscribed to everything: it learns of the person's Stop, and nothing of alpha's work.
    const bystander = await chain.connect('mcp:bystander');
    const alphaEvents = collect(alpha);
    const bystanderEvents = collect(bystander);
    const panel = await PanelPage.open(chain.client);
    try {
      ok(await alpha.request('subscribe', { events: ['BrowserStoppedEvent'] }));
      ok(await bystander.request('subscribe', { events: ['*'] }));
      const tabId = ok<{ tab_id: string }>(
        await alpha.request('navigate', { url: pages.url('/a.html?who=alpha') }),
      ).tab_id;
      await panel.waitFor(`document.querySelector('#tabs [data-tab-id="${tabId}"]')`, 'the client’s tab in the panel');
      expect(await panel.exists('#resume')).toBe(false);
      await panel.click('#stop');
      await panel.waitFor(`document.getElementById('resume')`, 'Resume after Stop');
      expect(await panel.text('#hold')).toContain('the person pressed Stop in the panel');
      for (const [who, events] of [
        ['alpha', alphaEvents],
        ['the bystander', bystanderEvents],
      ] as const) {
        const stopped = await pollUntil(() => events.find((event) => event.event === 'BrowserStoppedEvent'), {
          timeoutMs: 10_000,
          intervalMs: 50,
          onTimeout: () => new Error(`${who} was not told the browser stopped: ${JSON.stringify(events)}`),
        });
        expect(stopped.data).toEqual({ reason: 'Stopped by request' });
      }
      expect(bystanderEvents.map((event) => event.event)).toEqual(['BrowserStoppedEvent']);
      expect(JSON.stringify(bystanderEvents)).not.toContain('who=alpha');
      for (const [action, params] of [
        ['attach', { tab_id: tabId }],
        ['navigate', { url: pages.url('/b.html') }],
        ['navigate', { url: pages.url('/b.html'), new_tab: true }],
      ] as const) {
        const refused = await alpha.request(action, params);
        expect(refused, action).toMatchObject({
          ok: false,
          error: { code: 'FORBIDDEN', details: { hold: 'the person pressed Stop in the panel' } },
        });
        expect(refused.ok ? '' : refused.error.message).toContain('the person pressed Stop in the panel');
      }
      expect(await chain.inWorker('globalThis.tabpilot.router.controlled().length')).toBe(0);
      // Resume, reached by keyboard and named for assistive technology as the other controls are.
      const { nodes } = await panel.session.send('Accessibility.getFullAXTree', {});
      const resume = nodes.find(
        (node) => !node.ignored && node.role?.value === 'button' && node.name?.value === 'Resume',
      );
      expect(resume, 'a button named Resume in the accessibility tree').toBeDefined();
      await panel.session.send('Page.bringToFront');
      await panel.eval(`document.getElementById('resume').focus()`);
      expect(await panel.eval(`document.activeElement?.id`)).toBe('resume');
      await panel.session.send('Input.dispatchKeyEvent', {
        type: 'rawKeyDown',
        key: 'Enter',
        code: 'Enter',
        windowsVirtualKeyCode: 13,
      });
      await panel.session.send('Input.dispatchKeyEvent', {
        type: 'char',
        key: 'Enter',
        code: 'Enter',
        text: '\r',
        windowsVirtualKeyCode: 13,
      });
      await panel.session.send('Input.dispatchKeyEvent', {
        type: 'keyUp',
        key: 'Enter',
        code: 'Enter',
        windowsVirtualKeyCode: 13,
      });
      await panel.waitFor(`!document.getElementById('resume')`, 'Resume to go once pressed');
      expect(await chain.inWorker('globalThis.tabpilot.router.hold ?? null')).toBeNull();
      const back = ok<{ tab_id: string }>(await alpha.request('navigate', { url: pages.url('/b.html') }));
      expect(ok<{ url: string }>(await alpha.request('state', { tab_id: back.tab_id })).url).toBe(pages.url('/b.html'));
    } finally {
      alpha.close();
      bystander.close();
      await chain.client.root.send('Target.closeTarget', { targetId: panel.targetId });
    }
  });

  it('the hold outlives a worker restart: the new worker still refuses the client', async () => {
    const alpha = await chain.connect('mcp:held-restart');
    const reconnected: HostClient[] = [];
    const panel = await PanelPage.open(chain.client);
    try {
      ok(await alpha.request('navigate', { url: pages.url('/a.html') }));
      await panel.click('#stop');
      await panel.waitFor(`document.getElementById('resume')`, 'Resume after Stop');
      await chain.client.root.send('Target.closeTarget', { targetId: panel.targetId });
      await chain.restartWorker(PANEL_URL);
      // The old worker's host went with it: the client connects again to the host the new worker starts.
      let last = '';
      const refused = await pollUntil(
        async () => {
          const again = await chain.connect('mcp:held-restart').catch((error: unknown) => {
            last = String(error);
            return undefined;
          });
          if (again === undefined) {
            return undefined;
          }
          reconnected.push(again);
          const answer = await again.request('navigate', { url: pages.url('/b.html') });
          last = JSON.stringify(answer);
          return !answer.ok && answer.error.code === 'FORBIDDEN' ? answer : undefined;
        },
        {
          timeoutMs: 30_000,
          intervalMs: 500,
          onTimeout: () => new Error(`the new worker did not refuse the client (last: ${last})`),
        },
      );
      expect(refused).toMatchObject({ error: { details: { hold: 'the person pressed Stop in the panel' } } });
      const again = await PanelPage.open(chain.client);
      await again.click('#resume');
      await again.waitFor(`!document.getElementById('resume')`, 'Resume to go once pressed');
      expect(await reconnected.at(-1)?.request('navigate', { url: pages.url('/b.html') })).toMatchObject({ ok: true });
      await chain.client.root.send('Target.closeTarget', { targetId: again.targetId });
    } finally {
      alpha.close();
      for (const client of reconnected) {
        client.close();
      }
    }
  });
});

describe('what one program does stays its own', () => {
  const cross = (): string => pages.crossUrl('/agent/start');
  /** Goes to the other site (a new domain: the approval step asks), then is done. */
  const toOtherSite = (request: ModelRequestView): ScriptedReply =>
    request.user.includes(`URL: ${cross()}`)
      ? { kind: 'tools', calls: [{ name: 'done', input: { text: 'on the other site', success: true } }] }
      : request.user.includes('refused by the person')
        ? { kind: 'tools', calls: [{ name: 'done', input: { text: 'it was refused', success: false } }] }
        : { kind: 'tools', calls: [{ name: 'navigate', input: { url: cross() } }] };

  let watcher: HostClient;
  let worker: HostClient;
  let watched: EventMessage[];
  let panel: PanelPage;

  beforeAll(async () => {
    [watcher, worker] = await Promise.all([chain.connect('mcp:watcher'), chain.connect('mcp:worker')]);
    watched = collect(watcher);
    ok(await watcher.request('subscribe', { events: ['*'] }));
    panel = await PanelPage.open(chain.client);
  });

  afterAll(async () => {
    watcher?.close();
    worker?.close();
    await chain.client.root.send('Target.closeTarget', { targetId: panel.targetId });
  });

  it('a client subscribed to * sees nothing of another client’s work nor of the panel agent’s run; an approve, pause_run, resume_run or stop_run from it is FORBIDDEN; the panel’s Approve works', async () => {
    const workerEvents = collect(worker);
    ok(await worker.request('subscribe', { events: ['*'] }));
    const workerTab = ok<{ tab_id: string }>(
      await worker.request('navigate', { url: pages.url('/agent/start?who=worker') }),
    ).tab_id;
    expect(workerEvents.some((event) => event.event === 'NavigateToUrlEvent')).toBe(true);

    // The person's agent run, started in the panel's Task view, in a tab the person attached.
    await chain.client.createTab(pages.url('/agent/start?who=person'));
    // The tab lists its URL once its load has begun: look until it does.
    const attached = await pollUntil(
      () =>
        chain
          .inWorker<CommandResponse | null>(
            `(async () => {
          const person = globalThis.tabpilot.server.connect({ id: 'person-attach', kind: 'panel' }, { send: () => undefined });
          const listed = await person.handle({ id: 1, action: 'tabs', params: { all: true } });
          const tab = listed.result.tabs.find((candidate) => candidate.url.includes('who=person'));
          return tab === undefined ? null : person.handle({ id: 2, action: 'attach', params: { tab_id: tab.tab_id } });
        })()`,
          )
          .then((answer) => answer ?? undefined),
      { timeoutMs: 10_000, intervalMs: 200, onTimeout: () => new Error('the person’s tab was never listed') },
    );
    const personTab = ok<{ tab_id: string }>(attached).tab_id;
    expect(ok<{ focused_tab_id: string }>(await worker.request('tabs')).focused_tab_id).not.toBe(personTab);
    model.useScript(toOtherSite);
    const requests = model.requests.length;
    const approvals = collect(worker);
    await panel.view('task');
    await panel.type('#task-input', 'open the other site');
    await panel.click('#run-task');
    await panel.waitFor(`document.querySelector('#run-view .approval')`, 'the approval request in the panel', 30_000);
    const approvalId = await panel.eval<string>(`document.querySelector('#run-view .approval').dataset.approvalId`);
    expect(model.requests.length).toBeGreaterThan(requests);

    // A stranger cannot answer the person's approval, even knowing its id.
    expect(await watcher.request('approve', { approval_id: approvalId, approved: true })).toMatchObject({
      ok: false,
      error: { code: 'FORBIDDEN', details: { approval_id: approvalId } },
    });
    expect(await worker.request('approve', { approval_id: approvalId, approved: true })).toMatchObject({
      ok: false,
      error: { code: 'FORBIDDEN' },
    });
    // Nor may a program hold or end the person's run: steering it is the person's, as answering it is.
    for (const action of ['pause_run', 'resume_run', 'stop_run']) {
      for (const stranger of [watcher, worker]) {
        expect(await stranger.request(action, {}), action).toMatchObject({
          ok: false,
          error: { code: 'FORBIDDEN' },
        });
      }
    }
    expect(await panel.exists('#run-view .approval')).toBe(true);
    await panel.click('#run-view .approval .approve');
    await panel.waitForText('#run-state', 'Done (succeeded) after 2 steps', 30_000);
    expect(await panel.text('#run-result')).toBe('on the other site');

    // Nothing of the worker's tab or of the person's run reached the watcher.
    const seen = JSON.stringify(watched);
    expect(seen).not.toContain('who=worker');
    expect(seen).not.toContain('who=person');
    expect(seen).not.toContain(cross());
    expect(watched.filter((event) => event.event.startsWith('Agent'))).toEqual([]);
    expect(watched.filter((event) => event.source !== 'native:mcp:watcher')).toEqual([]);
    expect(approvals.filter((event) => event.event === 'AgentApprovalRequestedEvent')).toEqual([]);
    // The person sees both: the panel's timeline holds the worker's events and the run's.
    const sources = await chain.inWorker<string[]>(
      `globalThis.tabpilot.timeline.entries().filter((entry) => entry.kind === 'event').map((entry) => entry.source)`,
    );
    expect(sources).toContain('native:mcp:worker');
    expect(sources.some((source) => source?.startsWith('agent:'))).toBe(true);
    expect(workerTab).not.toBe(personTab);
  });

  it('a client’s own run: its approvals reach it alone, it may answer them and steer the run, a stranger may not; runs, run_history and rerun are scoped the same way', async () => {
    ok(await worker.request('navigate', { url: pages.url('/agent/start') }));
    const workerEvents = collect(worker);
    ok(await worker.request('subscribe', { events: ['AgentApprovalRequestedEvent', 'AgentRunFinishedEvent'] }));
    model.useScript(toOtherSite);
    const before = watched.length;
    const running = worker.request('run', { task: 'open the other site' });
    const requested = await pollUntil(
      () => workerEvents.find((event) => event.event === 'AgentApprovalRequestedEvent'),
      { timeoutMs: 30_000, intervalMs: 50, onTimeout: () => new Error('the worker’s run never asked') },
    );
    const { approval_id: approvalId, run_id: runId } = requested.data as { approval_id: string; run_id: string };
    expect(await watcher.request('approve', { approval_id: approvalId, approved: true })).toMatchObject({
      ok: false,
      error: { code: 'FORBIDDEN', details: { approval_id: approvalId, run_id: runId } },
    });
    for (const action of ['pause_run', 'resume_run', 'stop_run']) {
      expect(await watcher.request(action, { run_id: runId }), action).toMatchObject({
        ok: false,
        error: { code: 'FORBIDDEN', details: { run_id: runId } },
      });
    }
    expect(ok<{ paused: boolean }>(await worker.request('pause_run', {})).paused).toBe(true);
    expect(ok<{ paused: boolean }>(await worker.request('resume_run', { run_id: runId })).paused).toBe(false);
    expect(await worker.request('approve', { approval_id: approvalId, approved: true })).toMatchObject({
      ok: true,
      result: { approval_id: approvalId, approved: true },
    });
    expect(ok<{ text: string; run_id: string }>(await running)).toMatchObject({ text: 'on the other site' });
    expect(watched.slice(before)).toEqual([]);

    // Runs, history, pictures and reruns: the worker's own only; the person's run is not its to read.
    const workerRuns = ok<{ runs: Array<{ run_id: string; owner?: string }> }>(await worker.request('runs')).runs;
    expect(workerRuns.map((run) => run.run_id)).toEqual([runId]);
    expect(workerRuns[0]?.owner).toBe('native:mcp:worker');
    expect(ok<{ runs: unknown[] }>(await watcher.request('runs')).runs).toEqual([]);
    expect(await watcher.request('run_history', { run_id: runId })).toMatchObject({
      ok: false,
      error: { code: 'FORBIDDEN', details: { run_id: runId } },
    });
    expect(await watcher.request('rerun', { run_id: runId })).toMatchObject({
      ok: false,
      error: { code: 'FORBIDDEN' },
    });
    expect(await watcher.request('run_screenshot', { run_id: runId, step: 1 })).toMatchObject({
      ok: false,
      error: { code: 'FORBIDDEN' },
    });
    expect(ok<{ run_id: string }>(await worker.request('run_history', { run_id: runId })).run_id).toBe(runId);
    const personRun = ok<{ runs: Array<{ run_id: string; owner?: string }> }>(
      await chain.inWorker<CommandResponse>(`globalThis.tabpilot.server
        .connect({ id: 'person-check', kind: 'panel' }, { send: () => undefined })
        .handle({ id: 1, action: 'runs', params: {} })`),
    ).runs.find((run) => run.owner === undefined);
    expect(personRun, 'the person’s run is kept').toBeDefined();
    expect(await worker.request('run_history', { run_id: personRun?.run_id })).toMatchObject({
      ok: false,
      error: { code: 'FORBIDDEN' },
    });
  });
});
