import { z } from 'zod';
import type { ActionHints } from '../protocol/actions';
import type { ClientInfo } from '../tools/registry';
import type { ServerAction, ServerActionSpec } from '../tools/server-action';
import type { ControlledRun, RunControl } from './run-control';

const RunId = z
  .string()
  .min(1)
  .nullable()
  .default(null)
  .describe('null: the run going now')
  .meta({ details: "The run's id (run's answer, AgentRunStartedEvent); null: the run going now" });

const RunRef = z.strictObject({ run_id: RunId });

const ApproveParams = z.strictObject({
  approval_id: z.string().min(1).meta({ details: 'The id of the AgentApprovalRequestedEvent being answered' }),
  approved: z.boolean().meta({ details: 'true lets the action run; false refuses it (the agent is told and goes on)' }),
});

const STEERS: ActionHints = { readOnly: false, destructive: false, idempotent: true, openWorld: false };

export const PAUSE_RUN_ACTION: ServerActionSpec<typeof RunRef> = {
  name: 'pause_run',
  summary: "Pause the agent's run.",
  description:
    "Hold the agent's run before its next step or action; the model request in flight finishes. Answers {run_id, paused}. Only the person, or the client whose own run it is, may pause it: FORBIDDEN for any other client. INVALID_PARAMS when no such run is going.",
  params: RunRef,
  category: 'session',
  hints: STEERS,
  immediate: true,
};

export const RESUME_RUN_ACTION: ServerActionSpec<typeof RunRef> = {
  name: 'resume_run',
  summary: 'Resume a paused run.',
  description:
    'Let a paused run go on. Answers {run_id, paused}. Only the person, or the client whose own run it is, may resume it: FORBIDDEN for any other client. INVALID_PARAMS when no such run is going.',
  params: RunRef,
  category: 'session',
  hints: STEERS,
  immediate: true,
};

export const STOP_RUN_ACTION: ServerActionSpec<typeof RunRef> = {
  name: 'stop_run',
  summary: "Stop the agent's run.",
  description:
    "End the agent's run: no further action runs, an approval it waits for is refused; the browser stays as it is (the emergency stop also ends the run, and detaches). Answers {run_id, stopped: true}. Only the person, or the client whose own run it is, may stop it: FORBIDDEN for any other client. INVALID_PARAMS when no such run is going.",
  params: RunRef,
  category: 'session',
  hints: { ...STEERS, destructive: true },
  immediate: true,
};

export const APPROVE_ACTION: ServerActionSpec<typeof ApproveParams> = {
  name: 'approve',
  summary: 'Answer an approval the agent waits for.',
  description:
    'Answer an approval the agent waits for (AgentApprovalRequestedEvent): approved true runs the action, false refuses it. Only the person, or the client whose own run asked, may answer: FORBIDDEN for any other client. Answers {approval_id, approved}. INVALID_PARAMS for an approval_id nothing waits on.',
  params: ApproveParams,
  category: 'session',
  hints: { readOnly: false, destructive: false, idempotent: false, openWorld: false },
  immediate: true,
};

/** The actions a person steers the run going with: pause_run, resume_run, stop_run, approve. */
export function controlActions(control: RunControl): ServerAction[] {
  // Through a promise, so a run that is not going is the action's rejected answer, not a throw.
  // Only the person or the run's own client steers it (run-control.ts), as with its approvals.
  const steer =
    <T>(action: string, act: (run: ControlledRun) => T) =>
    (params: { run_id: string | null }, caller: { client: ClientInfo }): Promise<T> =>
      Promise.resolve(params.run_id).then((runId) => act(control.steered(runId, caller.client, action)));
  const pause: ServerAction<typeof RunRef> = {
    ...PAUSE_RUN_ACTION,
    run: steer(PAUSE_RUN_ACTION.name, (run) => {
      run.pause();
      return { run_id: run.runId, paused: run.paused };
    }),
  };
  const resume: ServerAction<typeof RunRef> = {
    ...RESUME_RUN_ACTION,
    run: steer(RESUME_RUN_ACTION.name, (run) => {
      run.resume();
      return { run_id: run.runId, paused: run.paused };
    }),
  };
  const stop: ServerAction<typeof RunRef> = {
    ...STOP_RUN_ACTION,
    run: steer(STOP_RUN_ACTION.name, (run) => {
      run.stop();
      return { run_id: run.runId, stopped: true };
    }),
  };
  const approve: ServerAction<typeof ApproveParams> = {
    ...APPROVE_ACTION,
    run: async (params, caller) => {
      await control.answer(params.approval_id, params.approved, caller.client);
      return { approval_id: params.approval_id, approved: params.approved };
    },
  };
  return [pause, resume, stop, approve] as ServerAction[];
}
