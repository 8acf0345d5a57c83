import { spawnSync } from 'node:child_process';
import { chmodSync, existsSync, mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { join, win32 } from 'node:path';
import { EXTENSION_ORIGIN, NATIVE_HOST_NAME } from '../../../protocol/native-messages';
import { TabpilotError } from '../../../shared/errors';
import { BROWSER_NAMES, BROWSERS, userDataDirOf, type BrowserName } from './browsers';

/**
 * `tabpilot install-host`: writes the host manifest where each browser reads it (Linux and macOS: the
 * `NativeMessagingHosts` folder of its user data, or of a custom `--user-data-dir`), with
 * `allowed_origins` only our extension and `path` a launcher script that pins the absolute path of the
 * Node that ran the installer (Chrome starts hosts with a bare PATH, and nvm or volta shims are not on
 * it). No sudo: everything is per user. On Windows the manifest goes to %LOCALAPPDATA%\tabpilot and a
 * registry key per browser points at it (generated and unit-tested; not tried on a real Windows).
 */

export const MANIFEST_FILE = `${NATIVE_HOST_NAME}.json`;
export const LAUNCHER_FILE = `${NATIVE_HOST_NAME}.sh`;

export interface HostManifest {
  name: string;
  description: string;
  path: string;
  type: 'stdio';
  allowed_origins: string[];
}

export interface LauncherSpec {
  /** The Node executable to pin (process.execPath of the installer). */
  nodePath: string;
  /** The bundled CLI (dist/node/cli.js). */
  cliPath: string;
  /** Pins TABPILOT_STATE_DIR in the launcher (a test profile, a second setup beside the usual one). */
  stateDir?: string;
}

export function hostManifest(launcherPath: string): HostManifest {
  return {
    name: NATIVE_HOST_NAME,
    description:
      'tabpilot native messaging host: lets local programs drive this browser through the tabpilot extension',
    path: launcherPath,
    type: 'stdio',
    allowed_origins: [EXTENSION_ORIGIN],
  };
}

/** POSIX single quotes: the one quoting with no special characters inside. */
function shellQuote(value: string): string {
  return `'${value.replaceAll("'", `'\\''`)}'`;
}

export function launcherScript(spec: LauncherSpec, writtenAt: Date = new Date()): string {
  return [
    '#!/bin/sh',
    `# The tabpilot native messaging host, written by \`tabpilot install-host\` on ${writtenAt.toISOString()}.`,
    '# Chrome starts it with the calling extension origin as $1. The Node path is pinned because Chrome',
    '# gives hosts a bare PATH. Run `tabpilot install-host` again after moving Node or tabpilot.',
    ...(spec.stateDir === undefined
      ? []
      : [`TABPILOT_STATE_DIR=${shellQuote(spec.stateDir)}`, 'export TABPILOT_STATE_DIR']),
    `exec ${shellQuote(spec.nodePath)} ${shellQuote(spec.cliPath)} host "$@"`,
    '',
  ].join('\n');
}

export function windowsLauncher(spec: LauncherSpec): string {
  return [
    '@echo off',
    'rem The tabpilot native messaging host, written by `tabpilot install-host` (untested on real Windows).',
    ...(spec.stateDir === undefined ? [] : [`set "TABPILOT_STATE_DIR=${spec.stateDir}"`]),
    `"${spec.nodePath}" "${spec.cliPath}" host %*`,
    '',
  ].join('\r\n');
}

export interface RegistryEntry {
  browsers: BrowserName[];
  key: string;
  /** The default value: the manifest's path. */
  value: string;
}

/** The HKCU keys that point each browser at the manifest (Brave and Vivaldi read Chrome's). */
export function windowsRegistryEntries(browsers: readonly BrowserName[], manifestPath: string): RegistryEntry[] {
  const byKey = new Map<string, RegistryEntry>();
  for (const browser of browsers) {
    const base = BROWSERS[browser].windowsKey;
    if (base === undefined) {
      continue;
    }
    const key = `HKCU\\${base}\\${NATIVE_HOST_NAME}`;
    const entry = byKey.get(key) ?? { browsers: [], key, value: manifestPath };
    entry.browsers.push(browser);
    byKey.set(key, entry);
  }
  return [...byKey.values()];
}

/** The reg.exe invocations that write (or, uninstalling, delete) the entries. */
export function regCommands(entries: readonly RegistryEntry[], uninstall: boolean): string[][] {
  return entries.map((entry) =>
    uninstall
      ? ['reg', 'delete', entry.key, '/f']
      : ['reg', 'add', entry.key, '/ve', '/t', 'REG_SZ', '/d', entry.value, '/f'],
  );
}

