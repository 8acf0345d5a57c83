import { parseArgs } from 'node:util';
import { Agent, type AgentStepReport } from '../../agent/agent';
import { modelFromConfig } from '../../agent/model-from-config';
import { approvalGate } from '../../agent/approval-gate';
import { serverHost } from '../../agent/server-host';
import type { TabpilotConfig } from '../../browser/config';
import { loadConfig } from '../../platform/node/config-file';
import { stderrSink } from '../../platform/node/stderr-sink';
import { errorMessageOf } from '../../shared/errors';
import { shortId } from '../../shared/ids';
import { createLogger, type LogLevel } from '../../shared/logger';
import { redactingSink, secretsOf, type Secret } from '../../shared/redact';
import { composeNodeSession } from './compose';
import { ttyApproval } from './tty-approval';

export const RUN_USAGE = `  tabpilot run "TASK" (--launch [--headless | --headed] | --cdp-url URL) --model NAME [--base-url URL]
               [--provider openai|anthropic] [--api-key KEY] [--config FILE] [--yes]
      Let a model do TASK in the browser, step by step: the steps on stderr, the final answer on stdout,
      exit 0 when the task succeeded. openai is any OpenAI-compatible chat-completions server (OpenAI,
      OpenRouter, Ollama, LM Studio, vLLM, Groq, DeepSeek); the key also comes from OPENAI_API_KEY or
      ANTHROPIC_API_KEY. The config file's "agent" object sets the rest (max_steps, tool_calling, ...).
      With agent.approval on, a risky action (agent.risky) is asked about on the terminal (y/N);
      without a terminal it is refused, unless --yes approves every one.`;

interface RunOptions {
  task: string;
  cdpUrl: string | undefined;
  headless: boolean | null;
  config: string | undefined;
  model: string | undefined;
  baseUrl: string | undefined;
  provider: string | undefined;
  apiKey: string | undefined;
  yes: boolean;
}

function parseRun(argv: string[]): RunOptions {
  const { values, positionals } = parseArgs({
    args: argv,
    allowPositionals: true,
    options: {
      launch: { type: 'boolean' },
      'cdp-url': { type: 'string' },
      headless: { type: 'boolean' },
      headed: { type: 'boolean' },
      config: { type: 'string' },
      model: { type: 'string' },
      'base-url': { type: 'string' },
      provider: { type: 'string' },
      'api-key': { type: 'string' },
      yes: { type: 'boolean' },
    },
  });
  const task = positionals.slice(1).join(' ').trim();
  if (task === '') {
    throw new Error('run needs a task: tabpilot run "what to do" ...');
  }
  if ((values.launch === true) === (values['cdp-url'] !== undefined)) {
    throw new Error('run needs exactly one of --launch or --cdp-url URL');
  }
  return {
    task,
    cdpUrl: values['cdp-url'],
    headless: values.headless === true ? true : values.headed === true ? false : null,
    config: values.config,
    model: values.model,
    baseUrl: values['base-url'],
    provider: values.provider,
    apiKey: values['api-key'],
    yes: values.yes === true,
  };
}

function withFlags(raw: Record<string, unknown>, options: RunOptions): Record<string, unknown> {
  const agent = { ...(raw['agent'] as Record<string, unknown> | undefined) };
  if (options.model !== undefined) {
    agent['model'] = options.model;
  }
  if (options.baseUrl !== undefined) {
    agent['base_url'] = options.baseUrl;
  }
  if (options.provider !== undefined) {
    agent['provider'] = options.provider;
  }
  const launch = { ...(raw['launch'] as Record<string, unknown> | undefined) };
  if (options.headless !== null) {
    launch['headless'] = options.headless;
  }
  return { ...raw, agent, launch };
}

function stepLines(report: AgentStepReport): string {
  const lines = [`step ${report.step} (${report.url})${report.thinking === null ? '' : `: ${report.thinking}`}`];
  for (const action of report.actions) {
    const call = `${action.name} ${JSON.stringify(action.params ?? {})}`;
    lines.push(
      action.success ? `  ${call} -> ok` : `  ${call} -> ${action.error_code ?? 'error'}: ${action.error ?? ''}`,
    );
  }
  if (report.error !== null) {
    lines.push(`  step failed: ${report.error}`);
  }
  return `${lines.join('\n')}\n`;
}

/** `tabpilot run`: one task, one browser, one exit code. */
export async function runAgentCli(argv: string[]): Promise<number> {
  let options: RunOptions;
  let config: TabpilotConfig;
  let logSecrets: readonly Secret[] = [];
  const level = (process.env['TABPILOT_LOG_LEVEL'] ?? 'warn') as LogLevel;
  const log = createLogger(
    redactingSink(stderrSink, () => logSecrets),
    { level, namespace: 'tabpilot' },
  );
  try {
    options = parseRun(argv);
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
      approval: settings.approval,
      risky: settings.risky,
      runAction: (name, params) => host.runAction(name, params),
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
    process.stdout.write(`${result.text}\n`);
    return result.success && result.reason === 'done' ? 0 : 1;
  } finally {
    process.off('SIGINT', interrupt);
    process.off('SIGTERM', interrupt);
    await session.stop().catch((error: unknown) => log.warn('stop failed', { error: errorMessageOf(error) }));
  }
}
