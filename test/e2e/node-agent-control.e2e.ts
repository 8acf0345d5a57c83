import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { defaultConfig, type TabpilotConfig } from '../../src/agent/tabpilot-config';
import type { BrowserSession } from '../../src/browser/session';
import { composeNodeSession } from '../../src/entries/node/compose';
import type { EventMessage, CommandResponse, ServerMessage } from '../../src/protocol/commands';
import type { ClientConnection, CommandServer } from '../../src/tools/command-server';
import { createDeferred } from '../../src/shared/deferred';
import { AGENT_SECRET, addAgentPages, addSignUpForm, fillSignUpForm } from './harness/agent-pages';
import { TEST_FLAGS } from './harness/browser';
import { FakeModelServer, indexOf, type ModelRequestView, type ScriptedReply } from './harness/fake-model-server';
import { FixtureServer, html, page } from './harness/fixture-server';

/**
 * The agent's control surface over the Node transport, as a panel client uses it: pause_run /
 * resume_run / stop_run, approvals answered with approve, the past runs (runs, run_history) and a
 * rerun of a past run's flow without the model. A real Chromium, the fixture pages, the scripted
 * model server.
 */
const pages = new FixtureServer();
const model = new FakeModelServer(() => ({ kind: 'hang' }));
let session: BrowserSession<TabpilotConfig>;
let server: CommandServer;
let panel: ClientConnection;
/** Another client, for work on the browser while the panel's run is going (a client's requests run in turn). */
let other: ClientConnection;
const messages: ServerMessage[] = [];
/** Called with each event the panel client receives (approvals are answered from here). */
let onEvent: (event: EventMessage) => void = () => undefined;
let requestId = 0;

async function call(action: string, params: Record<string, unknown> = {}): Promise<CommandResponse> {
  return panel.handle({ id: `r${++requestId}`, action, params });
}

function resultOf<T>(response: CommandResponse): T {
  if (!response.ok) {
    throw new Error(`${response.error.code}: ${response.error.message}`);
  }
  return response.result as T;
}

function eventsOf(type: string, runId?: string): Array<Record<string, unknown>> {
  return messages
    .filter((message): message is EventMessage => 'event' in message && message.event === type)
    .map((message) => message.data as Record<string, unknown>)
    .filter((data) => runId === undefined || data['run_id'] === runId);
}

async function configured(agent: Partial<TabpilotConfig['agent']>): Promise<void> {
  await session.applyConfig({ ...session.config, agent: { ...session.config.agent, ...agent } });
}

async function openStart(): Promise<void> {
  expect((await call('navigate', { url: pages.url('/agent/start') })).ok).toBe(true);
}

function pageText(request: ModelRequestView): string {
  const match = /<untrusted_page_content source="[^"]*">\n([\s\S]*)\n<\/untrusted_page_content>/.exec(request.user);
  if (match?.[1] === undefined) {
    throw new Error(`no wrapped page in the prompt:\n${request.user}`);
  }
  return match[1];
}

/** The three-step sign-up: navigate to the form; fill it in and submit; done with what the site says. */
function signUpScript(request: ModelRequestView): ScriptedReply {
  const text = pageText(request);
  if (text.includes('URL: ' + pages.url('/agent/start'))) {
    return { kind: 'tools', calls: [{ name: 'navigate', input: { url: pages.url('/agent/form') } }] };
  }
  if (text.includes('URL: ' + pages.url('/agent/form'))) {
    return fillSignUpForm(text, 'Ada');
  }
  const thanks = /Thanks, [^!]*!/.exec(text)?.[0];
  return { kind: 'tools', calls: [{ name: 'done', input: { text: thanks ?? 'lost', success: thanks !== undefined } }] };
}

const SIGN_UP = 'Sign up as Ada with my password, then tell me what the site says.';