export interface InstallTarget {
  /** A browser's own folder, or `custom` for a --user-data-dir. */
  browser: BrowserName | 'custom';
  manifestDir: string;
}

export interface InstallOptions {
  browsers: BrowserName[] | 'installed';
  userDataDir: string | undefined;
  uninstall: boolean;
  launcher: LauncherSpec;
  home: string;
  platform?: string;
  /** %LOCALAPPDATA% on Windows. */
  localAppData?: string;
}

export interface InstallReport {
  written: Array<{ browser: string; manifest: string; launcher: string }>;
  removed: string[];
  skipped: Array<{ browser: string; reason: string }>;
  registry: string[][];
}

/** Where manifests go: the custom profile's folder, or each chosen browser's that is installed. */
export function installTargets(options: Pick<InstallOptions, 'browsers' | 'userDataDir' | 'home' | 'platform'>): {
  targets: InstallTarget[];
  skipped: InstallReport['skipped'];
} {
  if (options.userDataDir !== undefined) {
    return {
      targets: [{ browser: 'custom', manifestDir: join(options.userDataDir, 'NativeMessagingHosts') }],
      skipped: [],
    };
  }
  const wanted = options.browsers === 'installed' ? [...BROWSER_NAMES] : options.browsers;
  const targets: InstallTarget[] = [];
  const skipped: InstallReport['skipped'] = [];
  for (const browser of wanted) {
    const dataDir = userDataDirOf(browser, options.home, options.platform);
    if (dataDir === undefined) {
      skipped.push({ browser, reason: `${browser} has no per-user manifest folder on this platform` });
    } else if (!existsSync(dataDir)) {
      skipped.push({ browser, reason: `not installed here (no ${dataDir}); run the browser once, then install again` });
    } else {
      targets.push({ browser, manifestDir: join(dataDir, 'NativeMessagingHosts') });
    }
  }
  return { targets, skipped };
}

export function installHost(options: InstallOptions): InstallReport {
  const platform = options.platform ?? process.platform;
  if (platform === 'win32') {
    return installOnWindows(options);
  }
  const { targets, skipped } = installTargets(options);
  const report: InstallReport = { written: [], removed: [], skipped, registry: [] };
  if (targets.length === 0 && !options.uninstall) {
    throw new TabpilotError(
      'NOT_ATTACHED',
      `No browser to install for (${skipped.map((skip) => `${skip.browser}: ${skip.reason}`).join('; ')}). Name one with --browser or a profile with --user-data-dir.`,
    );
  }
  for (const target of targets) {
    const manifest = join(target.manifestDir, MANIFEST_FILE);
    const launcher = join(target.manifestDir, LAUNCHER_FILE);
    if (options.uninstall) {
      for (const path of [manifest, launcher]) {
        if (existsSync(path)) {
          rmSync(path, { force: true });
          report.removed.push(path);
        }
      }
      continue;
    }
    mkdirSync(target.manifestDir, { recursive: true });
    writeFileSync(launcher, launcherScript(options.launcher), { mode: 0o755 });
    chmodSync(launcher, 0o755);
    writeFileSync(manifest, `${JSON.stringify(hostManifest(launcher), null, 2)}\n`, { mode: 0o644 });
    report.written.push({ browser: target.browser, manifest, launcher });
  }
  return report;
}

function installOnWindows(options: InstallOptions): InstallReport {
  const base = win32.join(options.localAppData ?? win32.join(options.home, 'AppData', 'Local'), 'tabpilot');
  const manifest = win32.join(base, MANIFEST_FILE);
  const launcher = win32.join(base, `${NATIVE_HOST_NAME}.bat`);
  const browsers = options.browsers === 'installed' ? [...BROWSER_NAMES] : options.browsers;
  const registry = regCommands(windowsRegistryEntries(browsers, manifest), options.uninstall);
  const report: InstallReport = { written: [], removed: [], skipped: [], registry };
  if (options.uninstall) {
    rmSync(manifest, { force: true });
    rmSync(launcher, { force: true });
    report.removed.push(manifest, launcher);
  } else {
    mkdirSync(base, { recursive: true });
    writeFileSync(launcher, windowsLauncher(options.launcher));
    writeFileSync(manifest, `${JSON.stringify(hostManifest(launcher), null, 2)}\n`);
    report.written.push({ browser: browsers.join(','), manifest, launcher });
  }
  for (const [command, ...args] of registry) {
    const result = spawnSync(command ?? 'reg', args, { encoding: 'utf8' });
    if (result.status !== 0 && !options.uninstall) {
      throw new TabpilotError(
        'INTERNAL',
        `${[command, ...args].join(' ')} failed: ${result.stderr || result.error?.message}`,
      );
    }
  }
  return report;
}
