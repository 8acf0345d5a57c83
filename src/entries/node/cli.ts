import { runFlowCli } from './flow-cli';
import { createInterface } from 'node:readline';
import { parseArgs } from 'node:util';
import packageJson from '../../../package.json' with { type: 'json' };
import { loadConfig } from '../../platform/node/config-file';
import { commandWord } from '../../platform/node/native/cli-options';
import { keepHeapNearLive } from '../../platform/node/heap-growth';
import { stderrSink } from '../../platform/node/stderr-sink';
import type { ServerMessage } from '../../protocol/commands';
import { errorCodeOf, errorMessageOf } from '../../shared/errors';
import { fieldOf, withFields } from '../../shared/narrow';
import { createLogger, logLevelOf } from '../../shared/logger';
import { redactingSink, secretsOf, type Secret } from '../../shared/redact';
import { commandSpec } from './cli-commands';
import { commandHelp } from './cli-help';
import { runCli } from './cli-main';
import { composeNodeSession } from './compose';
import { runExtensionCli } from './extension-cli';
import { runMcpCli } from './mcp-cli';
import { isNativeCommand, runNativeCli } from './native-cli';
import { RUN_USAGE, runAgentCli } from './run-cli';

/**
 * The full CLI (dist/node/cli.js): every command. The native host's launcher runs it as `cli.js host`;
 * bin/tabpilot.mjs runs the lean entry (tabpilot.ts), which answers what it can and loads this file for
 * the rest. Either way runCli routes first, so both answer a command line alike.
 */

/** launch's or connect's own help, on a mistake in its options. */
function usageOf(command: 'launch' | 'connect'): string {
  const spec = commandSpec(command);
  return spec === undefined ? '' : commandHelp(spec);
}

interface CliOptions {
  mode: 'launch' | 'connect';
  cdpUrl: string | undefined;
  config: string | undefined;
  headless: boolean | null;
  userDataDir: string | undefined;
  port: number | undefined;
}

function parseCli(argv: string[]): CliOptions | 'help' {
  const { values, positionals } = parseArgs({
    args: argv,
    allowPositionals: true,
    options: {
      'cdp-url': { type: 'string' },
      config: { type: 'string' },
      headless: { type: 'boolean' },
      headed: { type: 'boolean' },
      'user-data-dir': { type: 'string' },
      'remote-debugging-port': { type: 'string' },
      help: { type: 'boolean', short: 'h' },
    },
  });
  const mode = positionals[0];
  if (values.help === true) {
    return 'help';
  }
  if (mode !== 'launch' && mode !== 'connect') {
    throw new Error(`unknown command "${mode ?? ''}" (expected launch or connect)`);
  }
  if (mode === 'connect' && values['cdp-url'] === undefined) {
    throw new Error('connect needs --cdp-url URL (or --extension, through the native host)');
  }
  const portText = values['remote-debugging-port'];
  const port = portText === undefined ? undefined : Number(portText);
  if (port !== undefined && (!Number.isInteger(port) || port < 0 || port > 65535)) {
    throw new Error(`--remote-debugging-port must be a port number, got ${portText}`);
  }
  return {
    mode,
    cdpUrl: values['cdp-url'],
    config: values.config,
    headless: values.headless === true ? true : values.headed === true ? false : null,
    userDataDir: values['user-data-dir'],
    port,
  };
}

