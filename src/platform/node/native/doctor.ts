import { accessSync, constants, existsSync, readFileSync } from 'node:fs';
import { isAbsolute, join } from 'node:path';
import { z } from 'zod';
import { EXTENSION_ORIGIN, NATIVE_HOST_NAME } from '../../../protocol/native-messages';
import { errorMessageOf } from '../../../shared/errors';
import { BROWSER_NAMES, executablesOf, userDataDirOf, type BrowserName } from './browsers';
import { listRecords, pickRecord } from './discovery';
import { checkMcpPath } from '../mcp/doctor-mcp';
import { HostClient } from './host-client';
import { probeHost } from './host-probe';
import { MANIFEST_FILE } from './installer';
import { extensionPresence } from './profile-extension';
import { statePaths } from './state-dir';
import { fieldOf } from '../../../shared/narrow';

/**
 * `tabpilot doctor`: checks each link of the chain, in order (browser, extension in the profile,
 * manifest, launcher, host start, socket, extension ping), and says for each failure what is wrong
 * and the command that fixes it. A link after a broken one is skipped, named as such.
 */

export type CheckStatus = 'ok' | 'fail' | 'skip';

export interface DoctorCheck {
  id: 'browser' | 'extension' | 'manifest' | 'launcher' | 'host_starts' | 'socket' | 'extension_ping' | 'mcp';
  /** The browser or profile the check is about; `host` for the running host. */
  target: string;
  status: CheckStatus;
  detail: string;
  fix?: string;
}

export interface DoctorReport {
  ok: boolean;
  state_dir: string;
  checks: DoctorCheck[];
}

export interface DoctorOptions {
  browsers: BrowserName[] | 'installed';
  userDataDir: string | undefined;
  stateDir: string;
  home: string;
  /** The folder to load unpacked (dist/extension), for the fix text. */
  extensionDir: string;
  platform?: string;
  env?: NodeJS.ProcessEnv;
  /** Checks `tabpilot mcp --extension` end to end once the extension answers (this Node and CLI). */
  mcp?: { node: string; cli: string };
}

const Manifest = z.object({
  name: z.literal(NATIVE_HOST_NAME),
  description: z.string().optional(),
  path: z.string().refine(isAbsolute, 'must be an absolute path'),
  type: z.literal('stdio'),
  allowed_origins: z
    .array(z.string())
    .refine((origins) => origins.includes(EXTENSION_ORIGIN), `must list ${EXTENSION_ORIGIN}`),
});

function executable(path: string): boolean {
  try {
    accessSync(path, constants.X_OK);
    return true;
  } catch {
    // Missing, or not executable by this user.
    return false;
  }
}

interface Target {
  name: string;
  browser: BrowserName | undefined;
  userDataDir: string;
}

function targetsOf(options: DoctorOptions): Target[] {
  if (options.userDataDir !== undefined) {
    return [{ name: options.userDataDir, browser: undefined, userDataDir: options.userDataDir }];
  }
  const names = options.browsers === 'installed' ? [...BROWSER_NAMES] : options.browsers;
  const targets: Target[] = [];
  for (const browser of names) {
    const dir = userDataDirOf(browser, options.home, options.platform);
    if (dir !== undefined && (options.browsers !== 'installed' || existsSync(dir))) {
      targets.push({ name: browser, browser, userDataDir: dir });
    }
  }
  return targets;
}

function installCommand(target: Target): string {
  return target.browser === undefined
    ? `tabpilot install-host --user-data-dir ${JSON.stringify(target.userDataDir)}`
    : `tabpilot install-host --browser ${target.browser}`;
}

export async function runDoctor(options: DoctorOptions): Promise<DoctorReport> {
  const checks: DoctorCheck[] = [];
  const targets = targetsOf(options);
  if (targets.length === 0) {
    checks.push({
      id: 'browser',
      target: 'any',
      status: 'fail',
      detail: 'No Chromium browser profile found for this user.',
      fix: 'Install and run Chrome or Chromium once, or name a profile with --user-data-dir DIR',
    });
  }
  for (const target of targets) {
    checks.push(...(await checkProfile(target, options)));
  }
  checks.push(...(await checkRunningHost(options)));
  if (options.mcp !== undefined) {
    checks.push(await checkMcp(options, options.mcp, checks.at(-1)?.status === 'ok'));
  }
  return { ok: checks.every((check) => check.status !== 'fail'), state_dir: options.stateDir, checks };
}

