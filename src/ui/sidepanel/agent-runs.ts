import { z } from 'zod';
import type { TimelineEntry } from '../../protocol/panel-messages';
import { StepScreenshotMark } from './step-shots';

/**
 * The agent's runs as the Task view shows them, read from the timeline's Agent* events (the timeline
 * already holds every bus event, survives a worker restart and is pushed to every panel), so a panel
 * opened mid-run shows the run from its start.
 */

const Outcome = z.object({
  name: z.string(),
  params: z.unknown(),
  success: z.boolean(),
  extracted_content: z.string().nullable().catch(null),
  error: z.string().nullable().catch(null),
});

const Started = z.object({
  run_id: z.string(),
  task: z.string(),
  model: z.string().catch(''),
  max_steps: z.number().catch(0),
});
const Step = z.object({
  run_id: z.string(),
  step: z.number(),
  url: z.string().catch(''),
  thinking: z.string().nullable().catch(null),
  next_goal: z.string().nullable().catch(null),
  actions: z.array(Outcome).catch([]),
  error: z.string().nullable().catch(null),
  screenshot: StepScreenshotMark,
});
const Finished = z.object({
  run_id: z.string(),
  reason: z.string(),
  success: z.boolean(),
  text: z.string(),
  steps: z.number().catch(0),
});
const Paused = z.object({ run_id: z.string(), paused: z.boolean() });
const ApprovalRequested = z.object({
  run_id: z.string(),
  approval_id: z.string(),
  action: z.string(),
  params: z.unknown(),
  risk: z.string().catch(''),
  reason: z.string().catch(''),
});
const ApprovalResolved = z.object({ run_id: z.string(), approval_id: z.string(), approved: z.boolean() });

export type StepView = z.infer<typeof Step>;
export type FinishedView = z.infer<typeof Finished>;
export type ApprovalView = z.infer<typeof ApprovalRequested>;

export interface RunView {
  readonly runId: string;
  /** The task now: the last follow-up's, or the first task. */
  readonly task: string;
  /** Every task of the run, the first one first (a follow-up goes on with the same run). */
  readonly tasks: readonly string[];
  readonly model: string;
  readonly maxSteps: number;
  readonly startedAt: number;
  readonly steps: readonly StepView[];
  readonly paused: boolean;
  readonly finished: FinishedView | undefined;
  /** Risky actions waiting for the person's answer, oldest first. */
  readonly approvals: readonly ApprovalView[];
}

interface Building {
  runId: string;
  task: string;
  tasks: string[];
  model: string;
  maxSteps: number;
  startedAt: number;
  steps: StepView[];
  paused: boolean;
  finished: FinishedView | undefined;
  approvals: ApprovalView[];
}

