import { describe, expect, it } from 'vitest';
import { memoryStore } from '../../../test/fakes/memory-store';
import type { Runtime } from 'webextension-polyfill';
import { startedFakeSession } from '../../../test/fakes/fake-session';
import { pollUntil } from '../../shared/time';
import type { WorkerToPanel } from '../../protocol/panel-messages';
import { silentLogger } from '../../shared/logger';
import { CommandServer } from '../../tools/command-server';
import { createDefaultRegistry } from '../../tools/actions';
import { z } from 'zod';
import { createDeferred } from '../../shared/deferred';
import { AgentKeyStore } from './agent/agent-keys';
import { PanelHub } from './panel-hub';
import { PANEL_PORT_NAME, servePanelPorts, type PortRuntime } from './panel-port';
import { secretsOf } from '../../shared/redact';
import { SettingsStore } from './settings-store';
import { TimelineRecorder } from './timeline-recorder';
import { SERVED_CONFIG } from '../../agent/tabpilot-config';

const ORIGIN = 'chrome-extension://ourextensionid/';

interface FakePort {
  port: Runtime.Port;
  posted: WorkerToPanel[];
  disconnected: boolean;
  send(message: unknown): void;
}

function fakePort(name: string, sender: { id?: string; url?: string }): FakePort {
  const messageListeners: Array<(message: unknown) => void> = [];
  const fake: FakePort = {
    posted: [],
    disconnected: false,
    send: (message) => messageListeners.forEach((listener) => listener(message)),
    port: undefined as unknown as Runtime.Port,
  };
  fake.port = {
    name,
    sender,
    postMessage: (message: WorkerToPanel) => fake.posted.push(message),
    disconnect: () => {
      fake.disconnected = true;
    },
    onMessage: { addListener: (listener: (message: unknown) => void) => messageListeners.push(listener) },
    onDisconnect: { addListener: () => undefined },
  } as unknown as Runtime.Port;
  return fake;
}

async function serve(
  extra: { agentKeys?: AgentKeyStore; prepare?: (server: CommandServer) => void } = {},
): Promise<{ connect: (port: FakePort) => void; timeline: TimelineRecorder }> {
  const { session } = await startedFakeSession();
  const server = new CommandServer(session, createDefaultRegistry(), SERVED_CONFIG);
  extra.prepare?.(server);
  const settings = new SettingsStore(memoryStore(), (config) => session.applyConfig(config));
  const secrets = (): ReturnType<typeof secretsOf> => secretsOf(settings.config.sensitive_data);
  const timeline = new TimelineRecorder({ store: memoryStore(), secrets, log: silentLogger });
  let onConnect: ((port: Runtime.Port) => void) | undefined;
  const runtime: PortRuntime = {
    id: 'ourextensionid',
    getURL: (path) => `${ORIGIN}${path}`,
    onConnect: { addListener: (listener) => (onConnect = listener) },
  };
  servePanelPorts(runtime, {
    server,
    ...(extra.agentKeys === undefined ? {} : { agentKeys: extra.agentKeys }),
    ready: Promise.resolve(),
    hub: new PanelHub(
      () =>
        Promise.resolve({
          attached: false,
          user_cancelled: false,
          stopped: false,
          hold: null,
          tabs: [],
          focused_tab_id: null,
        }),
      silentLogger,
    ),
    timeline,
    files: { writeFile: (path) => Promise.resolve(`Downloads/tabpilot/${path}`) },
    settings,
    attachWindow: () => Promise.resolve({ error: { code: 'TAB_NOT_FOUND', message: 'no window in a unit test' } }),
    controlledCount: () => 0,
    hold: { holdClients: () => undefined, liftHold: () => Promise.resolve() },
    showTab: () => Promise.resolve(),
    log: silentLogger,
  });
  return { connect: (port) => onConnect?.(port.port), timeline };
}

/** Lets whatever the messages started run its course; only for checks that nothing was sent. */
const settle = (): Promise<void> => new Promise((resolve) => setTimeout(resolve, 20));

/**
 * Waits (bounded) until the worker has posted a message that matches: a command's answer can take any
 * number of timer turns on a loaded machine, so a fixed pause before reading it is a race.
 */
function postedMessage(panel: FakePort, matches: (message: WorkerToPanel) => boolean): Promise<WorkerToPanel> {
  return pollUntil(() => panel.posted.find(matches), {
    timeoutMs: 5000,
    intervalMs: 5,
    onTimeout: () => new Error(`no such message among ${JSON.stringify(panel.posted.map((m) => m.type))}`),
  });
}

