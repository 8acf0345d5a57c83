import { z } from 'zod';
import type { AgentConfig } from './agent.config';
import type { CommandServer } from '../tools/command-server';
import { leasesTabs } from '../tools/client-gate';
import type { ServerAction, ServerActionSpec } from '../tools/server-action';
import type { ClientInfo } from '../tools/registry';
import { errorMessageOf, TabpilotError } from '../shared/errors';
import { shortId } from '../shared/ids';
import type { Logger } from '../shared/logger';
import { Agent, type AgentRunResult } from './agent';
import { approvalGate, approvalInForce } from './approval-gate';
import type { AgentModel } from './model';
import { modelFromConfig } from './model-from-config';
import { serverPageLook } from './page-look';
import type { RunControl } from './run-control';
import { ownerOf, type RunOwners } from './run-owners';
import { RunRecorder } from './run-recorder';
import type { RunRecord, RunStore } from './run-store';
import { approvalAnnouncer, serverHost, type ServerAgentHost } from './server-host';
import type { StepShotStore } from './step-shots';

const RunParams = z.strictObject({
  task: z.string().trim().min(1).meta({ details: 'What the agent should do, in words' }),
  max_steps: z
    .number()
    .int()
    .min(1)
    .max(1000)
    .nullable()
    .default(null)
    .meta({ details: 'Steps before the run gives up; null: the config agent.max_steps' }),
  follow_up_of: z.string().min(1).nullable().default(null).describe('A finished run to continue').meta({
    details:
      "The finished run to go on with (this session's last run): the task is a follow-up, the model sees that run's tasks and steps, and the run keeps its run_id; null: a new run",
  }),
});

export interface RunActionOptions {
  /**
   * The agent's part of the config in force, read at each run. The composition gives it from where it keeps
   * the whole config: the server's session is typed by the browser's part alone, which the layers below know.
   */
  config: () => AgentConfig;
  /** The API key for the configured provider (the environment in Node, the panel's settings in the extension). */
  apiKey: (provider: AgentConfig['provider']) => Promise<string | null>;
  /** Makes the model (tests give a scripted one); by default the configured provider's. */
  model?: (settings: AgentConfig & { model: string }, apiKey: string | null) => AgentModel;
  /**
   * Whether the browser may be the person's own (the extension; Node at a cdp_url or on a profile of
   * theirs): agent.approval null turns the guards on there (approval-gate.ts approvalInForce).
   */
  personsBrowser: () => boolean;
  log: Logger;
}

/** What `run` is, apart from running it: its name, params, description and hints. */
export const RUN_ACTION: ServerActionSpec<typeof RunParams> = {
  name: 'run',
  title: 'Agent task',
  summary: 'Let the built-in agent do a task; answers its final text (may take minutes).',
  description:
    'Let the built-in agent do a task in the browser, step by step, with the model of the config agent settings; answers when it is done (reason done, max_steps, max_failures or stopped), the answer being the done text. It runs with the model of the server config (agent.provider, agent.base_url, agent.model; the key from OPENAI_API_KEY or ANTHROPIC_API_KEY) and may take minutes. Its steps come as AgentStepEvent to subscribers.',
  params: RunParams,
  category: 'session',
  hints: { readOnly: false, destructive: true, idempotent: false, openWorld: true },
};

/** The longest a run may take: every step's model request timing out, with time for its actions. */
export function runDeadlineMs(settings: AgentConfig): number {
  return settings.max_steps * (settings.request_timeout_ms * (settings.max_retries + 1) + 60_000);
}

/** What a session's agent actions share: the one run going and its approvals, where runs and their pictures are kept. */
export interface AgentRunShared {
  readonly control: RunControl;
  readonly store: RunStore | undefined;
  /** Where each step's picture goes; none: no step takes one. */
  readonly shots: StepShotStore | undefined;
  /** Whose each run is: a program reaches only its own (run-owners.ts). */
  readonly owners: RunOwners;
}

/**
 * The `run` action: the built-in agent does a task in this session's browser and answers the run's
 * result ({run_id, reason, success, text, steps}); its steps come as AgentRunStartedEvent,
 * AgentStepEvent and AgentRunFinishedEvent to clients that subscribed. One run at a time per session.
 * A client that keeps its own tabs (native, MCP) has the agent act as itself, in its tabs; the person's
 * run acts as an agent client of its own. Cancelling the request, or the emergency stop, stops the run.
 * installAgentActions (agent-actions.ts) installs it with the actions that steer and keep runs, over
 * `shared`: the run registers there, and is kept in the store when there is one.
 */
