import { accessSync, constants, mkdirSync, mkdtempSync, readFileSync, rmSync, existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { EXTENSION_ORIGIN } from '../../../protocol/native-messages';
import { installHost, launcherScript, regCommands, windowsRegistryEntries } from './installer';

const dirs: string[] = [];
afterEach(() => {
  for (const dir of dirs.splice(0)) {
    rmSync(dir, { recursive: true, force: true });
  }
});

function temp(): string {
  const dir = mkdtempSync(join(tmpdir(), 'tabpilot-install-'));
  dirs.push(dir);
  return dir;
}

const launcher = { nodePath: "/opt/node it's/bin/node", cliPath: '/srv/tabpilot/dist/node/cli.js' };

describe('install-host', () => {
  it('writes a manifest for our extension only and an executable launcher that pins Node', () => {
    const home = temp();
    const profile = join(home, 'profile');
    const report = installHost({
      browsers: 'installed',
      userDataDir: profile,
      uninstall: false,
      launcher,
      home,
      platform: 'linux',
    });
    const [written] = report.written;
    expect(written?.manifest).toBe(join(profile, 'NativeMessagingHosts', 'com.tabpilot.host.json'));
    const manifest = JSON.parse(readFileSync(written?.manifest ?? '', 'utf8')) as Record<string, unknown>;
    expect(manifest).toMatchObject({
      name: 'com.tabpilot.host',
      type: 'stdio',
      allowed_origins: [EXTENSION_ORIGIN],
      path: written?.launcher,
    });
    expect(() => accessSync(written?.launcher ?? '', constants.X_OK)).not.toThrow();
    expect(readFileSync(written?.launcher ?? '', 'utf8')).toContain(
      `exec '/opt/node it'\\''s/bin/node' '/srv/tabpilot/dist/node/cli.js' host "$@"`,
    );
    installHost({ browsers: 'installed', userDataDir: profile, uninstall: true, launcher, home, platform: 'linux' });
    expect(existsSync(written?.manifest ?? '')).toBe(false);
    expect(existsSync(written?.launcher ?? '')).toBe(false);
  });

  it('writes into each installed browser’s own folder and skips the ones that are not there', () => {
    const home = temp();
    mkdirSync(join(home, '.config', 'chromium'), { recursive: true });
    mkdirSync(join(home, '.config', 'BraveSoftware', 'Brave-Browser'), { recursive: true });
    const report = installHost({
      browsers: 'installed',
      userDataDir: undefined,
      uninstall: false,
      launcher,
      home,
      platform: 'linux',
    });
    expect(report.written.map((item) => item.browser).sort()).toEqual(['brave', 'chromium']);
    expect(report.written.find((item) => item.browser === 'brave')?.manifest).toBe(
      join(home, '.config', 'BraveSoftware', 'Brave-Browser', 'NativeMessagingHosts', 'com.tabpilot.host.json'),
    );
    expect(report.skipped.map((item) => item.browser)).toEqual(['chrome', 'edge', 'vivaldi', 'arc']);
    expect(() =>
      installHost({ browsers: ['edge'], userDataDir: undefined, uninstall: false, launcher, home, platform: 'linux' }),
    ).toThrow(/No browser to install for/);
  });

  it('uses the macOS folders, Arc included', () => {
    const home = temp();
    mkdirSync(join(home, 'Library', 'Application Support', 'Arc', 'User Data'), { recursive: true });
    const report = installHost({
      browsers: ['arc'],
      userDataDir: undefined,
      uninstall: false,
      launcher,
      home,
      platform: 'darwin',
    });
    expect(report.written[0]?.manifest).toBe(
      join(
        home,
        'Library',
        'Application Support',
        'Arc',
        'User Data',
        'NativeMessagingHosts',
        'com.tabpilot.host.json',
      ),
    );
  });

  it('pins a state folder in the launcher when asked', () => {
    expect(launcherScript({ ...launcher, stateDir: '/tmp/state dir' })).toContain(
      "TABPILOT_STATE_DIR='/tmp/state dir'\nexport TABPILOT_STATE_DIR",
    );
  });

  it('generates the Windows registry keys (untested on a real Windows): Brave and Vivaldi share Chrome’s', () => {
    const manifest = 'C:\\Users\\me\\AppData\\Local\\tabpilot\\com.tabpilot.host.json';
    const entries = windowsRegistryEntries(['chrome', 'chromium', 'edge', 'brave', 'vivaldi', 'arc'], manifest);
    expect(entries).toEqual([
      {
        browsers: ['chrome', 'brave', 'vivaldi'],
        key: 'HKCU\\Software\\Google\\Chrome\\NativeMessagingHosts\\com.tabpilot.host',
        value: manifest,
      },
      {
        browsers: ['chromium'],
        key: 'HKCU\\Software\\Chromium\\NativeMessagingHosts\\com.tabpilot.host',
        value: manifest,
      },
      {
        browsers: ['edge'],
        key: 'HKCU\\Software\\Microsoft\\Edge\\NativeMessagingHosts\\com.tabpilot.host',
        value: manifest,
      },
    ]);
    expect(regCommands(entries.slice(0, 1), false)).toEqual([
      [
        'reg',
        'add',
        'HKCU\\Software\\Google\\Chrome\\NativeMessagingHosts\\com.tabpilot.host',
        '/ve',
        '/t',
        'REG_SZ',
        '/d',
        manifest,
        '/f',
      ],
    ]);
    expect(regCommands(entries.slice(0, 1), true)).toEqual([
      ['reg', 'delete', 'HKCU\\Software\\Google\\Chrome\\NativeMessagingHosts\\com.tabpilot.host', '/f'],
    ]);
  });
});
