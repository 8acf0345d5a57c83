import { z } from 'zod';
import type { ServerAction, ServerActionSpec } from '../tools/server-action';
import { replayFlow, type ReplayResult } from '../tools/flows/replay-action';
import { TabpilotError } from '../shared/errors';
import type { AgentRunShared } from './run-action';
import type { RunRecord, RunStore } from './run-store';

const NoParams = z.strictObject({});
const RunIdParams = z.strictObject({
  run_id: z.string().min(1).meta({ details: "A past run's id, as runs lists them" }),
});

const READS = { readOnly: true, destructive: false, idempotent: true, openWorld: false } as const;

export const RUNS_ACTION: ServerActionSpec<typeof NoParams> = {
  name: 'runs',
  summary: 'The past runs, newest first.',
  description:
    "The past runs kept (agent.max_kept_runs of them), newest first: {runs: [{run_id, owner, task, started_at, finished_at, reason, success, text, steps}]} (owner: the client whose run it was, absent for the person's). A native or MCP client lists its own runs only.",
  params: NoParams,
  category: 'session',
  hints: READS,
  immediate: true,
};

export const RUN_HISTORY_ACTION: ServerActionSpec<typeof RunIdParams> = {
  name: 'run_history',
  summary: "A past run's steps and actions.",
  description:
    "A past run in full: {run_id, owner, task, started_at, finished_at, reason, success, text, steps: [{step, goal, actions: [{name, params, result | error}]}], flow}; flow is the run's acting steps as a flow file (docs/flows.md), which rerun replays and replay or tabpilot flow export take as it is (absent when no action made a step). INVALID_PARAMS for a run not kept; FORBIDDEN for a native or MCP client asking for another's run.",
  params: RunIdParams,
  category: 'session',
  hints: READS,
  immediate: true,
};

export const RERUN_ACTION: ServerActionSpec<typeof RunIdParams> = {
  name: 'rerun',
  summary: "Replay a past run's flow without the model.",
  description:
    "Replay a past run's flow (its acting steps, as run_history gives it) without the model, as replay runs a flow: each step finds its element by its locator and runs as the client's own action would, then its expectation is checked. Answers as replay does: {flow, steps, completed, stopped_at, reason, screenshot}, stopped_at and reason null when every step held, else the step it stopped at, why, and a picture of the tab. INVALID_PARAMS for a run not kept or one that kept no flow. A native or MCP client reruns its own runs only (FORBIDDEN).",
  params: RunIdParams,
  category: 'session',
  hints: { readOnly: false, destructive: true, idempotent: false, openWorld: true },
};

async function kept(store: RunStore, runId: string): Promise<RunRecord> {
  const record = await store.get(runId);
  if (record === undefined) {
    throw new TabpilotError('INVALID_PARAMS', `no past run ${runId} is kept`, {
      details: { field: 'run_id', run_id: runId },
    });
  }
  return record;
}

/** runs, run_history and rerun over the store; a rerun is the `replay` of the run's flow. */
export function historyActions(shared: AgentRunShared & { store: RunStore }): ServerAction[] {
  const { store, owners } = shared;
  const runs: ServerAction<typeof NoParams> = {
    ...RUNS_ACTION,
    run: async (_params, caller) => ({ runs: owners.visible(caller.client, await store.list()) }),
  };
  const history: ServerAction<typeof RunIdParams> = {
    ...RUN_HISTORY_ACTION,
    run: async (params, caller) => {
      const record = await kept(store, params.run_id);
      await owners.check(caller.client, params.run_id, 'run_history');
      return record;
    },
  };
  const rerun: ServerAction<typeof RunIdParams> = {
    ...RERUN_ACTION,
    run: async (params, caller): Promise<ReplayResult> => {
      const record = await kept(store, params.run_id);
      await owners.check(caller.client, params.run_id, 'rerun');
      if (record.flow === undefined) {
        throw new TabpilotError(
          'INVALID_PARAMS',
          `run ${record.run_id} kept no flow to replay: none of its actions made a step (docs/agent.md), or it was kept before runs saved flows`,
          { details: { field: 'run_id', run_id: record.run_id } },
        );
      }
      // The one replay: the client's own road, its tabs and its Stop, as `replay` with this flow would run.
      return replayFlow({ flow: record.flow, params: {} }, caller);
    },
  };
  return [runs, history, rerun] as ServerAction[];
}