async function main(): Promise<number> {
  const routed = await runCli(process.argv.slice(2), { dir: import.meta.dirname, version: packageJson.version });
  if (routed !== 'full') {
    return routed;
  }
  // `help run` is `run --help`: the help of the commands whose text lives with their parser.
  const argv =
    commandWord(process.argv.slice(2)) === 'help'
      ? [helpTopic(process.argv.slice(2)), '--help']
      : process.argv.slice(2);
  const command = commandWord(argv);
  if (command === 'mcp') {
    return runMcpCli(argv.slice(argv.indexOf(command) + 1));
  }
  if (command === 'extension') {
    return runExtensionCli(argv.slice(argv.indexOf(command) + 1));
  }
  if (command === 'flow') {
    return runFlowCli(argv.slice(argv.indexOf(command) + 1));
  }
  if (command === 'run') {
    if (argv.includes('--help') || argv.includes('-h')) {
      process.stdout.write(`${RUN_USAGE}\n`);
      return 0;
    }
    return runAgentCli(argv);
  }
  if (isNativeCommand(argv)) {
    return runNativeCli(argv);
  }
  let options: CliOptions | 'help';
  try {
    options = parseCli(argv);
  } catch (error) {
    const usage = command === 'launch' || command === 'connect' ? `\n\n${usageOf(command)}` : '';
    process.stderr.write(`tabpilot: ${errorMessageOf(error)}${usage}\n`);
    return 2;
  }
  if (options === 'help') {
    process.stdout.write(`${command === 'connect' ? usageOf('connect') : usageOf('launch')}\n`);
    return 0;
  }
  const level = logLevelOf(process.env['TABPILOT_LOG_LEVEL'], 'info');
  // Secrets are known once the config is read; until then there are none to hide.
  let logSecrets: readonly Secret[] = [];
  const log = createLogger(
    redactingSink(stderrSink, () => logSecrets),
    { level, namespace: 'tabpilot' },
  );
  const cli = options;
  let config;
  try {
    config = loadConfig({
      path: cli.config,
      env: process.env,
      log,
      overrides: (raw) => {
        const launch: Record<string, unknown> = {};
        if (cli.headless !== null) {
          launch['headless'] = cli.headless;
        }
        if (cli.userDataDir !== undefined) {
          launch['user_data_dir'] = cli.userDataDir;
        }
        if (cli.port !== undefined) {
          launch['remote_debugging_port'] = cli.port;
        }
        return { ...raw, launch: withFields(raw['launch'], launch) };
      },
    });
  } catch (error) {
    process.stderr.write(`tabpilot: ${errorMessageOf(error)}\n`);
    return 2;
  }

  logSecrets = secretsOf(config.sensitive_data);
  const { session, server } = composeNodeSession({
    config,
    ...(cli.cdpUrl === undefined ? {} : { cdpUrl: cli.cdpUrl }),
    logger: log,
  });
  const write = (message: ServerMessage): void => {
    process.stdout.write(`${JSON.stringify(message)}\n`);
  };
  const client = server.connect({ id: String(process.pid), kind: 'cli' }, { send: write });

  const started = session.start().then(
    (result) => {
      log.info(`ready: ${cli.mode === 'launch' ? 'launched' : 'connected to'} ${result.cdp_url}`);
      return undefined;
    },
    (error: unknown) => error,
  );
  const inFlight = new Set<Promise<void>>();
  const lines = createInterface({ input: process.stdin, crlfDelay: Infinity });
  let startError: unknown;
  lines.on('line', (line) => {
    const task = (async () => {
      startError ??= await started;
      if (startError !== undefined) {
        // Every line still gets its answer: the error that stopped start-up.
        write({
          id: idOf(line),
          ok: false,
          error: { code: errorCodeOf(startError), message: errorMessageOf(startError) },
        });
        return;
      }
      await client.handleLine(line);
    })();
    inFlight.add(task);
    void task.finally(() => inFlight.delete(task));
  });

  let shuttingDown = false;
  const shutdown = async (why: string): Promise<void> => {
    if (shuttingDown) {
      return;
    }
    shuttingDown = true;
    log.info(`shutting down: ${why}`);
    await Promise.allSettled([...inFlight]);
    client.close();
    await session.stop().catch((error: unknown) => log.warn('stop failed', { error: errorMessageOf(error) }));
  };
  const exitCode = await new Promise<number>((resolve) => {
    lines.once('close', () => void shutdown('stdin closed').then(() => resolve(startError === undefined ? 0 : 1)));
    for (const signal of ['SIGINT', 'SIGTERM'] as const) {
      process.once(signal, () => void shutdown(signal).then(() => resolve(130)));
    }
    void started.then((error) => {
      if (error !== undefined) {
        log.error(`start failed: ${errorMessageOf(error)}`);
      }
    });
  });
  return exitCode;
}

function helpTopic(argv: readonly string[]): string {
  return commandWord(argv.slice(argv.indexOf('help') + 1)) ?? '';
}

function idOf(line: string): number | string | null {
  try {
    const id = fieldOf(JSON.parse(line), 'id');
    return typeof id === 'number' || typeof id === 'string' ? id : null;
  } catch {
    // Not JSON: the protocol answers such a line with id null.
    return null;
  }
}

keepHeapNearLive();
main().then(
  (code) => process.exit(code),
  (error: unknown) => {
    process.stderr.write(
      `tabpilot: fatal: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`,
    );
    process.exit(1);
  },
);
