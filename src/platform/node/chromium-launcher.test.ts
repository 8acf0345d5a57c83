import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { chromiumArgs, findChromium, shouldRunHeadless } from './chromium-launcher';

describe('findChromium', () => {
  it('prefers TABPILOT_CHROME, then CHROME_PATH', () => {
    const dir = mkdtempSync(join(tmpdir(), 'tp-'));
    const fake = join(dir, 'chrome');
    writeFileSync(fake, '#!/bin/sh\n', { mode: 0o755 });
    expect(findChromium({ TABPILOT_CHROME: fake, CHROME_PATH: '/nope' }, 'linux')).toBe(fake);
    expect(findChromium({ CHROME_PATH: fake }, 'linux')).toBe(fake);
  });

  it('names the variable when it points nowhere', () => {
    expect(() => findChromium({ TABPILOT_CHROME: '/no/such/chrome' }, 'linux')).toThrow(
      /TABPILOT_CHROME=\/no\/such\/chrome is not an executable/,
    );
  });

  it('says what to install when there is no browser at all', () => {
    expect(() => findChromium({}, 'plan9')).toThrow(/No Chrome or Chromium found.*TABPILOT_CHROME/);
  });
});

describe('launch flags', () => {
  it('runs headless without a display, headed with one, and as asked otherwise', () => {
    expect(shouldRunHeadless(null, {}, 'linux')).toBe(true);
    expect(shouldRunHeadless(null, { DISPLAY: ':0' }, 'linux')).toBe(false);
    expect(shouldRunHeadless(false, {}, 'linux')).toBe(false);
    expect(shouldRunHeadless(null, {}, 'darwin')).toBe(false);
  });

  it('passes the profile, the port, the quiet-start flags and the caller args', () => {
    const args = chromiumArgs({
      headless: true,
      executablePath: null,
      userDataDir: '/tmp/p',
      remoteDebuggingPort: 0,
      args: ['--foo'],
    });
    expect(args).toEqual(
      expect.arrayContaining([
        '--user-data-dir=/tmp/p',
        '--remote-debugging-port=0',
        '--headless=new',
        '--disable-background-networking',
        '--no-first-run',
        '--foo',
      ]),
    );
    expect(args.at(-1)).toBe('about:blank');
  });

  it('without a port asked for, passes the DevTools pipe and no --remote-debugging-port at all', () => {
    const args = chromiumArgs({
      headless: true,
      executablePath: null,
      userDataDir: '/tmp/p',
      remoteDebuggingPort: null,
      args: [],
    });
    expect(args).toContain('--remote-debugging-pipe');
    expect(args.filter((arg) => arg.startsWith('--remote-debugging-port'))).toEqual([]);
  });
});
