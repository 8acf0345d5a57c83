import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { defaultConfig, type TabpilotConfig } from '../../src/agent/tabpilot-config';
import type { BrowserSession } from '../../src/browser/session';
import { composeNodeSession } from '../../src/entries/node/compose';
import type { CommandResponse, EventMessage } from '../../src/protocol/commands';
import { pollUntil } from '../../src/shared/time';
import type { CommandServer } from '../../src/tools/command-server';
import { addAgentPages } from './harness/agent-pages';
import { TEST_FLAGS } from './harness/browser';
import { FakeModelServer, type ModelRequestView, type ScriptedReply } from './harness/fake-model-server';
import { FixtureServer } from './harness/fixture-server';

/**
 * What one program does stays its own, over the Node transport: several clients of one Node session
 * (as on one `tabpilot connect` or MCP session), a real Chromium, the scripted model. A program's
 * subscription to * gets nothing of another program's work nor of the person's run; only the person
 * (the stdin client, which is not leased) or the run’s own client answers an approval or pauses, resumes or
 * stops the run.
 */
const pages = new FixtureServer();
const model = new FakeModelServer(() => ({ kind: 'hang' }));
let session: BrowserSession;
let commands: CommandServer;
let requestId = 0;

function ok<T>(response: CommandResponse): T {
  if (!response.ok) {
    throw new Error(`${response.error.code}: ${response.error.message}`);
  }
  return response.result as T;
}

function client(name: string, kind: 'native' | 'mcp' | 'cli') {
  const events: EventMessage[] = [];
  const connection = commands.connect(
    { id: name, kind },
    { send: (message) => 'event' in message && events.push(message) },
  );
  const call = (action: string, params: Record<string, unknown> = {}): Promise<CommandResponse> =>
    connection.handle({ id: ++requestId, action, params });
  return { call, events };
}

const cross = (): string => pages.crossUrl('/agent/start');
/** Goes to the other site (a new domain: the approval step asks), then is done. */
const toOtherSite = (request: ModelRequestView): ScriptedReply =>
  request.user.includes(`URL: ${cross()}`)
    ? { kind: 'tools', calls: [{ name: 'done', input: { text: 'on the other site', success: true } }] }
    : { kind: 'tools', calls: [{ name: 'navigate', input: { url: cross() } }] };

async function approvalOf(events: EventMessage[], what: string): Promise<{ approval_id: string; run_id: string }> {
  const event = await pollUntil(() => events.find((candidate) => candidate.event === 'AgentApprovalRequestedEvent'), {
    timeoutMs: 30_000,
    intervalMs: 50,
    onTimeout: () => new Error(`${what}: no approval was asked`),
  });
  return event.data as { approval_id: string; run_id: string };
}

beforeAll(async () => {
  addAgentPages(pages);
  await Promise.all([pages.start(), model.start()]);
  const base = defaultConfig();
  const config: TabpilotConfig = {
    ...base,
    launch: { ...base.launch, headless: true, args: [...TEST_FLAGS] },
    agent: {
      ...base.agent,
      provider: 'openai',
      model: 'fake-model',
      base_url: model.baseUrl,
      approval: true,
      risky: ['new_domain'],
    },
  };
  ({ session, server: commands } = composeNodeSession({ config }));
  await session.start();
});

afterAll(async () => {
  await session?.stop();
  await Promise.all([pages.stop(), model.stop()]);
});

