import { parseArgs } from 'node:util';
import { Agent } from '../../agent/agent';
import { modelFromConfig } from '../../agent/model-from-config';
import { approvalGate, approvalInForce } from '../../agent/approval-gate';
import { serverPageLook } from '../../agent/page-look';
import { serverHost } from '../../agent/server-host';
import { stepLines } from '../../agent/step-lines';
import type { TabpilotConfig } from '../../agent/tabpilot-config';
import { loadConfig } from '../../platform/node/config-file';
import { stateDir } from '../../platform/node/native/state-dir';
import { stderrSink } from '../../platform/node/stderr-sink';
import { ClientName } from '../../protocol/native-messages';
import { errorMessageOf } from '../../shared/errors';
import { withFields } from '../../shared/narrow';
import { shortId } from '../../shared/ids';
import { createLogger, logLevelOf } from '../../shared/logger';
import { zodMessage } from '../../shared/zod-issues';
import { redactingSink, secretsOf, type Secret } from '../../shared/redact';
import { browserMayBeThePersons, composeNodeSession } from './compose';
import { runThroughExtension } from './run-extension';
import { ttyApproval } from './tty-approval';

export const RUN_USAGE = `  tabpilot run "TASK" (--launch [--headless | --headed] | --cdp-url URL) --model NAME [--base-url URL]
               [--provider openai|anthropic] [--api-key KEY] [--config FILE] [--max-steps N] [--yes]
      Let a model do TASK in the browser, step by step: the steps on stderr, the final answer on stdout,
      exit 0 when the task succeeded. openai is any OpenAI-compatible chat-completions server (OpenAI,
      OpenRouter, Ollama, LM Studio, vLLM, Groq, DeepSeek); the key also comes from OPENAI_API_KEY or
      ANTHROPIC_API_KEY. The config file's "agent" object sets the rest (max_steps, tool_calling, ...);
      --max-steps N overrides its max_steps for this run.
      With agent.approval on (by default with --cdp-url or a launch.user_data_dir, not on a launch's
      temporary profile), a risky action (agent.risky) is asked about on the terminal (y/N);
      without a terminal it is refused, unless --yes approves every one.
  tabpilot run "TASK" --extension [--client NAME] [--user-data-dir DIR] [--max-steps N] [--yes]
      The same in your own browser: the tabpilot extension's agent does TASK, through the native host,
      with the model, key and agent settings of its side panel (Settings > Agent), so --model, --base-url,
      --provider, --api-key and --config are refused. A risky action is asked about on the terminal, or
      waits for its approval in the side panel when there is no terminal (--yes approves every one).
      Ctrl-C stops the run in the browser. Exit 0 the task succeeded, 1 it did not, 2 bad usage,
      3 no host or the connection broke.`;

interface RunOptions {
  task: string;
  cdpUrl: string | undefined;
  headless: boolean | null;
  config: string | undefined;
  model: string | undefined;
  baseUrl: string | undefined;
  provider: string | undefined;
  apiKey: string | undefined;
  /** Steps before the run gives up; undefined: the config's agent.max_steps. */
  maxSteps: number | undefined;
  yes: boolean;
}

/** What `tabpilot run` was asked: an agent in this process (a launched or attached browser), or the extension's. */
export type ParsedRun =
  | ({ mode: 'node' } & RunOptions)
  | {
      mode: 'extension';
      task: string;
      client: ClientName;
      userDataDir: string | undefined;
      maxSteps: number | undefined;
      yes: boolean;
    };

/** Flags that set the model or the config: the extension's run takes its panel's settings instead. */
const MODEL_FLAGS = ['model', 'base-url', 'provider', 'api-key', 'config'] as const;

export function parseRun(argv: string[], env: Record<string, string | undefined> = {}): ParsedRun {
  const { values, positionals } = parseArgs({
    args: argv,
    allowPositionals: true,
    options: {
      launch: { type: 'boolean' },
      'cdp-url': { type: 'string' },
      extension: { type: 'boolean' },
      headless: { type: 'boolean' },
      headed: { type: 'boolean' },
      config: { type: 'string' },
      model: { type: 'string' },
      'base-url': { type: 'string' },
      provider: { type: 'string' },
      'api-key': { type: 'string' },
      client: { type: 'string' },
      'user-data-dir': { type: 'string' },
      'max-steps': { type: 'string' },
      yes: { type: 'boolean' },
    },
  });
  const task = positionals.slice(1).join(' ').trim();
  if (task === '') {
    throw new Error('run needs a task: tabpilot run "what to do" ...');
  }
  const maxSteps = stepsOf(values['max-steps']);
  const browsers = [values.launch === true, values['cdp-url'] !== undefined, values.extension === true];
  if (browsers.filter(Boolean).length !== 1) {
    throw new Error('run needs exactly one of --launch, --cdp-url URL or --extension');
  }
  if (values.extension === true) {
    const given = MODEL_FLAGS.filter((flag) => values[flag] !== undefined).map((flag) => `--${flag}`);
    if (given.length > 0) {
      throw new Error(
        `${given.join(', ')} cannot go with --extension: the extension's agent uses the model, key and agent settings of its side panel (Settings > Agent)`,
      );
    }
    if (values.headless !== undefined || values.headed !== undefined) {
      throw new Error('--headless and --headed go with --launch: --extension runs in your own browser as it is');
    }
    const client = ClientName.safeParse(values.client ?? env['TABPILOT_CLIENT'] ?? 'tabpilot');
    if (!client.success) {
      throw new Error(`--client ${values.client ?? ''}: ${zodMessage(client.error)}`);
    }
    return {
      mode: 'extension',
      task,
      client: client.data,
      userDataDir: values['user-data-dir'],
      maxSteps,
      yes: values.yes === true,
    };
  }
  for (const flag of ['client', 'user-data-dir'] as const) {
    if (values[flag] !== undefined) {
      throw new Error(`--${flag} goes with --extension (the host of your own browser)`);
    }
  }
  return {
    mode: 'node',
    task,
    cdpUrl: values['cdp-url'],
    headless: values.headless === true ? true : values.headed === true ? false : null,
    config: values.config,
    model: values.model,
    baseUrl: values['base-url'],
    provider: values.provider,
    apiKey: values['api-key'],
    maxSteps,
    yes: values.yes === true,
  };
}