async function checkProfile(target: Target, options: DoctorOptions): Promise<DoctorCheck[]> {
  const out: DoctorCheck[] = [];
  const add = (check: Omit<DoctorCheck, 'target'>): boolean => {
    out.push({ ...check, target: target.name });
    return check.status === 'ok';
  };
  const candidates =
    target.browser === undefined
      ? BROWSER_NAMES.flatMap((browser) => executablesOf(browser, options.platform))
      : executablesOf(target.browser, options.platform);
  const found = candidates.find(executable);
  add(
    found === undefined
      ? {
          id: 'browser',
          status: 'fail',
          detail: `no ${target.browser ?? 'Chromium'} executable in the usual places (${candidates.join(', ') || 'none known here'})`,
          fix: 'Install the browser (Debian: apt-get install chromium), or check the --browser name',
        }
      : { id: 'browser', status: 'ok', detail: `${found}; profile ${target.userDataDir}` },
  );
  const presence = extensionPresence(target.userDataDir);
  const loadFix = `Open chrome://extensions, turn on Developer mode, Load unpacked and pick ${options.extensionDir} (npm start does this in its own profile)`;
  switch (presence.state) {
    case 'enabled':
      add({
        id: 'extension',
        status: 'ok',
        detail: `installed in ${presence.profile}${presence.path === null ? '' : ` from ${presence.path}`}`,
      });
      break;
    case 'disabled':
      add({
        id: 'extension',
        status: 'fail',
        detail: `installed in ${presence.profile} but turned off (${JSON.stringify(presence.reasons)})`,
        fix: 'Turn tabpilot on in chrome://extensions',
      });
      break;
    case 'missing':
      add({
        id: 'extension',
        status: 'fail',
        detail: `not installed in ${presence.profiles.join(', ')} of ${target.userDataDir}`,
        fix: loadFix,
      });
      break;
    case 'no_profile':
      add({
        id: 'extension',
        status: 'fail',
        detail: `${target.userDataDir} has no browser profile yet (the browser never ran with it)`,
        fix: `Start the browser with this profile and load the extension: ${loadFix}`,
      });
      break;
  }
  const manifestPath = join(target.userDataDir, 'NativeMessagingHosts', MANIFEST_FILE);
  let manifest: z.infer<typeof Manifest> | undefined;
  if (!existsSync(manifestPath)) {
    add({ id: 'manifest', status: 'fail', detail: `no host manifest at ${manifestPath}`, fix: installCommand(target) });
  } else {
    try {
      manifest = Manifest.parse(JSON.parse(readFileSync(manifestPath, 'utf8')));
      add({ id: 'manifest', status: 'ok', detail: `${manifestPath} names ${manifest.path}` });
    } catch (error) {
      add({
        id: 'manifest',
        status: 'fail',
        detail: `${manifestPath} is not a valid host manifest: ${errorMessageOf(error)}`,
        fix: installCommand(target),
      });
    }
  }
  if (manifest === undefined) {
    add({ id: 'launcher', status: 'skip', detail: 'needs a valid manifest' });
    add({ id: 'host_starts', status: 'skip', detail: 'needs a valid manifest' });
    return out;
  }
  const launcherOk = checkLauncher(manifest.path, target, add);
  if (!launcherOk) {
    add({ id: 'host_starts', status: 'skip', detail: 'needs a working launcher' });
    return out;
  }
  const probe = await probeHost(manifest.path, options.env);
  add(
    probe.ok
      ? {
          id: 'host_starts',
          status: 'ok',
          detail: `it said hello (version ${probe.version}) and exited cleanly on EOF`,
        }
      : {
          id: 'host_starts',
          status: 'fail',
          detail: `${manifest.path}: ${probe.reason}${probe.stderr === '' ? '' : `; stderr: ${probe.stderr.trim().slice(-500)}`}`,
          fix: `${installCommand(target)} (then see the host log in the state folder)`,
        },
  );
  return out;
}

function checkLauncher(path: string, target: Target, add: (check: Omit<DoctorCheck, 'target'>) => boolean): boolean {
  if (!existsSync(path)) {
    return add({
      id: 'launcher',
      status: 'fail',
      detail: `the manifest's path ${path} does not exist`,
      fix: installCommand(target),
    });
  }
  if (!executable(path)) {
    return add({
      id: 'launcher',
      status: 'fail',
      detail: `${path} is not executable`,
      fix: `chmod +x ${JSON.stringify(path)}, or ${installCommand(target)}`,
    });
  }
  const pinned = /^exec '((?:[^']|'\\'')+)' '((?:[^']|'\\'')+)' host/m.exec(readFileSync(path, 'utf8'));
  if (pinned !== null) {
    const node = (pinned[1] ?? '').replaceAll(`'\\''`, "'");
    const cli = (pinned[2] ?? '').replaceAll(`'\\''`, "'");
    if (!executable(node)) {
      return add({
        id: 'launcher',
        status: 'fail',
        detail: `${path} pins Node at ${node}, which is gone`,
        fix: installCommand(target),
      });
    }
    if (!existsSync(cli)) {
      return add({
        id: 'launcher',
        status: 'fail',
        detail: `${path} runs ${cli}, which is gone (tabpilot moved or is not built)`,
        fix: `npm run build, then ${installCommand(target)}`,
      });
    }
    return add({ id: 'launcher', status: 'ok', detail: `${path} runs ${cli} with ${node}` });
  }
  return add({ id: 'launcher', status: 'ok', detail: `${path} is executable (not a launcher tabpilot wrote)` });
}

