import { existsSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import type { TabpilotConfig } from '../../agent/tabpilot-config';
import { loadConfig } from '../../platform/node/config-file';
import { nativeClientName, openNativeChannel } from '../../platform/node/mcp/native-channel';
import { stateDir } from '../../platform/node/native/state-dir';
import { ensurePrivateFolder } from '../../platform/node/private-folder';
import { redactingSink, secretsOf, type Secret } from '../../shared/redact';
import { OutputFolder } from '../../platform/node/mcp/output-files';
import { McpAdapter } from '../../platform/node/mcp/sdk-adapter';
import { stderrSink } from '../../platform/node/stderr-sink';
import { errorMessageOf } from '../../shared/errors';
import { fieldOf, isOneOf, withFields } from '../../shared/narrow';
import { createLogger, logLevelOf, type Logger } from '../../shared/logger';
import { ACTION_CATEGORIES, ACTIONS, declarationOf, type ActionCategory } from '../../protocol/actions';
import { createDefaultRegistry } from '../../tools/actions';
import { DEFAULT_ANSWER_CHARS } from '../../tools/mcp/answer-budget';
import type { BrowserMode } from '../../tools/mcp/error-advice';
import { actionsOnFocusedTab, buildToolCatalog, toolAnswers } from '../../tools/mcp/tool-catalog';
import { describeServerAction } from '../../tools/server-action';
import { AGENT_ACTIONS } from '../../agent/agent-actions';
import { BATCH_ACTION } from '../../tools/batch-action';
import { REPLAY_ACTION } from '../../tools/flows/replay-action';
import { RERUN_ACTION } from '../../agent/history-actions';
import { RUN_ACTION, runDeadlineMs } from '../../agent/run-action';
import { McpToolRunner } from '../../tools/mcp/tool-runner';
import { openNodeBrowser } from './mcp-browser';
import { packageRoot, transientInstallNote } from './extension-cli';
import {
  CLIENT_CONFIG_PLACE,
  isMcpClient,
  MCP_CLIENTS,
  mcpClientSnippet,
  type McpClient,
  type ServerCommand,
} from '../../platform/node/mcp/client-config';

export const MCP_USAGE = `  tabpilot mcp [--extension [--user-data-dir DIR] [--client NAME] | --launch [--headless | --headed]
               | --cdp-url URL] [--tools page,tabs,content,files,session] [--slim] [--config FILE]
               [--output-dir DIR] [--answer-chars N]
      An MCP server on stdio for coding agents. By default (--extension) it drives your own browser
      through the tabpilot extension and its native host, as the client mcp:<the agent's name> with
      tabs of its own (--client NAME: mcp:NAME instead, so two servers of one app are two clients);
      --launch runs a Chromium of its own, --cdp-url attaches to a running one (a browser pool
      included). --tools picks tool groups, --slim a minimal set.
  tabpilot mcp --print-config claude|cursor|vscode|codex [--extension | --launch | --cdp-url URL] [...]
      Print the snippet that client takes to start this server with these options (its place on stderr).`;

interface McpCliOptions {
  mode: BrowserMode;
  cdpUrl: string | undefined;
  userDataDir: string | undefined;
  /** The client name to use instead of the MCP client's own (`mcp:` is put in front). */
  client: string | undefined;
  headless: boolean | null;
  config: string | undefined;
  categories: Set<ActionCategory> | undefined;
  slim: boolean;
  outputDir: string;
  answerChars: number;
  /** Print this client's config snippet instead of serving. */
  printConfig: McpClient | undefined;
  /** The server options as given, which the printed config passes on. */
  serverArgs: string[];
}

export function parseMcpArgs(argv: string[]): McpCliOptions | 'help' {
  const { values, positionals } = parseArgs({
    args: argv,
    allowPositionals: true,
    options: {
      extension: { type: 'boolean' },
      'user-data-dir': { type: 'string' },
      client: { type: 'string' },
      launch: { type: 'boolean' },
      headless: { type: 'boolean' },
      headed: { type: 'boolean' },
      'cdp-url': { type: 'string' },
      tools: { type: 'string' },
      slim: { type: 'boolean' },
      config: { type: 'string' },
      'output-dir': { type: 'string' },
      'answer-chars': { type: 'string' },
      'print-config': { type: 'string' },
      help: { type: 'boolean', short: 'h' },
    },
  });
  if (values.help === true) {
    return 'help';
  }
  if (positionals.length > 0) {
    throw new Error(`mcp takes no positional arguments (got ${positionals.join(' ')})`);
  }
  const modes = [values.extension === true, values.launch === true, values['cdp-url'] !== undefined];
  if (modes.filter(Boolean).length > 1) {
    throw new Error('give one of --extension, --launch and --cdp-url');
  }
  if (values['user-data-dir'] !== undefined && (values.launch === true || values['cdp-url'] !== undefined)) {
    throw new Error('--user-data-dir picks the host of a browser profile: it goes with --extension');
  }
  if (values.client !== undefined && (values.launch === true || values['cdp-url'] !== undefined)) {
    throw new Error('--client names this server to the extension: it goes with --extension');
  }
  if (values.client !== undefined && values.client.trim() === '') {
    throw new Error('--client needs a name');
  }
  if ((values.headless === true || values.headed === true) && values.launch !== true) {
    throw new Error('--headless and --headed go with --launch');
  }
  const printConfig = values['print-config'];
  if (printConfig !== undefined && !isMcpClient(printConfig)) {
    throw new Error(`--print-config: unknown client "${printConfig}" (one of ${MCP_CLIENTS.join(', ')})`);
  }
  const categories = values.tools === undefined ? undefined : parseCategories(values.tools);
  const chars = values['answer-chars'] === undefined ? DEFAULT_ANSWER_CHARS : Number(values['answer-chars']);
  if (!Number.isInteger(chars) || chars < 1000) {
    throw new Error(`--answer-chars must be a whole number of at least 1000, got ${values['answer-chars']}`);
  }
  return {
    mode: values.launch === true ? 'launch' : values['cdp-url'] !== undefined ? 'connect' : 'extension',
    cdpUrl: values['cdp-url'],
    userDataDir: values['user-data-dir'] === undefined ? undefined : resolve(values['user-data-dir']),
    client: values.client,
    headless: values.headless === true ? true : values.headed === true ? false : null,
    config: values.config,
    categories,
    slim: values.slim === true,
    // One folder per user: on a shared /tmp, another account's would be refused (private-folder.ts).
    outputDir: resolve(values['output-dir'] ?? join(tmpdir(), `tabpilot-mcp-${process.getuid?.() ?? 'user'}`)),
    answerChars: chars,
    printConfig,
    serverArgs: serverArgs(argv),
  };
}

/** Options whose value is a path: the client starts the server in a folder of its own choosing. */
const PATH_OPTIONS = new Set(['--config', '--output-dir', '--user-data-dir']);

/** argv without --print-config and its value, paths made absolute: what the configured server is started with. */
function serverArgs(argv: readonly string[]): string[] {
  const args: string[] = [];
  for (let i = 0; i < argv.length; i++) {
    const word = argv[i] ?? '';
    const [name = '', inline] = word.startsWith('--') ? word.split(/=(.*)/s) : [word];
    if (name === '--print-config') {
      i += inline === undefined ? 1 : 0;
    } else if (PATH_OPTIONS.has(name)) {
      const value = inline ?? argv[++i] ?? '';
      args.push(name, resolve(value));
    } else {
      args.push(word);
    }
  }
  return args;
}

/**
 * The command a client runs: this Node by its absolute path and the package's bin script by its own.
 * Coding agents start servers with a bare PATH (an editor opened from the dock has no nvm or Homebrew in
 * it), where `tabpilot` and even `node` may not be found; both paths stay valid across updates of
 * tabpilot in the same place, as the native host's launcher does. After moving Node, print it again.
 */
export function installedServerCommand(args: readonly string[]): ServerCommand {
  return { command: process.execPath, args: [join(packageRoot(), 'bin', 'tabpilot.mjs'), 'mcp', ...args] };
}

function parseCategories(text: string): Set<ActionCategory> {
  const names = text.split(',').map((name) => name.trim());
  const categories = new Set<ActionCategory>();
  for (const name of names) {
    if (!isOneOf(ACTION_CATEGORIES, name)) {
      throw new Error(`--tools: unknown group "${name}" (the groups are ${ACTION_CATEGORIES.join(', ')})`);
    }
    categories.add(name);
  }
  return categories;
}

/** `tabpilot mcp`: the MCP server on stdio. Nothing but MCP goes to stdout; logs go to stderr. */
export async function runMcpCli(argv: string[]): Promise<number> {
  let options: McpCliOptions | 'help';
  try {
    options = parseMcpArgs(argv);
  } catch (error) {
    process.stderr.write(`tabpilot mcp: ${errorMessageOf(error)}\n\n${MCP_USAGE}\n`);
    return 2;
  }
  if (options === 'help') {
    // stdout is the MCP channel only when serving; help is for a person at a terminal.
    process.stdout.write(`${MCP_USAGE}\n`);
    return 0;
  }
  if (options.printConfig !== undefined) {
    process.stdout.write(`${mcpClientSnippet(options.printConfig, installedServerCommand(options.serverArgs))}\n`);
    process.stderr.write(`tabpilot mcp: ${CLIENT_CONFIG_PLACE[options.printConfig]}\n`);
    const note = transientInstallNote();
    if (note !== undefined) {
      process.stderr.write(`tabpilot mcp: ${note}\n`);
    }
    return 0;
  }
  const level = logLevelOf(process.env['TABPILOT_LOG_LEVEL'], 'info');
  // Secrets are known once the config is read (launch and connect modes); until then there are none to hide.
  let logSecrets: readonly Secret[] = [];
  const log = createLogger(
    redactingSink(stderrSink, () => logSecrets),
    { level, namespace: 'tabpilot-mcp' },
  );
  const cli = options;
  let config: TabpilotConfig;
  try {
    config = loadConfig({
      path: cli.config,
      env: process.env,
      log,
      overrides: (raw) => ({
        ...raw,
        // Screenshots and PDFs saved by name land beside the server's other files unless the config says.
        output_dir: raw['output_dir'] ?? cli.outputDir,
        launch: withFields(raw['launch'], cli.headless === null ? {} : { headless: cli.headless }),
      }),
    });
  } catch (error) {
    process.stderr.write(`tabpilot mcp: ${errorMessageOf(error)}\n`);
    return 2;
  }
  logSecrets = secretsOf(config.sensitive_data);
  try {
    ensurePrivateFolder(cli.outputDir, '--output-dir');
  } catch (error) {
    process.stderr.write(`tabpilot mcp: ${errorMessageOf(error)}\n`);
    return 2;
  }
  const files = new OutputFolder(cli.outputDir);
  const hidden = new Set<string>();
  if (cli.mode !== 'extension' && !config.allow_evaluate) {
    // Listed, it would only ever answer FORBIDDEN: the config turns it off for every client.
    hidden.add('evaluate');
  }
  // The built-in agent: in the server's own session once its config names a model; with the extension, in
  // the extension's worker with the model of its panel settings, listed when its build serves the actions
  // (the tool list follows the extension's describe).
  const served = cli.mode === 'extension' || config.agent.model !== null ? AGENT_ACTIONS.map(describeServerAction) : [];
  const offered = [
    ...createDefaultRegistry().describe(),
    describeServerAction(BATCH_ACTION),
    describeServerAction(REPLAY_ACTION),
    ...served,
  ];
  const tools = buildToolCatalog(offered, {
    ...(cli.categories === undefined ? {} : { categories: cli.categories }),
    slim: cli.slim,
    hidden,
  });
  let adapter: McpAdapter | undefined = undefined;
  const clientName = (): string => nativeClientName(adapter?.clientName());
  const runner = new McpToolRunner({
    tools,
    focusedTabActions: actionsOnFocusedTab(ACTIONS),
    answers: toolAnswers(offered),
    files,
    mode: cli.mode,
    answerChars: cli.answerChars,
    eventTimeoutMs: eventTimeouts(config),
    log: log.child('tools'),
    ...(cli.mode === 'extension' ? { onToolsChanged: () => adapter?.toolsChanged() } : {}),
    openChannel: () =>
      cli.mode === 'extension'
        ? openNativeChannel({
            clientName: cli.client ?? adapter?.clientName(),
            stateDir: stateDir(),
            userDataDir: cli.userDataDir,
            log: log.child('native'),
          })
        : openNodeBrowser({ config, cdpUrl: cli.cdpUrl, client: clientName(), log }),
  });
  adapter = new McpAdapter({
    version: packageVersion(),
    runner,
    files,
    log: log.child('sdk'),
    // The person's browser is reached at once: the tool list then matches its extension, and a client
    // that needs the person's approval asks for it before the agent's first call.
    ...(cli.mode === 'extension' ? { onInitialized: () => void runner.warmUp() } : {}),
  });
  await adapter.connect(new StdioServerTransport());
  log.info(`serving ${tools.length} tools over stdio (${describeMode(cli)}); files go to ${cli.outputDir}`);
  return waitForEnd(adapter, log);
}

/** Runs until the client closes stdin (its way of stopping a stdio server) or a signal comes. */
function waitForEnd(adapter: McpAdapter, log: Logger): Promise<number> {
  return new Promise<number>((resolveExit) => {
    let ending = false;
    const end = (why: string, code: number): void => {
      if (ending) {
        return;
      }
      ending = true;
      log.info(`shutting down: ${why}`);
      void adapter
        .close()
        .catch((error: unknown) => log.warn('shutdown failed', { error: errorMessageOf(error) }))
        .then(() => resolveExit(code));
    };
    process.stdin.once('end', () => end('stdin closed', 0));
    process.stdin.once('close', () => end('stdin closed', 0));
    process.once('SIGINT', () => end('SIGINT', 130));
    process.once('SIGTERM', () => end('SIGTERM', 143));
  });
}

/** Each action's own timeout: the config's for its event, else the event's. */
function eventTimeouts(config: TabpilotConfig): (action: string) => number {
  return (action) => {
    if (action === RUN_ACTION.name || action === RERUN_ACTION.name) {
      return runDeadlineMs(config.agent);
    }
    const event = declarationOf(action)?.event;
    return event === undefined ? 30_000 : (config.timeouts[event.type] ?? event.timeoutMs);
  };
}

function describeMode(cli: McpCliOptions): string {
  switch (cli.mode) {
    case 'launch':
      return 'a Chromium of its own, started at the first call';
    case 'connect':
      return 'the Chromium at --cdp-url, joined at the first call';
    case 'extension':
      return 'your browser through the tabpilot extension';
  }
}

/** The version in tabpilot's package.json, found upward from this file (bundled or not). */
function packageVersion(): string {
  let dir = import.meta.dirname;
  while (dir !== dirname(dir)) {
    const manifest = join(dir, 'package.json');
    if (existsSync(manifest)) {
      const parsed: unknown = JSON.parse(readFileSync(manifest, 'utf8'));
      const version = fieldOf(parsed, 'version');
      if (fieldOf(parsed, 'name') === 'tabpilot' && typeof version === 'string') {
        return version;
      }
    }
    dir = dirname(dir);
  }
  return '0.0.0';
}