/** The runs in the timeline, oldest first; a run whose start the timeline dropped is left out. */
export function runsIn(entries: Iterable<TimelineEntry>): RunView[] {
  const runs = new Map<string, Building>();
  for (const entry of entries) {
    if (entry.kind !== 'event') {
      continue;
    }
    switch (entry.type) {
      case 'AgentRunStartedEvent': {
        const started = Started.safeParse(entry.payload);
        const known = started.success ? runs.get(started.data.run_id) : undefined;
        if (started.success && known !== undefined) {
          // A follow-up: the same run goes on with a new task, its steps kept. Newest run last.
          runs.delete(known.runId);
          runs.set(known.runId, {
            ...known,
            task: started.data.task,
            tasks: [...known.tasks, started.data.task],
            paused: false,
            finished: undefined,
          });
        } else if (started.success) {
          runs.set(started.data.run_id, {
            runId: started.data.run_id,
            task: started.data.task,
            tasks: [started.data.task],
            model: started.data.model,
            maxSteps: started.data.max_steps,
            startedAt: entry.created_at,
            steps: [],
            paused: false,
            finished: undefined,
            approvals: [],
          });
        }
        break;
      }
      case 'AgentStepEvent': {
        const step = Step.safeParse(entry.payload);
        const run = step.success ? runs.get(step.data.run_id) : undefined;
        if (step.success && run !== undefined) {
          run.steps = [...run.steps.filter((known) => known.step !== step.data.step), step.data];
        }
        break;
      }
      case 'AgentPausedEvent': {
        const paused = Paused.safeParse(entry.payload);
        const run = paused.success ? runs.get(paused.data.run_id) : undefined;
        if (paused.success && run !== undefined) {
          run.paused = paused.data.paused;
        }
        break;
      }
      case 'AgentRunFinishedEvent': {
        const finished = Finished.safeParse(entry.payload);
        const run = finished.success ? runs.get(finished.data.run_id) : undefined;
        if (finished.success && run !== undefined) {
          run.finished = finished.data;
          run.paused = false;
          run.approvals = [];
        }
        break;
      }
      case 'AgentApprovalRequestedEvent': {
        const requested = ApprovalRequested.safeParse(entry.payload);
        const run = requested.success ? runs.get(requested.data.run_id) : undefined;
        if (requested.success && run !== undefined && run.finished === undefined) {
          run.approvals = [...run.approvals, requested.data];
        }
        break;
      }
      case 'AgentApprovalResolvedEvent': {
        const resolved = ApprovalResolved.safeParse(entry.payload);
        const run = resolved.success ? runs.get(resolved.data.run_id) : undefined;
        if (resolved.success && run !== undefined) {
          run.approvals = run.approvals.filter((approval) => approval.approval_id !== resolved.data.approval_id);
        }
        break;
      }
      default:
        break;
    }
  }
  return [...runs.values()];
}

/** Names a run as it stands (its id and how many tasks it has had), to tell when a new one or a follow-up began. */
export function runKey(run: RunView | undefined): string | undefined {
  return run === undefined ? undefined : `${run.runId}:${run.tasks.length}`;
}

/** The run going on now, if any: the newest one not finished. */
export function liveRun(runs: readonly RunView[]): RunView | undefined {
  const newest = runs.at(-1);
  return newest !== undefined && newest.finished === undefined ? newest : undefined;
}

/** One line for what an action did: its result text or its error. */
export function outcomeLine(outcome: StepView['actions'][number]): string {
  if (!outcome.success) {
    return outcome.error ?? 'failed';
  }
  return outcome.extracted_content ?? 'ok';
}

/** A short form of an action's params for a one-line list. */
export function paramsLine(params: unknown, max = 120): string {
  if (params === undefined || params === null) {
    return '';
  }
  const text = typeof params === 'string' ? params : JSON.stringify(params);
  return text.length > max ? `${text.slice(0, max - 1)}…` : text;
}

const REASONS: Record<string, string> = {
  done: 'Done',
  max_steps: 'Gave up: out of steps',
  max_failures: 'Gave up: too many failures in a row',
  stopped: 'Stopped',
};

/** How a finished run ended, in words. */
export function finishLine(finished: FinishedView): string {
  const reason = REASONS[finished.reason] ?? finished.reason;
  const verdict = finished.reason === 'done' ? (finished.success ? ' (succeeded)' : ' (not achieved)') : '';
  return `${reason}${verdict} after ${finished.steps} step${finished.steps === 1 ? '' : 's'}`;
}

/**
 * The hint a failed model request earns in the extension: a fetch the browser refused (no CORS answer from
 * the server, no host permission for it) reads "Failed to fetch", which says nothing of the cure.
 */
export function reachHint(error: string | null): string | undefined {
  if (error === null || !/failed to fetch|cannot connect to api/i.test(error)) {
    return undefined;
  }
  return 'The model server could not be reached from the extension. If it is running, it may refuse requests from other origins (CORS): press "Allow access to this server" in the model settings, or allow the extension\'s origin on the server.';
}