/** --max-steps N: the run's max_steps, with the bounds of agent.max_steps. */
function stepsOf(text: string | undefined): number | undefined {
  if (text === undefined) {
    return undefined;
  }
  const steps = Number(text);
  if (!/^\d+$/.test(text) || steps < 1 || steps > 1000) {
    throw new Error(`--max-steps must be a whole number from 1 to 1000, got ${text}`);
  }
  return steps;
}

function withFlags(raw: Record<string, unknown>, options: RunOptions): Record<string, unknown> {
  const agent: Record<string, unknown> = {};
  if (options.model !== undefined) {
    agent['model'] = options.model;
  }
  if (options.baseUrl !== undefined) {
    agent['base_url'] = options.baseUrl;
  }
  if (options.provider !== undefined) {
    agent['provider'] = options.provider;
  }
  if (options.maxSteps !== undefined) {
    agent['max_steps'] = options.maxSteps;
  }
  const launch: Record<string, unknown> = {};
  if (options.headless !== null) {
    launch['headless'] = options.headless;
  }
  return { ...raw, agent: withFields(raw['agent'], agent), launch: withFields(raw['launch'], launch) };
}

/** `tabpilot run`: one task, one browser, one exit code. */
export async function runAgentCli(argv: string[]): Promise<number> {
  let parsed: ParsedRun;
  try {
    parsed = parseRun(argv, process.env);
  } catch (error) {
    process.stderr.write(`tabpilot: ${errorMessageOf(error)}\n\n${RUN_USAGE}\n`);
    return 2;
  }
  if (parsed.mode === 'extension') {
    return runThroughExtension({ ...parsed, stateDir: stateDir() });
  }
  return runInProcess(parsed);
}

/** The agent in this process, over a browser it launched or attached to. */
async function runInProcess(options: RunOptions): Promise<number> {
  let config: TabpilotConfig;
  let logSecrets: readonly Secret[] = [];
  const level = logLevelOf(process.env['TABPILOT_LOG_LEVEL'], 'warn');
  const log = createLogger(
    redactingSink(stderrSink, () => logSecrets),
    { level, namespace: 'tabpilot' },
  );
  try {
    config = loadConfig({ path: options.config, env: process.env, log, overrides: (raw) => withFlags(raw, options) });
  } catch (error) {
    process.stderr.write(`tabpilot: ${errorMessageOf(error)}\n\n${RUN_USAGE}\n`);
    return 2;
  }
  const settings = config.agent;
  if (settings.model === null) {
    process.stderr.write('tabpilot: run needs --model NAME (or agent.model in the config file)\n');
    return 2;
  }
  logSecrets = secretsOf(config.sensitive_data);
  const envKey = settings.provider === 'anthropic' ? process.env['ANTHROPIC_API_KEY'] : process.env['OPENAI_API_KEY'];
  const apiKey = options.apiKey ?? (envKey === undefined || envKey === '' ? null : envKey);
  const model = modelFromConfig({ ...settings, model: settings.model }, apiKey, (message, delayMs, attempt) =>
    process.stderr.write(`  model attempt ${attempt} failed (${message}); retrying in ${delayMs} ms\n`),
  );

  const { session, server } = composeNodeSession({
    config,
    ...(options.cdpUrl === undefined ? {} : { cdpUrl: options.cdpUrl }),
    logger: log,
  });
  try {
    await session.start();
  } catch (error) {
    process.stderr.write(`tabpilot: could not start the browser: ${errorMessageOf(error)}\n`);
    await session.stop().catch((stopError: unknown) => log.warn('stop failed', { error: errorMessageOf(stopError) }));
    return 1;
  }
  const runId = shortId();
  const host = serverHost(server, runId);
  const agent = new Agent({
    runId,
    host,
    gate: approvalGate({
      runId,
      approval: approvalInForce(settings.approval, browserMayBeThePersons(options.cdpUrl, config)),
      risky: settings.risky,
      runAction: (name, params) => host.runAction(name, params),
      look: serverPageLook(server),
      ask: ttyApproval({ yes: options.yes, redact: (text) => server.redact(text) }),
      log,
    }),
    model,
    // The terminal shows no pictures and nothing keeps them: no step pays for one.
    config: { ...settings, step_screenshots: false },
    log,
    onStep: (report) => {
      process.stderr.write(server.redact(stepLines(report)));
    },
  });
  const interrupt = (): void => {
    process.stderr.write('tabpilot: stopping the run\n');
    agent.stop();
  };
  process.once('SIGINT', interrupt);
  process.once('SIGTERM', interrupt);
  process.stderr.write(`run ${runId}: ${options.task}\n`);
  try {
    const result = await agent.run(options.task);
    process.stderr.write(`run ${runId} finished: ${result.reason} after ${result.steps} steps\n`);
    // The done text is the model's words, which no client connection carries here: masked at this edge.
    process.stdout.write(`${server.redact(result.text)}\n`);
    return result.success && result.reason === 'done' ? 0 : 1;
  } finally {
    process.off('SIGINT', interrupt);
    process.off('SIGTERM', interrupt);
    host.close();
    await session.stop().catch((error: unknown) => log.warn('stop failed', { error: errorMessageOf(error) }));
  }
}
