import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { HostClient } from '../../src/platform/node/native/host-client';
import { pollUntil } from '../../src/shared/time';
import { AGENT_SECRET, addAgentPages, fillSignUpForm } from './harness/agent-pages';
import { FakeModelServer, type ModelRequestView, type ScriptedReply } from './harness/fake-model-server';
import { FixtureServer } from './harness/fixture-server';
import { BIN, NativeChain, runCli, type CliRun } from './harness/native';
import { PanelPage } from './harness/panel';

/**
 * `tabpilot run "TASK" --extension` as a person types it: the built CLI, spawned with the test's own
 * state folder, reaches the real extension in Chromium through the real native host, and the agent in
 * the extension's worker does the task with the model and key of its saved settings (the scripted model
 * here). One browser for the file.
 */
const API_KEY = 'sk-e2e-run-extension-4d1b';
const pages = new FixtureServer();
const model = new FakeModelServer(() => ({ kind: 'hang' }));
let chain: NativeChain;

/** Saves agent settings (and a secret) as the panel's Save does, and the key as its key field does. */
async function saveSettings(agent: Record<string, unknown>): Promise<void> {
  const outcome = await chain.inWorker<{ ok: boolean; error?: { message: string } }>(`(async () => {
    const { settings, hub, agentKeys } = globalThis.tabpilot;
    await agentKeys.set('openai', ${JSON.stringify(API_KEY)});
    const config = settings.config;
    const outcome = await settings.save({
      ...config,
      sensitive_data: { '*': { password: ${JSON.stringify(AGENT_SECRET)} } },
      agent: { ...config.agent, ...${JSON.stringify(agent)} },
    });
    if (outcome.ok) hub.broadcast({ type: 'settings', config: { ...outcome.config } });
    return outcome;
  })()`);
  expect(outcome.ok, outcome.error?.message).toBe(true);
}

/** The sign-up task: open the form, type a name and the secret by placeholder, send it, report the thanks. */
function signUp(request: ModelRequestView): ScriptedReply {
  const text = request.user;
  if (text.includes(`URL: ${pages.url('/agent/form')}`)) {
    return fillSignUpForm(text, 'Grace');
  }
  const thanks = /Thanks, [^!]*!/.exec(text)?.[0];
  if (thanks !== undefined) {
    return { kind: 'tools', calls: [{ name: 'done', input: { text: `Signed up: ${thanks}`, success: true } }] };
  }
  return {
    kind: 'tools',
    text: 'The form is one page away.',
    calls: [{ name: 'navigate', input: { url: pages.url('/agent/form') } }],
  };
}

function run(args: readonly string[], env?: NodeJS.ProcessEnv): Promise<CliRun> {
  return runCli(['run', ...args], { stateDir: chain.stateDir, ...(env === undefined ? {} : { env }) });
}

beforeAll(async () => {
  addAgentPages(pages);
  await Promise.all([pages.start(), model.start()]);
  model.cors = true;
  chain = await NativeChain.start();
  await chain.host();
  await saveSettings({
    provider: 'openai',
    base_url: model.baseUrl,
    model: 'fake-model',
    max_retries: 0,
    max_failures: 1,
    // The guards are on by default in the person's profile; these runs are not about them.
    approval: false,
  });
});

afterAll(async () => {
  await chain?.close();
  await Promise.all([pages.stop(), model.stop()]);
});

