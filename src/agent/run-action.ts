import { z } from 'zod';
import type { AgentConfig } from '../browser/config/agent.config';
import type { CommandServer } from '../tools/command-server';
import { leasesTabs } from '../tools/client-gate';
import type { ServerAction, ServerActionSpec } from '../tools/server-action';
import { TabpilotError } from '../shared/errors';
import { shortId } from '../shared/ids';
import type { Logger } from '../shared/logger';
import { Agent, type AgentRunResult } from './agent';
import type { AgentModel } from './model';
import { modelFromConfig } from './model-from-config';
import { serverHost } from './server-host';

const RunParams = z.strictObject({
  task: z.string().trim().min(1).describe('What the agent should do, in words'),
  max_steps: z
    .number()
    .int()
    .min(1)
    .max(1000)
    .nullable()
    .default(null)
    .describe('Steps before the run gives up; null: the config agent.max_steps'),
});

export interface RunActionOptions {
  /** The API key for the configured provider (the environment in Node, the panel's settings in the extension). */
  apiKey: (provider: AgentConfig['provider']) => Promise<string | null>;
  /** Makes the model (tests give a scripted one); by default the configured provider's. */
  model?: (settings: AgentConfig & { model: string }, apiKey: string | null) => AgentModel;
  log: Logger;
}

/** What `run` is, apart from running it: its name, params, description and hints. */
export const RUN_ACTION: ServerActionSpec<typeof RunParams> = {
  name: 'run',
  description:
    'Let the built-in agent do a task in the browser, step by step, with the model of the config agent settings; answers when it is done (reason done, max_steps, max_failures or stopped). Its steps come as AgentStepEvent to subscribers.',
  params: RunParams,
  category: 'session',
  hints: { readOnly: false, destructive: true, idempotent: false, openWorld: true },
};

/** The longest a run may take: every step's model request timing out, with time for its actions. */
export function runDeadlineMs(settings: AgentConfig): number {
  return settings.max_steps * (settings.request_timeout_ms * (settings.max_retries + 1) + 60_000);
}

/**
 * The `run` action: the built-in agent does a task in this session's browser and answers the run's
 * result ({run_id, reason, success, text, steps}); its steps come as AgentRunStartedEvent,
 * AgentStepEvent and AgentRunFinishedEvent to clients that subscribed. One run at a time per session.
 * A client that keeps its own tabs (native, MCP) has the agent act as itself, in its tabs; the person's
 * run acts as an agent client of its own. Cancelling the request, or the emergency stop, stops the run.
 */
export function installRunAction(server: CommandServer, options: RunActionOptions): void {
  let running: Agent | undefined;
  const action: ServerAction<typeof RunParams> = {
    ...RUN_ACTION,
    run: async (params, caller): Promise<AgentRunResult> => {
      if (running?.running === true) {
        throw new TabpilotError(
          'FORBIDDEN',
          `run ${running.runId} is still going: stop it (stop, or cancel its request) before starting another`,
        );
      }
      const settings = server.session.config.agent;
      if (settings.model === null) {
        throw new TabpilotError('INVALID_PARAMS', 'agent.model: set the model the agent uses in the settings', {
          details: { field: 'agent.model' },
        });
      }
      const configured = { ...settings, model: settings.model };
      const key = await options.apiKey(settings.provider);
      const runId = shortId();
      const agent = new Agent({
        runId,
        host: serverHost(server, runId, leasesTabs(caller.client) ? caller.client : undefined),
        model: (options.model ?? modelFromConfig)(configured, key),
        config: params.max_steps === null ? settings : { ...settings, max_steps: params.max_steps },
        log: options.log.child(`run:${runId}`),
      });
      running = agent;
      const stop = (): void => agent.stop();
      caller.signal.addEventListener('abort', stop, { once: true });
      try {
        const result = await agent.run(params.task);
        if (caller.signal.aborted) {
          throw new TabpilotError('CANCELLED', `run ${runId} was cancelled after ${result.steps} steps`, {
            details: { run_id: runId },
          });
        }
        return result;
      } finally {
        caller.signal.removeEventListener('abort', stop);
      }
    },
  };
  server.addServerAction(action);
}