describe('several clients of one Node session: what one program does stays its own', () => {
  it('a client subscribed to * sees nothing of another’s work or of the person’s run; a stranger’s approve, pause_run, resume_run and stop_run are FORBIDDEN, the person’s work', async () => {
    const watcher = client('mcp:watcher', 'mcp');
    const worker = client('tabpilot', 'native');
    const person = client('stdin', 'cli');
    ok(await watcher.call('subscribe', { events: ['*'] }));
    ok(await worker.call('navigate', { url: pages.url('/agent/start?who=worker') }));
    ok(await person.call('navigate', { url: pages.url('/agent/start?who=person') }));
    ok(await person.call('subscribe', { events: ['AgentApprovalRequestedEvent'] }));
    model.useScript(toOtherSite);
    const running = person.call('run', { task: 'open the other site' });
    const asked = await approvalOf(person.events, 'the person’s run');
    // Nor may a program hold or end the person's run: steering it is the person's, as answering it is.
    for (const action of ['pause_run', 'resume_run', 'stop_run']) {
      for (const stranger of [worker, watcher]) {
        expect(await stranger.call(action, {}), action).toMatchObject({
          ok: false,
          error: { code: 'FORBIDDEN', details: { run_id: asked.run_id } },
        });
      }
    }
    expect(ok<{ paused: boolean }>(await person.call('pause_run', { run_id: asked.run_id })).paused).toBe(true);
    expect(ok<{ paused: boolean }>(await person.call('resume_run', {})).paused).toBe(false);
    expect(await worker.call('approve', { approval_id: asked.approval_id, approved: true })).toMatchObject({
      ok: false,
      error: { code: 'FORBIDDEN', details: { approval_id: asked.approval_id, run_id: asked.run_id } },
    });
    expect(await watcher.call('approve', { approval_id: asked.approval_id, approved: true })).toMatchObject({
      ok: false,
      error: { code: 'FORBIDDEN' },
    });
    expect(await person.call('approve', { approval_id: asked.approval_id, approved: true })).toMatchObject({
      ok: true,
    });
    expect(ok<{ text: string }>(await running).text).toBe('on the other site');
    const seen = JSON.stringify(watcher.events);
    expect(seen).not.toContain('who=worker');
    expect(seen).not.toContain('who=person');
    expect(seen).not.toContain(cross());
    expect(watcher.events).toEqual([]);
    // The person's run is not the program's to read.
    expect(await worker.call('run_history', { run_id: asked.run_id })).toMatchObject({
      ok: false,
      error: { code: 'FORBIDDEN' },
    });
    expect(ok<{ runs: unknown[] }>(await worker.call('runs')).runs).toEqual([]);
    expect(ok<{ runs: Array<{ run_id: string }> }>(await person.call('runs')).runs[0]?.run_id).toBe(asked.run_id);
  });

  it('a client’s own run asks it alone; it may answer and steer it, a stranger may not; its runs are its own', async () => {
    const watcher = client('mcp:watcher2', 'mcp');
    const worker = client('tabpilot:worker2', 'native');
    ok(await watcher.call('subscribe', { events: ['*'] }));
    ok(await worker.call('subscribe', { events: ['AgentApprovalRequestedEvent'] }));
    ok(await worker.call('navigate', { url: pages.url('/agent/start') }));
    model.useScript(toOtherSite);
    const running = worker.call('run', { task: 'open the other site' });
    const asked = await approvalOf(worker.events, 'the worker’s run');
    for (const action of ['pause_run', 'resume_run', 'stop_run']) {
      expect(await watcher.call(action, { run_id: asked.run_id }), action).toMatchObject({
        ok: false,
        error: { code: 'FORBIDDEN', details: { run_id: asked.run_id } },
      });
    }
    expect(ok<{ paused: boolean }>(await worker.call('pause_run', {})).paused).toBe(true);
    expect(ok<{ paused: boolean }>(await worker.call('resume_run', { run_id: asked.run_id })).paused).toBe(false);
    expect(await watcher.call('approve', { approval_id: asked.approval_id, approved: true })).toMatchObject({
      ok: false,
      error: { code: 'FORBIDDEN' },
    });
    expect(await worker.call('approve', { approval_id: asked.approval_id, approved: true })).toMatchObject({
      ok: true,
      result: { approved: true },
    });
    expect(ok<{ text: string }>(await running).text).toBe('on the other site');
    expect(watcher.events).toEqual([]);
    const runs = ok<{ runs: Array<{ run_id: string; owner?: string }> }>(await worker.call('runs')).runs;
    expect(runs).toEqual([expect.objectContaining({ run_id: asked.run_id, owner: 'native:tabpilot:worker2' })]);
    expect(await watcher.call('rerun', { run_id: asked.run_id })).toMatchObject({
      ok: false,
      error: { code: 'FORBIDDEN' },
    });
  });

  // Last in the file: the stop lets go of the browser.
  it('every subscribed client is told the person stopped the browser (BrowserStoppedEvent), and still nothing of another’s work', async () => {
    const watcher = client('mcp:watcher3', 'mcp');
    const worker = client('tabpilot:worker3', 'native');
    const person = client('stdin', 'cli');
    ok(await watcher.call('subscribe', { events: ['*'] }));
    ok(await worker.call('subscribe', { events: ['BrowserStoppedEvent'] }));
    ok(await worker.call('navigate', { url: pages.url('/agent/start?who=worker3') }));
    ok(await person.call('stop', { force: false }));
    for (const [who, events] of [
      ['the watcher', watcher.events],
      ['the worker', worker.events],
    ] as const) {
      const stopped = await pollUntil(() => events.find((event) => event.event === 'BrowserStoppedEvent'), {
        timeoutMs: 10_000,
        intervalMs: 50,
        onTimeout: () => new Error(`${who} was not told the browser stopped: ${JSON.stringify(events)}`),
      });
      expect(stopped).toMatchObject({ source: 'cli:stdin', data: { reason: 'Stopped by request' } });
    }
    expect(watcher.events.map((event) => event.event)).toEqual(['BrowserStoppedEvent']);
    expect(JSON.stringify(watcher.events)).not.toContain('who=worker3');
  });
});