beforeAll(async () => {
  await Promise.all([pages.start(), model.start()]);
  addAgentPages(pages);
  const base = defaultConfig();
  const config: TabpilotConfig = {
    ...base,
    sensitive_data: { localhost: { password: AGENT_SECRET } },
    // A rerun that stops saves its picture there.
    output_dir: mkdtempSync(join(tmpdir(), 'tabpilot-agent-control-')),
    launch: { ...base.launch, headless: true, args: [...TEST_FLAGS] },
    agent: { ...base.agent, provider: 'openai', model: 'fake-model', base_url: model.baseUrl },
  };
  ({ session, server } = composeNodeSession({ config }));
  panel = server.connect(
    { id: 'panel', kind: 'panel' },
    {
      send: (message) => {
        messages.push(message);
        if ('event' in message) {
          onEvent(message);
        }
      },
    },
  );
  other = server.connect({ id: 'other', kind: 'test' }, { send: () => undefined });
  await session.start();
  const subscribed = await call('subscribe', {
    events: [
      'AgentStepEvent',
      'AgentPausedEvent',
      'AgentRunFinishedEvent',
      'AgentApprovalRequestedEvent',
      'AgentApprovalResolvedEvent',
    ],
  });
  expect(subscribed.ok).toBe(true);
});

afterAll(async () => {
  panel.close();
  other.close();
  await session.stop();
  await Promise.all([pages.stop(), model.stop()]);
});

beforeEach(() => {
  onEvent = () => undefined;
});

describe('a past run: kept, read back, and rerun without the model', () => {
  let runId = '';

  beforeAll(async () => {
    await openStart();
    model.useScript(signUpScript);
    const answer = resultOf<{ run_id: string; reason: string; steps: number; text: string }>(
      await call('run', { task: SIGN_UP }),
    );
    expect(answer).toMatchObject({ reason: 'done', steps: 3, text: 'Thanks, Ada!' });
    runId = answer.run_id;
  });

  it('runs lists it newest first; run_history gives its steps and its flow, each element step with a locator', async () => {
    const { runs } = resultOf<{ runs: Array<Record<string, unknown>> }>(await call('runs'));
    expect(runs[0]).toMatchObject({ run_id: runId, task: SIGN_UP, reason: 'done', success: true, steps: 3 });
    const record = resultOf<{
      steps: Array<{ step: number; actions: Array<{ name: string; params: unknown; error?: unknown }> }>;
      flow: { format: string; name: string; steps: Array<Record<string, unknown>> };
    }>(await call('run_history', { run_id: runId }));
    expect(record.steps.map((step) => step.actions.map((action) => action.name))).toEqual([
      ['navigate'],
      ['input', 'input', 'click'],
      ['done'],
    ]);
    // The run's flow: the page it opened, each field and the button by the locator derived in the page
    // when the action ran, the typed secret by its name, the expectations from the actions' outcomes.
    expect(record.flow).toMatchObject({ format: 'tabpilot-flow', version: 1, name: SIGN_UP });
    expect(record.flow.steps).toEqual([
      expect.objectContaining({
        action: 'navigate',
        url: pages.url('/agent/form'),
        expect: expect.objectContaining({ path: '/agent/form' }),
      }),
      { action: 'fill', locator: { role: 'textbox', name: 'Name' }, input: { value: 'Ada' } },
      { action: 'fill', locator: { label: 'Password' }, input: { secret: 'password' } },
      expect.objectContaining({
        action: 'click',
        locator: { role: 'button', name: 'Create account' },
        expect: expect.objectContaining({ path: '/agent/thanks' }),
      }),
    ]);
    // The placeholder is kept, never the secret it stands for.
    expect(JSON.stringify(record)).toContain('<secret>password</secret>');
    expect(JSON.stringify(record)).not.toContain(AGENT_SECRET);
    const unknown = await call('run_history', { run_id: 'no-such-run' });
    expect(unknown).toMatchObject({ ok: false, error: { code: 'INVALID_PARAMS', details: { field: 'run_id' } } });
  });

  it("rerun replays the run's flow, without a model request, and reaches the same end page", async () => {
    // The form has more before its fields now, so every index the run used names another element: the
    // flow finds each by its locator.
    pages.route('/agent/form', (_req, res) =>
      html(
        res,
        page(
          'Sign up',
          `<h1>Sign up</h1><p><a href="/agent/start">Back to the start</a></p>
<form action="/agent/thanks" method="get">
<label>Coupon <input name="coupon" placeholder="Coupon code"></label>
<label>Name <input name="name" placeholder="Your name"></label>
<label>Password <input name="password" type="password" placeholder="Your password"></label>
<button type="submit">Create account</button></form>`,
        ),
      ),
    );
    await openStart();
    const before = model.requests.length;
    const thanksBefore = pages.requests.filter((request) => request.path === '/agent/thanks').length;
    const answer = resultOf<Record<string, unknown>>(
      await call('rerun', { run_id: runId }).finally(() => addAgentPages(pages)),
    );
    // The answer of replay: every step held.
    expect(answer).toEqual({ flow: SIGN_UP, steps: 4, completed: 4, stopped_at: null, reason: null, screenshot: null });
    expect(model.requests.length).toBe(before);
    expect(pages.requests.filter((request) => request.path === '/agent/thanks').length).toBe(thanksBefore + 1);
    expect(pages.requests.filter((request) => request.path === '/agent/thanks').at(-1)?.query).toContain(
      `password=${AGENT_SECRET}`,
    );
    expect(resultOf<{ text: string }>(await call('state')).text).toContain('Thanks, Ada!');
  });

  it('a rerun on a page whose button was renamed stops at that step, with the reason and a picture', async () => {
    addSignUpForm(pages, 'Register');
    try {
      await openStart();
      const thanksBefore = pages.requests.filter((request) => request.path === '/agent/thanks').length;
      const answer = resultOf<{ stopped_at: number; completed: number; reason: string; screenshot: string | null }>(
        await call('rerun', { run_id: runId }),
      );
      expect(answer).toMatchObject({ flow: SIGN_UP, steps: 4, completed: 3, stopped_at: 4 });
      expect(answer.reason).toBe(
        'step 4 (click button "Create account"): no element on the page is button "Create account"',
      );
      expect(answer.screenshot).toMatch(/replay-step-4\.png$/);
      expect(pages.requests.filter((request) => request.path === '/agent/thanks').length).toBe(thanksBefore);
    } finally {
      addAgentPages(pages);
    }
  });
});