describe('panel port', () => {
  it('refuses ports that are not our pages, or not the panel port', async () => {
    const { connect } = await serve();
    const strangers = [
      fakePort(PANEL_PORT_NAME, { id: 'otherextension', url: 'chrome-extension://otherextension/x.html' }),
      fakePort(PANEL_PORT_NAME, { id: 'ourextensionid', url: 'https://example.com/' }),
      fakePort('something-else', { id: 'ourextensionid', url: `${ORIGIN}page.html` }),
    ];
    for (const stranger of strangers) {
      connect(stranger);
      stranger.send({ type: 'command', request: { id: 1, action: 'tabs' } });
    }
    await settle();
    for (const stranger of strangers) {
      expect(stranger.disconnected).toBe(true);
      expect(stranger.posted).toEqual([]);
    }
  });

  it('greets a panel with its state, answers commands by id, and drops messages that do not parse', async () => {
    const { connect } = await serve();
    const panel = fakePort(PANEL_PORT_NAME, { id: 'ourextensionid', url: `${ORIGIN}sidepanel.html` });
    connect(panel);
    await postedMessage(panel, (message) => message.type === 'status');
    expect(panel.posted.map((message) => message.type)).toEqual(['settings', 'timeline', 'status']);
    panel.send({ type: 'command', request: { id: 7, action: 'nonsense' }, extra: true });
    panel.send({ type: 'whatever' });
    panel.send({ type: 'command', request: { id: 8, action: 'describe' } });
    // The two bad messages are dropped as they arrive; the good one is answered after them.
    await postedMessage(panel, (message) => message.type === 'response' && message.response.id === 8);
    const responses = panel.posted.filter((message) => message.type === 'response');
    expect(responses).toHaveLength(1);
    expect(responses[0]).toMatchObject({ response: { id: 8, ok: true } });
  });

  it('saves settings: a bad value is refused by field; a good one is applied, pushed and noted', async () => {
    const { connect, timeline } = await serve();
    const panel = fakePort(PANEL_PORT_NAME, { id: 'ourextensionid', url: `${ORIGIN}sidepanel.html` });
    connect(panel);
    await postedMessage(panel, (message) => message.type === 'status');
    panel.send({ type: 'save_settings', id: 1, config: { cdp_timeout_ms: 'soon' } });
    panel.send({ type: 'save_settings', id: 2, config: { sensitive_data: { '*': { password: 'p4ss' } } } });
    // The settings push and the timeline note follow the result of the save that was applied.
    await postedMessage(panel, (message) => message.type === 'settings_result' && message.id === 2);
    await postedMessage(panel, (message) => message.type === 'settings_result' && message.id === 1);
    const results = panel.posted.filter((message) => message.type === 'settings_result');
    expect(results[0]).toMatchObject({ id: 1, ok: false, error: { field: 'cdp_timeout_ms' } });
    expect(results[1]).toMatchObject({ id: 2, ok: true });
    expect(panel.posted.filter((message) => message.type === 'settings')).toHaveLength(2);
    expect(JSON.stringify(timeline.entries())).toContain('Settings saved and applied.');

    panel.send({ type: 'command', request: { id: 3, action: 'navigate', params: { url: 'p4ss' } } });
    const answer = JSON.stringify(
      await postedMessage(panel, (message) => message.type === 'response' && message.response.id === 3),
    );
    expect(answer).toContain('<secret>password</secret>');
    expect(answer).not.toContain('p4ss');
  });

  it("runs a long request on the run lane without holding back the panel's other requests", async () => {
    const release = createDeferred<void>();
    const { connect } = await serve({
      prepare: (server) =>
        server.addServerAction({
          name: 'slow',
          summary: 'Waits.',
          description: 'waits for the test',
          params: z.strictObject({}),
          category: 'session',
          hints: { readOnly: true, destructive: false, idempotent: true, openWorld: false },
          run: async () => {
            await release.promise;
            return { slow: true };
          },
        }),
    });
    const panel = fakePort(PANEL_PORT_NAME, { id: 'ourextensionid', url: `${ORIGIN}sidepanel.html` });
    connect(panel);
    const answered = (id: number) => (message: WorkerToPanel) =>
      message.type === 'response' && message.response.id === id;
    panel.send({ type: 'command', request: { id: 1, action: 'slow' }, lane: 'run' });
    panel.send({ type: 'command', request: { id: 2, action: 'describe' } });
    panel.send({ type: 'command', request: { id: 3, action: 'describe' }, lane: 'run' });
    await postedMessage(panel, answered(2));
    // The run lane keeps its own order: its second request waits behind the first.
    expect(panel.posted.some(answered(1))).toBe(false);
    expect(panel.posted.some(answered(3))).toBe(false);
    release.resolve();
    await postedMessage(panel, answered(3));
    expect(panel.posted.find(answered(1))).toMatchObject({ response: { ok: true, result: { slow: true } } });
  });

  it('stores the agent key, tells every panel only that it is set, and never posts its value', async () => {
    const keys = new AgentKeyStore(memoryStore());
    const { connect, timeline } = await serve({ agentKeys: keys });
    const panel = fakePort(PANEL_PORT_NAME, { id: 'ourextensionid', url: `${ORIGIN}sidepanel.html` });
    connect(panel);
    await postedMessage(panel, (message) => message.type === 'agent_keys');
    panel.send({ type: 'save_agent_key', id: 4, provider: 'anthropic', key: 'sk-ant-unit-secret' });
    await postedMessage(panel, (message) => message.type === 'response' && message.response.id === 4);
    expect(panel.posted.find((message) => message.type === 'response' && message.response.id === 4)).toMatchObject({
      response: { ok: true, result: { provider: 'anthropic', set: true } },
    });
    expect(panel.posted.filter((message) => message.type === 'agent_keys').at(-1)).toEqual({
      type: 'agent_keys',
      keys: { openai: false, anthropic: true },
    });
    expect(keys.key('anthropic')).toBe('sk-ant-unit-secret');
    expect(JSON.stringify(panel.posted)).not.toContain('sk-ant-unit-secret');
    expect(JSON.stringify(timeline.entries())).not.toContain('sk-ant-unit-secret');
    panel.send({ type: 'save_agent_key', id: 5, provider: 'anthropic', key: 'x'.repeat(5000) });
    await settle();
    // Over the length limit: the message does not parse and changes nothing.
    expect(keys.key('anthropic')).toBe('sk-ant-unit-secret');
  });
});
