import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { pollUntil } from '../../src/shared/time';
import { TEST_FLAGS } from './harness/browser';
import { CliProcess } from './harness/cli-process';
import { FixtureServer } from './harness/fixture-server';
import { addHarPages } from './harness/har-pages';
import { validateHar } from './harness/har-validator';

/**
 * The artifact fields as a CLI user meets them: a HAR configured at start is written while the session
 * runs, so SIGKILL (no stop, no flush) still leaves a complete HAR 1.2 file; a path outside the output
 * folder stops the start naming the field. Node only: the extension has no CLI (its own checks run in
 * the HAR contract).
 */
describe('tabpilot launch with artifact paths', () => {
  const server = new FixtureServer();
  addHarPages(server);
  const output = mkdtempSync(join(tmpdir(), 'tabpilot-cli-artifacts-'));

  const configFile = (name: string, config: Record<string, unknown>): string => {
    const path = join(output, name);
    writeFileSync(
      path,
      JSON.stringify({ output_dir: output, launch: { headless: true, args: TEST_FLAGS }, ...config }),
    );
    return path;
  };

  beforeAll(async () => server.start());
  afterAll(async () => {
    await server.stop();
    rmSync(output, { recursive: true, force: true });
  });

  it('leaves a complete HAR when killed with SIGKILL mid-session', async () => {
    const cli = new CliProcess(['launch', '--config', configFile('har.json', { record_har_path: 'killed.har' })]);
    const navigated = await cli.request(1, 'navigate', { url: server.url('/har/index.html') });
    expect(navigated).toMatchObject({ ok: true });
    const file = join(output, 'killed.har');
    await pollUntil(
      () => {
        const text = readFileSync(file, 'utf8');
        // The HAR is rewritten in place while it records: a read that meets a write under way sees part of
        // both (a loaded run read the old end and the new bytes after it). That is the writer busy, not the
        // file broken: the file read after the kill below is held to the HAR schema whole.
        let har: { log: { entries: Array<{ request: { url: string } }> } };
        try {
          har = JSON.parse(text) as typeof har;
        } catch (error) {
          if (error instanceof SyntaxError) {
            return undefined;
          }
          throw error;
        }
        return har.log.entries.some((entry) => entry.request.url.endsWith('/har/submit')) ? true : undefined;
      },
      { timeoutMs: 15_000, intervalMs: 100, onTimeout: () => new Error('the HAR never held the page requests') },
    );
    const exited = new Promise<NodeJS.Signals | null>((done) =>
      cli.child.once('exit', (_code, signal) => done(signal)),
    );
    cli.child.kill('SIGKILL');
    expect(await exited).toBe('SIGKILL');
    const har = JSON.parse(readFileSync(file, 'utf8')) as { log: { entries: unknown[]; pages: unknown[] } };
    expect(validateHar(har)).toEqual([]);
    expect(har.log.entries.length).toBeGreaterThanOrEqual(6);
    expect(har.log.pages.length).toBeGreaterThanOrEqual(1);
  });

  it('refuses to start with a HAR path outside the output folder, naming the field', async () => {
    const cli = new CliProcess([
      'launch',
      '--config',
      configFile('bad.json', { record_har_path: '/etc/tabpilot.har' }),
    ]);
    const answer = await cli.request(1, 'tabs');
    expect(answer).toMatchObject({ ok: false, error: { code: 'INVALID_PARAMS' } });
    expect(answer.ok ? '' : answer.error.message).toMatch(
      /^record_har_path: \/etc\/tabpilot\.har is outside the output folder/,
    );
    expect(await cli.end()).toBe(1);
  });
});