describe('pause, resume and stop', () => {
  it('a paused run takes no further step until resumed, then finishes', async () => {
    await openStart();
    const third = createDeferred<Exclude<ScriptedReply, { kind: 'later' }>>();
    let finish = false;
    model.useScript((_request, index) => {
      if (finish) {
        return { kind: 'tools', calls: [{ name: 'done', input: { text: 'resumed and done', success: true } }] };
      }
      if (index === 3) {
        return { kind: 'later', reply: third.promise };
      }
      return { kind: 'tools', calls: [{ name: 'tabs', input: {} }] };
    });
    const running = call('run', { task: 'look at the tabs for a while', max_steps: 20 });
    // The third model request is held: the run is waiting on its model when it is paused.
    await expect.poll(() => model.requests.length, { timeout: 30_000 }).toBe(3);
    const paused = resultOf<{ run_id: string; paused: boolean }>(await call('pause_run', { run_id: null }));
    expect(paused.paused).toBe(true);
    const runId = paused.run_id;
    await expect
      .poll(() => eventsOf('AgentPausedEvent', runId), { timeout: 10_000 })
      .toEqual([{ run_id: runId, paused: true }]);
    third.resolve({ kind: 'tools', calls: [{ name: 'tabs', input: {} }] });
    // Work on the browser meanwhile: the answer has come back, yet the run neither acts nor asks again.
    for (let i = 0; i < 3; i++) {
      expect((await other.handle({ id: `state-${i}`, action: 'state', params: {} })).ok).toBe(true);
    }
    expect(eventsOf('AgentStepEvent', runId)).toHaveLength(2);
    expect(model.requests).toHaveLength(3);
    const agentTabs = () =>
      session.bus.history().filter((view) => view.type === 'ListTabsEvent' && view.source === `agent:${runId}`).length;
    expect(agentTabs()).toBe(2);

    finish = true;
    expect(resultOf(await call('resume_run', { run_id: runId }))).toEqual({ run_id: runId, paused: false });
    const answer = await running;
    expect(answer).toMatchObject({
      ok: true,
      result: { run_id: runId, reason: 'done', text: 'resumed and done', steps: 4 },
    });
    expect(agentTabs()).toBe(3);
    await expect
      .poll(() => eventsOf('AgentPausedEvent', runId).map((event) => event['paused']), { timeout: 10_000 })
      .toEqual([true, false]);
  });

  it('stop_run ends the run going (its model request abandoned) and leaves the browser attached', async () => {
    await openStart();
    model.useScript(() => ({ kind: 'hang' }));
    const running = call('run', { task: 'wait for ever' });
    await expect.poll(() => model.requests.length, { timeout: 30_000 }).toBe(1);
    const stopped = resultOf<{ run_id: string; stopped: boolean }>(await call('stop_run', { run_id: null }));
    expect(stopped.stopped).toBe(true);
    await expect(running).resolves.toMatchObject({
      ok: true,
      result: { run_id: stopped.run_id, reason: 'stopped', success: false, steps: 0 },
    });
    // Only the agent stopped: the session still drives the browser.
    expect((await call('state')).ok).toBe(true);
    for (const action of ['stop_run', 'pause_run', 'resume_run']) {
      expect(await call(action, { run_id: null })).toMatchObject({
        ok: false,
        error: { code: 'INVALID_PARAMS', details: { field: 'run_id' } },
      });
    }
    expect(await call('stop_run', { run_id: 'someone-else' })).toMatchObject({
      ok: false,
      error: { code: 'INVALID_PARAMS' },
    });
  });
});

