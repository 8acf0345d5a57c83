import { z } from 'zod';
import { StepScreenshotMark } from './step-shots';

/**
 * The past runs the worker keeps (the `runs` and `run_history` actions), read leniently: the panel shows
 * what it can of a record and never fails on a field it does not know.
 */

const Summary = z.object({
  run_id: z.string(),
  task: z.string(),
  started_at: z.string().catch(''),
  finished_at: z.string().catch(''),
  reason: z.string().catch(''),
  success: z.boolean().catch(false),
  text: z.string().catch(''),
  steps: z.number().catch(0),
});
export type RunSummaryView = z.infer<typeof Summary>;

const RecordedAction = z.object({
  name: z.string(),
  params: z.unknown(),
  result: z.string().nullable().optional().catch(null),
  error: z
    .object({ code: z.string().nullable().catch(null), message: z.string() })
    .optional()
    .catch(undefined),
});
export type RecordedActionView = z.infer<typeof RecordedAction>;

const RunRecord = Summary.omit({ steps: true }).extend({
  steps: z.array(
    z.object({
      step: z.number(),
      goal: z.string().nullable().catch(null),
      actions: z.array(RecordedAction).catch([]),
      screenshot: StepScreenshotMark,
    }),
  ),
});
export type RunRecordView = z.infer<typeof RunRecord>;

export function summariesOf(result: unknown): RunSummaryView[] {
  const parsed = z.object({ runs: z.array(z.unknown()) }).safeParse(result);
  if (!parsed.success) {
    return [];
  }
  return parsed.data.runs.flatMap((entry) => {
    const summary = Summary.safeParse(entry);
    return summary.success ? [summary.data] : [];
  });
}

export function recordOf(result: unknown): RunRecordView | undefined {
  const parsed = RunRecord.safeParse(result);
  return parsed.success ? parsed.data : undefined;
}

/** What a rerun (the replay of the run's flow) did, in words: the steps that held, or where it stopped and why. */
export function rerunLine(result: unknown): string {
  const parsed = z
    .object({
      steps: z.number(),
      completed: z.number(),
      stopped_at: z.number().nullable(),
      reason: z.string().nullable(),
    })
    .safeParse(result);
  if (!parsed.success) {
    return 'Rerun finished.';
  }
  const { steps, completed, stopped_at: stoppedAt, reason } = parsed.data;
  return stoppedAt === null
    ? `Rerun without the model: ${completed} of ${steps} step${steps === 1 ? '' : 's'} replayed.`
    : `Rerun stopped at step ${stoppedAt} of ${steps}: ${reason ?? 'it failed'}`;
}

/** A kept time (ISO 8601) for a list line. */
export function whenLine(iso: string): string {
  const time = Date.parse(iso);
  return Number.isNaN(time) ? '' : new Date(time).toLocaleString();
}
