import { homedir } from 'node:os';
import { resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import packageJson from '../../../package.json' with { type: 'json' };
import { parseBrowserList } from '../../platform/node/native/browsers';
import { EXIT } from '../../platform/node/native/cli-action';
import { loadCatalog } from '../../platform/node/native/cli-catalog';
import { commandWord, takeCommonOptions } from '../../platform/node/native/cli-options';
import { runConnectExtension } from '../../platform/node/native/cli-connect-extension';
import { runRepl } from '../../platform/node/native/cli-repl';
import { formatDoctorReport, runDoctor } from '../../platform/node/native/doctor';
import { fileSink } from '../../platform/node/native/file-sink';
import { installHost } from '../../platform/node/native/installer';
import { runNativeHost } from '../../platform/node/native/native-host';
import { parentUserDataDir } from '../../platform/node/native/parent-profile';
import { ensurePrivateDir, stateDir, statePaths } from '../../platform/node/native/state-dir';
import { errorMessageOf } from '../../shared/errors';
import { systemErrorCode } from '../../shared/narrow';
import { createLogger, logLevelOf } from '../../shared/logger';

const NATIVE_COMMANDS = new Set(['host', 'install-host', 'doctor', 'repl']);

/** The bundled CLI file (dist/node/cli.js) the launcher runs, and the built extension beside it. */
const cliPath = fileURLToPath(import.meta.url);
const extensionDir = resolve(import.meta.dirname, '../extension');

/** Whether argv names a command of the native side (everything but launch, connect --cdp-url and help). */
export function isNativeCommand(argv: readonly string[]): boolean {
  const first = commandWord(argv);
  if (first === undefined || first === 'help' || first === 'launch') {
    return false;
  }
  if (first === 'connect') {
    return argv.includes('--extension');
  }
  return true;
}

export async function runNativeCli(argv: readonly string[]): Promise<number> {
  const command = commandWord(argv) ?? '';
  const args = argv.slice(argv.indexOf(command) + 1);
  try {
    if (command === 'host') {
      return await hostCommand(args);
    }
    if (command === 'install-host') {
      return installCommand(args);
    }
    if (command === 'doctor') {
      return await doctorCommand(args);
    }
    const { context } = takeCommonOptions(
      argv.filter((word) => word !== '--extension'),
      loadCatalog(import.meta.dirname),
    );
    if (command === 'connect') {
      return await runConnectExtension(context);
    }
    // An action is run by the lean entry (cli-main.ts) before this file loads; what is left is the REPL.
    return await runRepl(context);
  } catch (error) {
    process.stderr.write(`tabpilot: ${errorMessageOf(error)}\n`);
    // An option the command does not take (node:util's parseArgs says so) is bad usage, not a failure.
    const code = systemErrorCode(error);
    const parseError = typeof code === 'string' && code.startsWith('ERR_PARSE_ARGS');
    return NATIVE_COMMANDS.has(command) && !parseError ? EXIT.errorAnswer : EXIT.usage;
  }
}

/** `tabpilot host <origin>`: what Chrome starts. stdout carries frames only; logs go to the state folder. */
async function hostCommand(args: readonly string[]): Promise<number> {
  const paths = statePaths(stateDir());
  ensurePrivateDir(paths.root);
  const level = logLevelOf(process.env['TABPILOT_LOG_LEVEL'], 'info');
  const log = createLogger(fileSink(paths.log), { level, namespace: `host:${process.pid}` });
  // Nothing may reach stdout but frames: anything that writes to the console lands in the log instead.
  for (const method of ['log', 'info', 'warn', 'error', 'debug'] as const) {
    // eslint-disable-next-line no-console -- replacing the console is how nothing of it reaches stdout
    console[method] = (...items: unknown[]) => log.warn(`console.${method}`, { items: items.map(String) });
  }
  process.on('uncaughtException', (error) => {
    log.error('uncaught exception', { error: error.stack ?? error.message });
    process.exit(1);
  });
  const stop = new AbortController();
  for (const signal of ['SIGTERM', 'SIGINT', 'SIGHUP'] as const) {
    process.once(signal, () => stop.abort(signal));
  }
  return runNativeHost({
    origin: args.find((arg) => arg.startsWith('chrome-extension://')),
    input: process.stdin,
    output: process.stdout,
    paths,
    log,
    version: packageJson.version,
    pid: process.pid,
    userDataDir: parentUserDataDir(),
    publish: process.env['TABPILOT_HOST_PROBE'] !== '1',
    signal: stop.signal,
  });
}

function installCommand(args: readonly string[]): number {
  const { values } = parseArgs({
    args: [...args],
    options: {
      browser: { type: 'string' },
      'user-data-dir': { type: 'string' },
      'state-dir': { type: 'string' },
      uninstall: { type: 'boolean' },
    },
  });
  const report = installHost({
    browsers: parseBrowserList(values.browser),
    userDataDir: values['user-data-dir'] === undefined ? undefined : resolve(values['user-data-dir']),
    uninstall: values.uninstall === true,
    launcher: {
      nodePath: process.execPath,
      cliPath,
      ...(values['state-dir'] === undefined ? {} : { stateDir: resolve(values['state-dir']) }),
    },
    home: process.env['HOME'] ?? homedir(),
    ...(process.env['LOCALAPPDATA'] === undefined ? {} : { localAppData: process.env['LOCALAPPDATA'] }),
  });
  const lines = [
    ...report.written.map((item) => `installed for ${item.browser}: ${item.manifest} (launcher ${item.launcher})`),
    ...report.removed.map((path) => `removed ${path}`),
    ...report.skipped.map((skip) => `skipped ${skip.browser}: ${skip.reason}`),
    ...report.registry.map((command) => `ran ${command.join(' ')}`),
  ];
  if (!values.uninstall) {
    lines.push(
      `The launcher runs ${cliPath} with ${process.execPath}. Reload the extension (or restart the browser) to start the host.`,
    );
  }
  process.stdout.write(`${lines.join('\n')}\n`);
  return EXIT.ok;
}

async function doctorCommand(args: readonly string[]): Promise<number> {
  const { values } = parseArgs({
    args: [...args],
    options: { json: { type: 'boolean' }, browser: { type: 'string' }, 'user-data-dir': { type: 'string' } },
  });
  const report = await runDoctor({
    browsers: parseBrowserList(values.browser),
    userDataDir: values['user-data-dir'] === undefined ? undefined : resolve(values['user-data-dir']),
    stateDir: stateDir(),
    home: process.env['HOME'] ?? homedir(),
    extensionDir,
    mcp: { node: process.execPath, cli: cliPath },
  });
  process.stdout.write(`${values.json === true ? JSON.stringify(report, null, 2) : formatDoctorReport(report)}\n`);
  return report.ok ? EXIT.ok : EXIT.errorAnswer;
}
