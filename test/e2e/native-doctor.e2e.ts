import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DoctorCheck, DoctorReport } from '../../src/platform/node/native/doctor';
import { ChromiumLauncher } from '../../src/platform/node/chromium-launcher';
import { pollUntil } from '../../src/shared/time';
import { BrowserClient, TEST_FLAGS } from './harness/browser';
import { NativeChain, runCli } from './harness/native';

/**
 * `tabpilot doctor` on a working chain and on broken ones, each break made for real: a profile with
 * no manifest, a manifest whose path is wrong, a launcher pinning a Node that is gone, and a profile
 * Chromium ran without the extension. Each names the broken link and the command that fixes it.
 */

async function doctor(userDataDir: string, stateDir: string): Promise<{ code: number | null; report: DoctorReport }> {
  const run = await runCli(['doctor', '--json', '--user-data-dir', userDataDir], { stateDir });
  return { code: run.code, report: JSON.parse(run.stdout) as DoctorReport };
}

function check(report: DoctorReport, id: DoctorCheck['id']): DoctorCheck {
  const found = report.checks.find((candidate) => candidate.id === id);
  if (found === undefined) {
    throw new Error(`no ${id} check in ${JSON.stringify(report)}`);
  }
  return found;
}

describe('tabpilot doctor', () => {
  let chain: NativeChain;
  const temporary: string[] = [];
  const temp = (): string => {
    const dir = mkdtempSync(join(tmpdir(), 'tabpilot-doctor-'));
    temporary.push(dir);
    return dir;
  };

  beforeAll(async () => {
    chain = await NativeChain.start();
    await chain.host();
  });

  afterAll(async () => {
    await chain?.close();
    for (const dir of temporary) {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('finds every link working on a working chain', async () => {
    // Chrome writes the profile's Preferences (where the extension is listed) a few seconds after start.
    const { code, report } = await pollUntil(
      async () => {
        const result = await doctor(chain.userDataDir, chain.stateDir);
        return check(result.report, 'extension').status === 'ok' ? result : undefined;
      },
      { timeoutMs: 40_000, intervalMs: 1000, onTimeout: () => new Error('the profile never listed the extension') },
    );
    expect(report.checks.map((item) => [item.id, item.status])).toEqual([
      ['browser', 'ok'],
      ['extension', 'ok'],
      ['manifest', 'ok'],
      ['launcher', 'ok'],
      ['host_starts', 'ok'],
      ['socket', 'ok'],
      ['extension_ping', 'ok'],
      ['mcp', 'ok'],
    ]);
    expect(check(report, 'mcp').detail).toMatch(/lists \d+ tools and its tabs call reached the extension/);
    expect(code).toBe(0);
    const human = await runCli(['doctor', '--user-data-dir', chain.userDataDir], { stateDir: chain.stateDir });
    expect(human.stdout).toContain('Every link works.');
  });

  it('names a missing manifest and the install-host command that writes it', async () => {
    const profile = temp();
    const { code, report } = await doctor(profile, temp());
    expect(code).toBe(1);
    expect(check(report, 'manifest')).toMatchObject({ status: 'fail' });
    expect(check(report, 'manifest').fix).toContain(`tabpilot install-host --user-data-dir "${profile}"`);
    expect(check(report, 'launcher').status).toBe('skip');
    expect(check(report, 'socket').status).toBe('fail');
  });

  it('names a manifest whose path is wrong, and a launcher pinning a Node that is gone', async () => {
    const profile = temp();
    const state = temp();
    expect((await runCli(['install-host', '--user-data-dir', profile], { stateDir: state })).code).toBe(0);
    const manifestPath = join(profile, 'NativeMessagingHosts', 'com.tabpilot.host.json');
    const manifest = JSON.parse(readFileSync(manifestPath, 'utf8')) as { path: string };
    const launcherPath = manifest.path;
    writeFileSync(manifestPath, JSON.stringify({ ...manifest, path: join(profile, 'nowhere', 'host.sh') }));
    const wrongPath = await doctor(profile, state);
    expect(check(wrongPath.report, 'manifest').status).toBe('ok');
    expect(check(wrongPath.report, 'launcher')).toMatchObject({ status: 'fail' });
    expect(check(wrongPath.report, 'launcher').detail).toContain('does not exist');
    expect(check(wrongPath.report, 'host_starts').status).toBe('skip');

    writeFileSync(manifestPath, JSON.stringify(manifest));
    writeFileSync(
      launcherPath,
      readFileSync(launcherPath, 'utf8').replace(/^exec '[^']+'/m, "exec '/nonexistent/bin/node'"),
    );
    const goneNode = await doctor(profile, state);
    expect(check(goneNode.report, 'launcher').detail).toContain('/nonexistent/bin/node');
    expect(check(goneNode.report, 'launcher').fix).toContain('tabpilot install-host');

    writeFileSync(
      manifestPath,
      JSON.stringify({ ...manifest, allowed_origins: ['chrome-extension://aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa/'] }),
    );
    const otherOrigin = await doctor(profile, state);
    expect(check(otherOrigin.report, 'manifest')).toMatchObject({ status: 'fail' });
    expect(check(otherOrigin.report, 'manifest').detail).toContain('dakiagajobemlckhchkemohalbompofb');
  });

  it('names the extension missing from a profile Chromium ran without it', async () => {
    const profile = temp();
    const browser = await new ChromiumLauncher().launch({
      headless: true,
      executablePath: null,
      userDataDir: profile,
      remoteDebuggingPort: 0,
      args: [...TEST_FLAGS],
    });
    // A profile is only on disk once Chrome wrote its Preferences, which a clean exit does. Close it as
    // its own Quit does and wait for it to be gone: a SIGTERM could land while a loaded machine still
    // started the profile, or the exit outlast the kill's grace and end in SIGKILL, and write nothing.
    const client = await BrowserClient.connect(browser.cdpUrl);
    // The browser may go before it answers: its exit is what is waited for.
    const closing = client.root.send('Browser.close').then(
      () => 'answered',
      (error: unknown) => `gone before answering (${String(error)})`,
    );
    await browser.exited;
    await closing;
    client.close();
    await browser.kill();
    const { report } = await doctor(profile, temp());
    expect(check(report, 'extension')).toMatchObject({ status: 'fail' });
    expect(check(report, 'extension').detail).toContain('not installed');
    expect(check(report, 'extension').fix).toContain('Load unpacked');
  });
});
