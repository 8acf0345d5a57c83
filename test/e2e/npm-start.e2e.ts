import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';

const START = resolve(import.meta.dirname, '../../dist/node/start.js');

/**
 * `npm start` as a person runs it, without a display: the host registered in the dedicated profile,
 * Chromium launched headless with the extension, the demo page opened, and a REPL that drives it
 * through native messaging. Its commands come on stdin; end of input quits and closes Chromium.
 */
describe('npm start', () => {
  const root = mkdtempSync(join(tmpdir(), 'tabpilot-start-'));
  afterAll(() => rmSync(root, { recursive: true, force: true, maxRetries: 5, retryDelay: 100 }));

  it('drives the demo page from its REPL through the native host, headless, saying so', async () => {
    const env: NodeJS.ProcessEnv = {
      ...process.env,
      TABPILOT_PROFILE: join(root, 'profile'),
      TABPILOT_STATE_DIR: join(root, 'state'),
      TABPILOT_DEVTOOLS_PORT: '0',
    };
    delete env['DISPLAY'];
    delete env['WAYLAND_DISPLAY'];
    const child = spawn(process.execPath, [START], { env, stdio: ['pipe', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    child.stdin.end('state\ninput --index 1 --text Ada\nclick --index 2\nstate\ntabs\n');
    const code = await new Promise<number | null>((done) => child.once('exit', done));
    expect(code, stderr).toBe(0);
    expect(stderr).toContain('runs headless');
    expect(stderr).toContain('through native messaging');
    expect(stdout).toContain('[1]<input id=name');
    expect(stdout).toContain('Hello, Ada!');
    expect(stdout).toMatch(/\*\s+\w+\s+tabpilot\s+greeted/);
  });
});