describe('approvals', () => {
  beforeAll(async () => {
    await configured({ approval: true });
  });
  afterAll(async () => {
    await configured({ approval: false });
  });

  /** Navigates to a new domain (the second site) until it is there, then ends. */
  function newDomainScript(request: ModelRequestView): ScriptedReply {
    const text = pageText(request);
    if (text.includes('URL: ' + pages.crossUrl('/agent/form'))) {
      return { kind: 'tools', calls: [{ name: 'done', input: { text: 'on the other site', success: true } }] };
    }
    const refusedBefore = request.user.includes('refused by the person');
    return {
      kind: 'tools',
      calls: [
        {
          name: 'navigate',
          input: { url: pages.crossUrl(refusedBefore ? '/agent/form?second' : '/agent/form?first') },
        },
      ],
    };
  }

  it('a navigation to a new domain waits for the person: refused, the model is told; approved, it runs', async () => {
    await openStart();
    model.useScript(newDomainScript);
    const answers: CommandResponse[] = [];
    const handled: Array<Promise<void>> = [];
    let asked = 0;
    onEvent = (event) => {
      if (event.event === 'AgentApprovalRequestedEvent') {
        const approvalId = (event.data as { approval_id: string }).approval_id;
        asked++;
        handled.push(
          call('approve', { approval_id: approvalId, approved: asked > 1 }).then((answer) => {
            answers.push(answer);
          }),
        );
      }
    };
    const answer = resultOf<{ run_id: string; reason: string; text: string }>(
      await call('run', { task: 'go to the other site' }),
    );
    await Promise.all(handled);
    expect(answer).toMatchObject({ reason: 'done', text: 'on the other site' });
    const requested = eventsOf('AgentApprovalRequestedEvent', answer.run_id);
    expect(requested).toHaveLength(2);
    expect(requested[0]).toMatchObject({
      action: 'navigate',
      risk: 'new_domain',
      params: { url: pages.crossUrl('/agent/form?first') },
      reason: expect.stringContaining('127.0.0.1'),
    });
    expect(answers.map((response) => response.ok && response.result)).toEqual([
      { approval_id: requested[0]?.['approval_id'], approved: false },
      { approval_id: requested[1]?.['approval_id'], approved: true },
    ]);
    expect(eventsOf('AgentApprovalResolvedEvent', answer.run_id).map((event) => event['approved'])).toEqual([
      false,
      true,
    ]);
    // The refused navigation never left the browser; the approved one did.
    expect(pages.requests.some((request) => request.path === '/agent/form' && request.query.includes('first'))).toBe(
      false,
    );
    expect(pages.requests.some((request) => request.path === '/agent/form' && request.query.includes('second'))).toBe(
      true,
    );
    const [firstStep] = eventsOf('AgentStepEvent', answer.run_id);
    expect(firstStep?.['actions']).toEqual([
      expect.objectContaining({
        name: 'navigate',
        success: false,
        error_code: 'FORBIDDEN',
        error: expect.stringMatching(/^refused by the person: /),
      }),
    ]);
    expect(model.requests[1]?.user).toContain('refused by the person');
    expect(await call('approve', { approval_id: 'nothing-waits', approved: true })).toMatchObject({
      ok: false,
      error: { code: 'INVALID_PARAMS', details: { field: 'approval_id' } },
    });
  });

  it('stop_run while the run waits for an approval ends the wait, refused', async () => {
    await openStart();
    model.useScript(newDomainScript);
    onEvent = (event) => {
      if (event.event === 'AgentApprovalRequestedEvent') {
        void call('stop_run', { run_id: (event.data as { run_id: string }).run_id });
      }
    };
    const answer = resultOf<{ run_id: string; reason: string; steps: number }>(await call('run', { task: 'go there' }));
    expect(answer).toMatchObject({ reason: 'stopped', steps: 0 });
    expect(eventsOf('AgentApprovalResolvedEvent', answer.run_id)).toEqual([
      expect.objectContaining({ run_id: answer.run_id, approved: false }),
    ]);
    expect(pages.requests.some((request) => request.path === '/agent/form' && request.query.includes('first'))).toBe(
      false,
    );
  });

  it('a download link and a form posting to another origin (by its button, or Enter in its field) are found on the real page and asked about', async () => {
    pages.route('/agent/shop', (_req, res) =>
      html(
        res,
        page(
          'Shop',
          `<p><a href="/agent/price-list" download>Price list</a></p>
<form action="${pages.crossUrl('/agent/thanks')}" method="post"><input name="name" placeholder="Your name">
<button>Pay now</button></form>
<form action="/agent/thanks"><button>Save for later</button></form>`,
        ),
      ),
    );
    expect((await call('navigate', { url: pages.url('/agent/shop') })).ok).toBe(true);
    model.useScript((request, index) => {
      const text = pageText(request);
      if (index === 3) {
        return { kind: 'tools', calls: [{ name: 'input', input: { index: indexOf(text, 'Your name'), text: 'Ann' } }] };
      }
      if (index === 4) {
        return { kind: 'tools', calls: [{ name: 'send_keys', input: { keys: 'Enter' } }] };
      }
      const label = ['Price list', 'Pay now', '', '', 'Save for later'][index - 1];
      return label === undefined
        ? { kind: 'tools', calls: [{ name: 'done', input: { text: 'looked', success: true } }] }
        : { kind: 'tools', calls: [{ name: 'click', input: { index: indexOf(text, label) } }] };
    });
    onEvent = (event) => {
      if (event.event === 'AgentApprovalRequestedEvent') {
        void call('approve', { approval_id: (event.data as { approval_id: string }).approval_id, approved: false });
      }
    };
    const answer = resultOf<{ run_id: string; reason: string }>(await call('run', { task: 'look around the shop' }));
    expect(answer.reason).toBe('done');
    // The same-origin form's button and the typing run without asking; the others wait and are refused.
    expect(
      eventsOf('AgentApprovalRequestedEvent', answer.run_id).map((event) => [event['risk'], event['reason']]),
    ).toEqual([
      ['download', expect.stringContaining('/agent/price-list')],
      ['cross_origin_form', expect.stringContaining(pages.crossUrl(''))],
      ['cross_origin_form', expect.stringMatching(/pressing Enter in the focused field sends its form to/)],
    ]);
    expect(pages.requests.some((request) => request.path === '/agent/price-list')).toBe(false);
    expect(pages.requests.some((request) => request.path === '/agent/thanks' && request.method === 'POST')).toBe(false);
    const steps = eventsOf('AgentStepEvent', answer.run_id).map(
      (step) => (step['actions'] as Array<{ success: boolean; error_code: string | null }>)[0],
    );
    expect(steps.slice(0, 5).map((action) => action?.error_code ?? 'ok')).toEqual([
      'FORBIDDEN',
      'FORBIDDEN',
      'ok',
      'FORBIDDEN',
      'ok',
    ]);
  });

  // Last in the file: the emergency stop ends the session (and kills the browser tabpilot launched).
  it('the emergency stop while the run waits for an approval ends the wait and the run', async () => {
    await openStart();
    model.useScript(newDomainScript);
    onEvent = (event) => {
      if (event.event === 'AgentApprovalRequestedEvent') {
        void other.handle({ id: 'emergency', action: 'stop', params: {} });
      }
    };
    const answer = await call('run', { task: 'go there' });
    expect(answer).toMatchObject({ ok: true, result: { reason: 'stopped', steps: 0 } });
    const runId = answer.ok ? (answer.result as { run_id: string }).run_id : '';
    expect(eventsOf('AgentApprovalResolvedEvent', runId)).toEqual([
      expect.objectContaining({ run_id: runId, approved: false }),
    ]);
  });
});