describe('tabpilot run --extension', () => {
  it('does a three-step task in the browser with the panel settings: steps on stderr, the done text on stdout, exit 0', async () => {
    model.useScript(signUp);
    const result = await run(['Sign up as Grace', '--extension']);
    expect(model.scriptErrors).toEqual([]);
    expect(result.stdout).toBe('Signed up: Thanks, Grace!\n');
    expect(result.code, result.stderr).toBe(0);
    expect(result.stderr).toMatch(
      /^run \w+: Sign up as Grace \(model fake-model by openai, from the extension's settings\)$/m,
    );
    expect(result.stderr).toMatch(
      /step 1 \(no tab\): The form is one page away\.\n {2}navigate \{"url":"[^"]*\/agent\/form"\} -> ok/,
    );
    expect(result.stderr).toMatch(
      /step 2 \([^)]*\/agent\/form\): Filling in the form\.\n {2}input \{"index":\d+,"text":"Grace"\} -> ok\n {2}input \{"index":\d+,"text":"<secret>password<\/secret>"\} -> ok\n {2}click \{"index":\d+\} -> ok/,
    );
    expect(result.stderr).toMatch(/step 3 \([^)]*\/agent\/thanks[^)]*\)\n {2}done /);
    expect(result.stderr).toMatch(/run \w+ finished: done after 3 steps/);
    // The model and key are the panel's: the request went to its base URL with its key.
    expect(model.requests).toHaveLength(3);
    expect(model.requests[0]?.headers['authorization']).toBe(`Bearer ${API_KEY}`);
    // The thanks page's URL and text hold the secret: the extension redacts what it sends, so the CLI never sees it.
    expect(result.stderr).toContain('/agent/thanks?name=Grace&password=<secret>password</secret>)');
    expect(result.stderr + result.stdout).not.toContain(AGENT_SECRET);
    expect(result.stderr + result.stdout).not.toContain(API_KEY);
  });

  it('a run that fails ends with its reason on stdout and exit 1', async () => {
    model.useScript(() => ({ kind: 'status', status: 500 }));
    const result = await run(['anything', '--extension']);
    expect(result.stderr).toContain('step failed: model request failed after 1 attempt: HTTP 500');
    expect(result.stdout).toMatch(
      /^Stopped after 1 failed steps in a row: model request failed after 1 attempt: HTTP 500/,
    );
    expect(result.stderr).toMatch(/run \w+ finished: max_failures after 1 steps/);
    expect(result.code).toBe(1);
  });

  it('--max-steps ends the run in the extension after that many steps (exit 1)', async () => {
    model.useScript((_request, index) => ({
      kind: 'tools',
      calls: [{ name: 'navigate', input: { url: pages.url(index % 2 === 1 ? '/agent/start' : '/agent/form') } }],
    }));
    const result = await run(['wander', '--extension', '--max-steps', '2']);
    expect(result.stderr).toMatch(/step 2 \(/);
    expect(result.stderr).not.toMatch(/step 3 \(/);
    expect(result.stderr).toMatch(/run \w+ finished: max_steps after 2 steps/);
    expect(model.requests).toHaveLength(2);
    expect(result.code).toBe(1);
  });

  it('a run the extension refuses (no model in its settings) exits 1, saying where to set one', async () => {
    await saveSettings({ model: null });
    try {
      const result = await run(['anything', '--extension']);
      expect(result.stderr).toContain(
        'tabpilot: the run did not go to the end: INVALID_PARAMS: agent.model: set the model the agent uses in the settings (in the side panel: Settings > Agent)',
      );
      expect(result.stdout).toBe('');
      expect(result.code).toBe(1);
    } finally {
      await saveSettings({ model: 'fake-model' });
    }
  });

  it('refuses the model flags (the extension uses its panel settings) and says when no host is there (exit 3)', async () => {
    const flags = await run(['anything', '--extension', '--model', 'gpt-x', '--api-key', 'sk-flag']);
    expect(flags.code).toBe(2);
    expect(flags.stderr).toContain(
      "--model, --api-key cannot go with --extension: the extension's agent uses the model, key and agent settings of its side panel (Settings > Agent)",
    );
    const empty = mkdtempSync(join(tmpdir(), 'tabpilot-run-nohost-'));
    try {
      const none = await runCli(['run', 'anything', '--extension'], { stateDir: empty });
      expect(none.code).toBe(3);
      expect(none.stderr).toContain('No tabpilot host is running');
      expect(none.stderr).toContain('tabpilot doctor');
      expect(none.stdout).toBe('');
    } finally {
      rmSync(empty, { recursive: true, force: true });
    }
  });

  describe('with agent.approval on', () => {
    let approver: HostClient;
    const cross = (): string => pages.crossUrl('/agent/start');
    const toOtherSite = (request: ModelRequestView): ScriptedReply =>
      request.user.includes(`URL: ${cross()}`)
        ? { kind: 'tools', calls: [{ name: 'done', input: { text: 'on the other site', success: true } }] }
        : request.user.includes('refused by the person')
          ? { kind: 'tools', calls: [{ name: 'done', input: { text: 'it was refused', success: false } }] }
          : { kind: 'tools', calls: [{ name: 'navigate', input: { url: cross() } }] };

    beforeAll(async () => {
      // A refused action fails its step: with room for one more, the model hears of it and ends the run.
      await saveSettings({ approval: true, risky: ['new_domain'], max_failures: 2 });
      approver = await chain.connect('tabpilot:approver');
    });

    afterAll(async () => {
      approver?.close();
      await saveSettings({ approval: false, max_failures: 1 });
    });

    it('--yes answers each approval the extension announces', async () => {
      const back = await chain.cli(['navigate', '--url', pages.url('/agent/start')]);
      expect(back.code, back.stderr).toBe(0);
      model.useScript(toOtherSite);
      const result = await run(['open the other site', '--extension', '--yes']);
      expect(result.stderr).toMatch(
        /approval needed \(new_domain\): [^\n]*127\.0\.0\.1[^\n]*\n {2}navigate \{"url":"[^"]*"\}\n {2}approved \(--yes\)/,
      );
      expect(result.stderr).toMatch(/approval \w+: approved/);
      expect(result.stdout).toBe('on the other site\n');
      expect(result.code, result.stderr).toBe(0);
    });

    it('on a terminal it asks y/N and answers the extension with approve', async () => {
      const back = await chain.cli(['navigate', '--url', pages.url('/agent/start')]);
      expect(back.code, back.stderr).toBe(0);
      model.useScript(toOtherSite);
      const terminal = onTerminal(['run', 'open the other site', '--extension']);
      await terminal.shows('approve? [y/N]');
      expect(terminal.output()).toMatch(/approval needed \(new_domain\): [^\n]*127\.0\.0\.1/);
      terminal.type('y\r');
      const code = await terminal.exited;
      expect(terminal.output()).toMatch(/approval \w+: approved/);
      expect(terminal.output()).toContain('on the other site');
      expect(code, terminal.output()).toBe(0);
    });

    it('Ctrl-C at the question stops the run in the browser', async () => {
      const back = await chain.cli(['navigate', '--url', pages.url('/agent/start')]);
      expect(back.code, back.stderr).toBe(0);
      model.useScript(toOtherSite);
      const terminal = onTerminal(['run', 'open the other site', '--extension']);
      await terminal.shows('approve? [y/N]');
      // On a terminal the question reads the key itself, as ETX, not as a signal to the process.
      terminal.type('\x03');
      const code = await terminal.exited;
      expect(terminal.output()).toContain('tabpilot: stopping the run');
      expect(terminal.output()).toMatch(/approval \w+: refused/);
      expect(terminal.output()).toMatch(/run \w+ finished: stopped after \d+ steps/);
      expect(code, terminal.output()).toBe(1);
    });

    it('without a terminal it waits for the approval in the side panel, and shows the answer given there', async () => {
      const back = await chain.cli(['navigate', '--url', pages.url('/agent/start')]);
      expect(back.code, back.stderr).toBe(0);
      model.useScript(toOtherSite);
      // The person answers in the side panel: issue 24 lets only the person, or the client whose run asked,
      // answer (another native client, as this test used before, is refused FORBIDDEN).
      const panel = await PanelPage.open(chain.client);
      let approvalId: string;
      const running = run(['open the other site', '--extension']);
      try {
        await panel.view('task');
        await panel.waitFor(`document.querySelector('#run-view .approval')`, 'the approval in the panel', 30_000);
        approvalId = await panel.eval<string>(`document.querySelector('#run-view .approval').dataset.approvalId`);
        expect(await approver.request('approve', { approval_id: approvalId, approved: true })).toMatchObject({
          ok: false,
          error: { code: 'FORBIDDEN' },
        });
        await panel.click('#run-view .approval .refuse');
      } finally {
        await chain.client.root.send('Target.closeTarget', { targetId: panel.targetId });
      }
      const result = await running;
      expect(result.stderr).toContain(
        'waiting for the approval in the side panel (stdin is not a terminal to ask on; --yes approves every action)',
      );
      expect(result.stderr).toContain(`approval ${approvalId}: refused`);
      expect(result.stderr).toMatch(/navigate \{"url":"[^"]*"\} -> FORBIDDEN: refused by the person/);
      expect(result.stdout).toBe('it was refused\n');
      expect(result.code).toBe(1);
    });
  });

  it('shows a pause made elsewhere; Ctrl-C stops the run in the browser and still prints how it ended', async () => {
    // The first step goes to the start page; the second one's model request never answers.
    model.useScript((_request, index) =>
      index === 1
        ? { kind: 'tools', calls: [{ name: 'navigate', input: { url: pages.url('/agent/start') } }] }
        : { kind: 'hang' },
    );
    const child = spawn(process.execPath, [BIN, 'run', 'go on forever', '--extension'], {
      env: { ...process.env, TABPILOT_STATE_DIR: chain.stateDir },
      stdio: ['pipe', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    child.stdin.end();
    const exited = new Promise<number | null>((resolve) => child.once('exit', resolve));
    // Step 1 printed and the second model request waiting: the run is mid-way.
    await pollUntil(() => (stderr.includes('step 1 (') && model.requests.length >= 2 ? true : undefined), {
      timeoutMs: 30_000,
      intervalMs: 50,
      onTimeout: () => new Error(`the run did not reach its second step:\n${stderr}`),
    });
    // Another program may not steer the CLI's run (issue 24: only the person or the run's own client).
    const steer = await chain.connect('tabpilot:steer');
    try {
      expect(await steer.request('pause_run', { run_id: null })).toMatchObject({
        ok: false,
        error: { code: 'FORBIDDEN' },
      });
    } finally {
      steer.close();
    }
    // The person pauses and resumes the run from the panel's connection (its buttons send these): the CLI shows it.
    const personSteers = (action: string): Promise<{ ok: boolean; result?: { paused?: boolean } }> =>
      chain.inWorker(`globalThis.tabpilot.server
        .connect({ id: 'person-steer', kind: 'panel' }, { send: () => undefined })
        .handle({ id: 1, action: ${JSON.stringify(action)}, params: { run_id: null } })`);
    expect(await personSteers('pause_run')).toMatchObject({ ok: true, result: { paused: true } });
    await pollUntil(() => (stderr.includes('run paused (resume it in the side panel)') ? true : undefined), {
      timeoutMs: 20_000,
      intervalMs: 50,
      onTimeout: () => new Error(`no pause shown:\n${stderr}`),
    });
    expect(await personSteers('resume_run')).toMatchObject({ ok: true, result: { paused: false } });
    await pollUntil(() => (stderr.includes('run resumed') ? true : undefined), {
      timeoutMs: 20_000,
      intervalMs: 50,
      onTimeout: () => new Error(`no resume shown:\n${stderr}`),
    });
    child.kill('SIGINT');
    const code = await exited;
    expect(stderr).toContain('tabpilot: stopping the run');
    expect(stderr).toMatch(/run \w+ finished: stopped after 1 steps/);
    expect(stdout).toBe('Stopped by the user\n');
    expect(code).toBe(1);
    // The run ended in the extension, and was kept as stopped.
    const runs = await keptRuns();
    expect(runs[0]).toMatchObject({ task: 'go on forever', reason: 'stopped' });
  });

  it('a connection that breaks mid-run exits 3, naming the run', async () => {
    model.useScript(() => ({ kind: 'hang' }));
    const host = await chain.host();
    const child = spawn(process.execPath, [BIN, 'run', 'wait for the host to go', '--extension'], {
      env: { ...process.env, TABPILOT_STATE_DIR: chain.stateDir },
      stdio: ['pipe', 'pipe', 'pipe'],
    });
    let stderr = '';
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    child.stdin.end();
    const exited = new Promise<number | null>((resolve) => child.once('exit', resolve));
    await pollUntil(() => (model.requests.length >= 1 && /^run \w+: /m.test(stderr) ? true : undefined), {
      timeoutMs: 30_000,
      intervalMs: 50,
      onTimeout: () => new Error(`the run did not start:\n${stderr}`),
    });
    process.kill(host.record.pid, 'SIGKILL');
    expect(await exited).toBe(3);
    expect(stderr).toMatch(/tabpilot: the connection to the browser broke during run \w+: /);
  });
});

/**
 * The CLI on a pseudo-terminal: util-linux `script` gives it one tty for stdin, stdout and stderr, and
 * passes what the test writes on as typed keys; -e gives back the CLI's exit code.
 */
function onTerminal(args: readonly string[]): {
  output: () => string;
  shows: (text: string) => Promise<void>;
  type: (keys: string) => void;
  exited: Promise<number | null>;
} {
  const command = [process.execPath, BIN, ...args].map((word) => `'${word.replaceAll("'", "'\\''")}'`).join(' ');
  const child = spawn('script', ['-qefc', command, '/dev/null'], {
    env: { ...process.env, TABPILOT_STATE_DIR: chain.stateDir },
    stdio: ['pipe', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
  return {
    output: () => output,
    shows: async (text) => {
      await pollUntil(() => (output.includes(text) ? true : undefined), {
        timeoutMs: 30_000,
        intervalMs: 50,
        onTimeout: () => new Error(`the terminal never showed ${JSON.stringify(text)}:\n${output}`),
      });
    },
    type: (keys) => void child.stdin.write(keys),
    exited: new Promise((resolve) => child.once('exit', resolve)),
  };
}

/** The runs the extension kept, newest first (through a native client of the test's own). */
async function keptRuns(): Promise<Array<{ task: string; reason: string }>> {
  // Under the CLI's own name: a client lists only its own runs (issue 24), and the CLI's runs are `tabpilot`'s.
  const client = await chain.connect('tabpilot');
  try {
    const response = await client.request('runs', {});
    if (!response.ok) {
      throw new Error(`${response.error.code}: ${response.error.message}`);
    }
    return (response.result as { runs: Array<{ task: string; reason: string }> }).runs;
  } finally {
    client.close();
  }
}
