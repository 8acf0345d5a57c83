import { createInterface } from 'node:readline';
import { parseArgs } from 'node:util';
import { loadConfig } from '../../platform/node/config-file';
import { stderrSink } from '../../platform/node/stderr-sink';
import type { ServerMessage } from '../../protocol/commands';
import { errorCodeOf, errorMessageOf } from '../../shared/errors';
import { createLogger, type LogLevel } from '../../shared/logger';
import { redactingSink, secretsOf, type Secret } from '../../shared/redact';
import { composeNodeSession } from './compose';
import { runExtensionCli } from './extension-cli';
import { MCP_USAGE, runMcpCli } from './mcp-cli';
import { isNativeCommand, NATIVE_USAGE, runNativeCli } from './native-cli';
import { RUN_USAGE, runAgentCli } from './run-cli';

const USAGE = `tabpilot: drive Chromium through tabpilot's command protocol (one JSON request per line on stdin,
one JSON response per line on stdout; logs on stderr).

  tabpilot launch [--headless | --headed] [--user-data-dir DIR] [--remote-debugging-port N] [--config FILE]
      Launch a local Chromium (headless when there is no display) and serve commands for it.
  tabpilot connect --cdp-url URL [--config FILE]
      Attach to a running Chromium: a ws:// URL, or http://host:port (resolved through /json/version),
      or a browser pool's endpoint with its token (e.g. 'ws://pool:3000/?token=...'): one browser each.

${RUN_USAGE}

Example:  echo '{"id":1,"action":"navigate","params":{"url":"https://example.com"}}' | tabpilot launch
Send {"id":1,"action":"describe"} for every action and its parameters. Set TABPILOT_LOG_LEVEL=debug for more.

${NATIVE_USAGE}

${MCP_USAGE}`;

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
  if (values.help === true || mode === undefined || mode === 'help') {
    return 'help';
  }
  if (mode !== 'launch' && mode !== 'connect') {
    throw new Error(`unknown command "${mode}" (expected launch or connect)`);
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
  // Before the native commands: every other word is an action through the extension.
  if (process.argv[2] === 'mcp') {
    return runMcpCli(process.argv.slice(3));
  }
  if (process.argv[2] === 'extension') return runExtensionCli(process.argv.slice(3));
  if (process.argv[2] === 'run') {
    return runAgentCli(process.argv.slice(2));
  }
  if (isNativeCommand(process.argv.slice(2))) {
    return runNativeCli(process.argv.slice(2));
  }
  let options: CliOptions | 'help';
  try {
    options = parseCli(process.argv.slice(2));
  } catch (error) {
    process.stderr.write(`tabpilot: ${errorMessageOf(error)}\n\n${USAGE}\n`);
    return 2;
  }
  if (options === 'help') {
    process.stdout.write(`${USAGE}\n`);
    return 0;
  }
  const level = (process.env['TABPILOT_LOG_LEVEL'] ?? 'info') as LogLevel;
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
        const launch = { ...(raw['launch'] as Record<string, unknown> | undefined) };
        if (cli.headless !== null) {
          launch['headless'] = cli.headless;
        }
        if (cli.userDataDir !== undefined) {
          launch['user_data_dir'] = cli.userDataDir;
        }
        if (cli.port !== undefined) {
          launch['remote_debugging_port'] = cli.port;
        }
        return { ...raw, launch };
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

function idOf(line: string): number | string | null {
  try {
    const parsed = JSON.parse(line) as { id?: unknown };
    return typeof parsed.id === 'number' || typeof parsed.id === 'string' ? parsed.id : null;
  } catch {
    // Not JSON: the protocol answers such a line with id null.
    return null;
  }
}

main().then(
  (code) => process.exit(code),
  (error: unknown) => {
    process.stderr.write(
      `tabpilot: fatal: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`,
    );
    process.exit(1);
  },
);
