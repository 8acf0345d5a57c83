import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AGENT_SECRET, addAgentPages } from './harness/agent-pages';
import { TEST_FLAGS } from './harness/browser';
import { FakeModelServer, indexOf } from './harness/fake-model-server';
import { FixtureServer } from './harness/fixture-server';

/** `tabpilot run` as a person types it: a launched headless Chromium, the scripted model, the exit code. */
const BIN = resolve(import.meta.dirname, '../../bin/tabpilot.mjs');
const pages = new FixtureServer();
const model = new FakeModelServer(() => ({ kind: 'hang' }));
let dir: string;

function runCli(
  args: string[],
  env: Record<string, string> = {},
): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((done) => {
    const child = spawn(process.execPath, [BIN, ...args], {
      stdio: ['ignore', 'pipe', 'pipe'],
      env: { ...process.env, ...env },
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    child.once('exit', (code) => done({ code, stdout, stderr }));
  });
}

beforeAll(async () => {
  await Promise.all([pages.start(), model.start()]);
  addAgentPages(pages);
  dir = mkdtempSync(join(tmpdir(), 'tabpilot-run-'));
  writeFileSync(
    join(dir, 'config.json'),
    JSON.stringify({
      sensitive_data: { localhost: { password: AGENT_SECRET } },
      launch: { args: TEST_FLAGS },
      agent: { max_retries: 0, max_failures: 1 },
    }),
  );
});

afterAll(async () => {
  await Promise.all([pages.stop(), model.stop()]);
  rmSync(dir, { recursive: true, force: true });
});

describe('tabpilot run', () => {
  it('does the task, prints the steps on stderr and the answer on stdout, exits 0', async () => {
    model.useScript((request) => {
      const text = request.user;
      if (text.includes('URL: about:blank') || text.includes('chrome://')) {
        return { kind: 'tools', calls: [{ name: 'navigate', input: { url: pages.url('/agent/form') } }] };
      }
      if (text.includes(`URL: ${pages.url('/agent/form')}`)) {
        return {
          kind: 'tools',
          calls: [
            { name: 'input', input: { index: indexOf(text, 'Your name'), text: 'Grace' } },
            { name: 'click', input: { index: indexOf(text, 'Create account') } },
          ],
        };
      }
      const thanks = /Thanks, [^!]*!/.exec(text)?.[0] ?? 'nothing';
      return { kind: 'tools', calls: [{ name: 'done', input: { text: thanks, success: thanks !== 'nothing' } }] };
    });
    const { code, stdout, stderr } = await runCli(
      [
        'run',
        'Sign up as Grace',
        '--launch',
        '--headless',
        '--base-url',
        model.baseUrl,
        '--model',
        'fake',
        '--config',
        join(dir, 'config.json'),
      ],
      { OPENAI_API_KEY: 'env-key' },
    );
    expect(stderr).toMatch(/step 1 \(about:blank\)[^\n]*\n {2}navigate \{"url":"[^"]*\/agent\/form"\} -> ok/);
    expect(stderr).toMatch(
      /step 2 [^\n]*\n {2}input \{"index":\d+,"text":"Grace"\} -> ok\n {2}click \{"index":\d+\} -> ok/,
    );
    expect(model.scriptErrors).toEqual([]);
    expect(stdout).toBe('Thanks, Grace!\n');
    expect(code).toBe(0);
    expect(model.requests[0]?.headers['authorization']).toBe('Bearer env-key');
  });

  it('a model that fails ends the run with its reason on stdout and exit 1', async () => {
    model.useScript(() => ({ kind: 'status', status: 500 }));
    const { code, stdout, stderr } = await runCli([
      'run',
      'anything',
      '--launch',
      '--base-url',
      model.baseUrl,
      '--model',
      'fake',
      '--provider',
      'anthropic',
      '--api-key',
      'flag-key',
      '--config',
      join(dir, 'config.json'),
    ]);
    expect(stdout).toMatch(/^Stopped after 1 failed steps in a row: model request failed after 1 attempt: HTTP 500/);
    expect(stderr).toContain('step failed: model request failed after 1 attempt: HTTP 500');
    expect(code).toBe(1);
    expect(model.requests[0]?.headers['x-api-key']).toBe('flag-key');
  });

  it('with approval on, a risky action is refused when stdin is no terminal, and approved with --yes', async () => {
    writeFileSync(
      join(dir, 'approval.json'),
      JSON.stringify({
        launch: { args: TEST_FLAGS },
        agent: { max_retries: 0, approval: true, risky: ['new_domain'] },
      }),
    );
    model.useScript((request) => {
      if (request.user.includes('refused by the person')) {
        return { kind: 'tools', calls: [{ name: 'done', input: { text: 'it was refused', success: false } }] };
      }
      if (request.user.includes(`URL: ${pages.url('/agent/form')}`)) {
        return { kind: 'tools', calls: [{ name: 'done', input: { text: 'arrived', success: true } }] };
      }
      return { kind: 'tools', calls: [{ name: 'navigate', input: { url: pages.url('/agent/form') } }] };
    });
    const args = ['run', 'open the form', '--launch', '--base-url', model.baseUrl, '--model', 'fake'];
    const refused = await runCli([...args, '--config', join(dir, 'approval.json')]);
    expect(refused.stderr).toContain('approval needed (new_domain): navigating to localhost');
    expect(refused.stderr).toContain('refused: stdin is not a terminal to ask on (--yes approves every action)');
    expect(refused.stderr).toMatch(/navigate \{"url":"[^"]*\/agent\/form"\} -> FORBIDDEN: refused by the person/);
    expect(refused.stdout).toBe('it was refused\n');
    expect(refused.code).toBe(1);
    const approved = await runCli([...args, '--config', join(dir, 'approval.json'), '--yes']);
    expect(approved.stderr).toContain('approved (--yes)');
    expect(approved.stdout).toBe('arrived\n');
    expect(approved.code).toBe(0);
  });

  it('--max-steps overrides the config for the run', async () => {
    model.useScript(() => ({ kind: 'tools', calls: [{ name: 'navigate', input: { url: pages.url('/agent/form') } }] }));
    const { code, stderr } = await runCli([
      'run',
      'wander',
      '--launch',
      '--base-url',
      model.baseUrl,
      '--model',
      'fake',
      '--config',
      join(dir, 'config.json'),
      '--max-steps',
      '1',
    ]);
    expect(stderr).toMatch(/run \w+ finished: max_steps after 1 steps/);
    expect(model.requests).toHaveLength(1);
    expect(code).toBe(1);
  });

  it('refuses a run without a model or a browser, saying what is missing', async () => {
    const noModel = await runCli(['run', 'anything', '--launch']);
    expect(noModel.code).toBe(2);
    expect(noModel.stderr).toContain('run needs --model NAME');
    const noBrowser = await runCli(['run', 'anything', '--model', 'm']);
    expect(noBrowser.code).toBe(2);
    expect(noBrowser.stderr).toContain('run needs exactly one of --launch, --cdp-url URL or --extension');
    const badProvider = await runCli(['run', 'anything', '--launch', '--model', 'm', '--provider', 'gemini']);
    expect(badProvider.code).toBe(2);
    expect(badProvider.stderr).toMatch(/config field agent\.provider/);
  });
});
