import { z } from 'zod';
import type { CommandServer } from '../tools/command-server';
import { leasesTabs } from '../tools/client-gate';
import type { ServerAction, ServerActionSpec } from '../tools/server-action';
import { errorMessageOf, TabpilotError } from '../shared/errors';
import type { Logger } from '../shared/logger';
import { approvalGate, approvalInForce } from './approval-gate';
import { serverPageLook } from './page-look';
import { Replay, type ReplayResult } from './replay';
import type { AgentRunShared } from './run-action';
import type { RunRecord, RunStore } from './run-store';
import { approvalAnnouncer, serverHost } from './server-host';

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
    "A past run in full: {run_id, owner, task, started_at, finished_at, reason, success, text, steps: [{step, goal, actions: [{name, params, result | error, elements}]}]}. INVALID_PARAMS for a run not kept; FORBIDDEN for a native or MCP client asking for another's run.",
  params: RunIdParams,
  category: 'session',
  hints: READS,
  immediate: true,
};

export const RERUN_ACTION: ServerActionSpec<typeof RunIdParams> = {
  name: 'rerun',
  summary: "Replay a past run's actions without the model.",
  description:
    "Run a past run's actions again in order, without the model: each element is found in the page's state now by who it was (tag, role, name, attributes). Answers {run_id, replayed, results, stopped}; the first action that fails ends it with that action's error (ELEMENT_NOT_FOUND when an element is not on the page any more), its details holding the results so far. Stops with stop_run; risky actions wait for approval as in a run. A native or MCP client reruns its own runs only (FORBIDDEN).",
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

/** runs, run_history and rerun over the store; a rerun is the one run going while it goes. */
export function historyActions(
  server: CommandServer,
  shared: AgentRunShared & { store: RunStore },
  log: Logger,
  personsBrowser: () => boolean,
): ServerAction[] {
  const { store, control, owners } = shared;
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
      const settings = server.session.config.agent;
      const actAs = leasesTabs(caller.client) ? caller.client : undefined;
      const host = serverHost(server, record.run_id, actAs);
      const replay = new Replay({
        record,
        settleMs: settings.settle_ms,
        host: {
          runAction: (name, params) => host.runAction(name, params),
          emitPaused: (paused) =>
            host.emit('paused', { run_id: record.run_id, paused }).catch((error: unknown) => {
              // The timeline is a record of the rerun, not part of it.
              log.warn('could not record the rerun pausing', { error: errorMessageOf(error) });
            }),
        },
        gate: approvalGate({
          runId: record.run_id,
          approval: approvalInForce(settings.approval, personsBrowser()),
          risky: settings.risky,
          runAction: (name, params) => host.runAction(name, params),
          look: serverPageLook(server),
          ask: control.asker(approvalAnnouncer(server, record.run_id, actAs), actAs),
          log: log.child(`approvals:${record.run_id}`),
        }),
      });
      const end = control.begin(replay, actAs);
      const stop = (): void => replay.stop();
      caller.signal.addEventListener('abort', stop, { once: true });
      const unsubscribe = host.onEmergencyStop(stop);
      try {
        const result = await replay.run();
        if (caller.signal.aborted) {
          throw new TabpilotError('CANCELLED', `the rerun of ${record.run_id} was cancelled`, {
            details: { run_id: record.run_id, replayed: result.replayed },
          });
        }
        return result;
      } finally {
        unsubscribe();
        caller.signal.removeEventListener('abort', stop);
        end();
        host.close();
      }
    },
  };
  return [runs, history, rerun] as ServerAction[];
}