export function runAction(
  server: CommandServer,
  options: RunActionOptions,
  shared: AgentRunShared,
): ServerAction<typeof RunParams> {
  // The last run started here, which a follow-up goes on with (its agent keeps the tasks and steps).
  let last: LastRun | undefined;
  return {
    ...RUN_ACTION,
    run: async (params, caller): Promise<AgentRunResult> => {
      const settings = options.config();
      if (settings.model === null) {
        throw new TabpilotError('INVALID_PARAMS', 'agent.model: set the model the agent uses in the settings', {
          details: { field: 'agent.model' },
        });
      }
      if (params.follow_up_of !== null) {
        await shared.owners.check(caller.client, params.follow_up_of, 'run: follow_up_of');
        return followUp(params.follow_up_of, params.task, caller.signal);
      }
      const configured = { ...settings, model: settings.model };
      const key = await options.apiKey(settings.provider);
      const runId = shortId();
      const actAs = leasesTabs(caller.client) ? caller.client : undefined;
      const host = serverHost(server, runId, actAs);
      shared.owners.started(runId, ownerOf(actAs));
      const recorder = new RunRecorder(runId, params.task, new Date(), ownerOf(actAs));
      const shots = shared.shots;
      const agent = new Agent({
        runId,
        host,
        model: (options.model ?? modelFromConfig)(configured, key),
        config: {
          ...settings,
          max_steps: params.max_steps ?? settings.max_steps,
          step_screenshots: settings.step_screenshots && shots !== undefined,
        },
        onStep: async (report, _state, shot) => {
          recorder.step(report);
          if (shot !== null) {
            await shots?.put(runId, report.step, shot);
          }
        },
        onActed: (acted) => recorder.acted(acted),
        gate: approvalGate({
          runId,
          approval: approvalInForce(settings.approval, options.personsBrowser()),
          risky: settings.risky,
          runAction: (name, params) => host.runAction(name, params),
          look: serverPageLook(server),
          ask: shared.control.asker(approvalAnnouncer(server, runId, actAs), actAs),
          log: options.log.child(`approvals:${runId}`),
        }),
        log: options.log.child(`run:${runId}`),
      });
      last = { agent, host, recorder, actAs };
      return go(last, params.task, caller.signal);
    },
  };
  async function go(
    { agent, host, recorder, actAs }: LastRun,
    task: string,
    signal: AbortSignal,
  ): Promise<AgentRunResult> {
    // A follow-up goes on acting as the program whose run it continues, and is steered as that run.
    const end = shared.control.begin(agent, actAs);
    const stop = (): void => agent.stop();
    signal.addEventListener('abort', stop, { once: true });
    try {
      const result = await agent.run(task);
      await keep(shared.store, recorder.finish(result, server.session.config.sensitive_data, options.log), options.log);
      if (signal.aborted) {
        throw new TabpilotError('CANCELLED', `run ${agent.runId} was cancelled after ${result.steps} steps`, {
          details: { run_id: agent.runId },
        });
      }
      return result;
    } finally {
      signal.removeEventListener('abort', stop);
      end();
      // A follow-up opens the agent's connection again.
      host.close();
    }
  }
  function followUp(runId: string, task: string, signal: AbortSignal): Promise<AgentRunResult> {
    if (last === undefined || last.agent.runId !== runId) {
      throw new TabpilotError('INVALID_PARAMS', `follow_up_of: run ${runId} is not this session's last run`, {
        details: { field: 'follow_up_of', run_id: runId },
      });
    }
    return go(last, task, signal);
  }
}

interface LastRun {
  readonly agent: Agent;
  readonly host: ServerAgentHost;
  readonly recorder: RunRecorder;
  readonly actAs: ClientInfo | undefined;
}

async function keep(store: RunStore | undefined, record: RunRecord, log: Logger): Promise<void> {
  try {
    await store?.save(record);
  } catch (error) {
    // The run happened whether or not it could be kept: its answer still goes to the client.
    log.warn(`could not keep run ${record.run_id}`, { error: errorMessageOf(error) });
  }
}
