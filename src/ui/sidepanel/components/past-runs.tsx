import { useEffect, useState } from 'preact/hooks';
import type { RunView } from '../agent-runs';
import type { Described } from '../describe';
import type { WorkerPort } from '../port';
import { summariesOf, whenLine, type RunSummaryView } from '../run-records';

/**
 * The runs before, newest first; opening one shows its steps above. With a worker that keeps runs (the
 * `runs` action) they are the kept ones, which outlive the timeline; otherwise the timeline's.
 */
export function PastRuns(props: {
  port: WorkerPort;
  described: Described | undefined;
  runs: readonly RunView[];
  opened: string | undefined;
  onOpen: (runId: string) => void;
}): preact.JSX.Element | null {
  const kept = props.described?.has('runs') ?? false;
  const finished = props.runs.filter((run) => run.finished !== undefined);
  const [summaries, setSummaries] = useState<RunSummaryView[] | undefined>(undefined);
  // Read again whenever a run finishes: the worker has kept it by then.
  const newestFinished = finished.at(-1)?.runId;
  useEffect(() => {
    if (!kept) {
      return;
    }
    void props.port.request('runs').then((response) => {
      if (response.ok) {
        setSummaries(summariesOf(response.result));
      }
    });
  }, [kept, props.port, newestFinished]);
  const rows: RunSummaryView[] =
    kept && summaries !== undefined
      ? summaries
      : [...finished].reverse().map((run) => ({
          run_id: run.runId,
          task: run.task,
          started_at: new Date(run.startedAt).toISOString(),
          finished_at: '',
          reason: run.finished?.reason ?? '',
          success: run.finished?.success ?? false,
          text: run.finished?.text ?? '',
          steps: run.steps.length,
        }));
  if (rows.length === 0) {
    return null;
  }
  return (
    <section class="past-runs">
      <h2>Past runs</h2>
      <ul id="past-runs">
        {rows.map((run) => (
          <li key={run.run_id} data-run-id={run.run_id} class={run.run_id === props.opened ? 'selected' : undefined}>
            <button type="button" class="link open-run" onClick={() => props.onOpen(run.run_id)}>
              {run.task}
            </button>{' '}
            <span class="muted">
              {run.reason} · {run.steps} step{run.steps === 1 ? '' : 's'} · {whenLine(run.started_at)}
            </span>
          </li>
        ))}
      </ul>
    </section>
  );
}