async function checkRunningHost(options: DoctorOptions): Promise<DoctorCheck[]> {
  const paths = statePaths(options.stateDir);
  const listing = listRecords(paths.run);
  const found = pickRecord(listing, options.userDataDir);
  if (found === undefined) {
    return [
      {
        id: 'socket',
        target: 'host',
        status: 'fail',
        detail: `no running host in ${paths.run}${listing.stale.length > 0 ? ` (${listing.stale.length} stale record(s): ${listing.stale.map((stale) => stale.reason).join('; ')})` : ''}${options.userDataDir === undefined ? '' : ` for the profile ${options.userDataDir}`}`,
        fix: 'Open the browser with the extension (it starts the host); check that Settings > native_clients.enabled is on in the side panel',
      },
      { id: 'extension_ping', target: 'host', status: 'skip', detail: 'needs a running host' },
    ];
  }
  let client: HostClient;
  try {
    client = await HostClient.connect({
      client: 'tabpilot:doctor',
      stateDir: options.stateDir,
      ...(options.userDataDir === undefined ? {} : { userDataDir: options.userDataDir }),
    });
  } catch (error) {
    return [
      {
        id: 'socket',
        target: 'host',
        status: 'fail',
        detail: `host ${found.record.pid} at ${found.record.socket}: ${errorMessageOf(error)}`,
        fix: 'Reload the extension in chrome://extensions (it starts a new host)',
      },
      { id: 'extension_ping', target: 'host', status: 'skip', detail: 'needs the socket' },
    ];
  }
  const out: DoctorCheck[] = [
    {
      id: 'socket',
      target: 'host',
      status: 'ok',
      detail: `host ${found.record.pid} answers at ${found.record.socket}`,
    },
  ];
  try {
    const extension = fieldOf(await client.ping(), 'extension');
    out.push({
      id: 'extension_ping',
      target: 'host',
      status: 'ok',
      detail: `the extension ${textOf(fieldOf(extension, 'version'))} answered (${textOf(fieldOf(extension, 'browser'))})`,
    });
  } catch (error) {
    out.push({
      id: 'extension_ping',
      target: 'host',
      status: 'fail',
      detail: errorMessageOf(error),
      // A held program's ping is answered only once the person allows it: nothing to reload then.
      fix:
        client.approval === undefined || client.approval === 'approved'
          ? 'Reload the extension in chrome://extensions'
          : 'Allow tabpilot:doctor in the tabpilot side panel (Clients), or turn native_clients.approve_new_clients off',
    });
  } finally {
    client.close();
  }
  return out;
}

async function checkMcp(
  options: DoctorOptions,
  command: { node: string; cli: string },
  extensionAnswers: boolean,
): Promise<DoctorCheck> {
  if (!extensionAnswers) {
    return { id: 'mcp', target: 'host', status: 'skip', detail: 'needs the extension to answer' };
  }
  const result = await checkMcpPath({ ...command, stateDir: options.stateDir, userDataDir: options.userDataDir });
  return {
    id: 'mcp',
    target: 'host',
    status: result.ok ? 'ok' : 'fail',
    detail: result.detail,
    ...(result.fix === undefined ? {} : { fix: result.fix }),
  };
}

export function formatDoctorReport(report: DoctorReport): string {
  const lines = [`tabpilot doctor (state folder ${report.state_dir})`];
  let target: string | undefined;
  for (const check of report.checks) {
    if (check.target !== target) {
      target = check.target;
      lines.push(`  ${target}`);
    }
    lines.push(
      `    ${check.status === 'ok' ? 'ok  ' : check.status === 'fail' ? 'FAIL' : 'skip'} ${check.id.padEnd(15)} ${check.detail}`,
    );
    if (check.fix !== undefined && check.status === 'fail') {
      lines.push(`         fix: ${check.fix}`);
    }
  }
  lines.push(report.ok ? 'Every link works.' : 'Some links are broken: run the fix shown under each FAIL.');
  return lines.join('\n');
}

function textOf(value: unknown): string {
  return typeof value === 'string' ? value : '';
}
