import type { RunView } from '../agent-runs';

/** The runs before, newest first; opening one shows its steps above. */
export function PastRuns(props: {
  runs: readonly RunView[];
  opened: string | undefined;
  onOpen: (runId: string) => void;
}): preact.JSX.Element | null {
  const finished = props.runs.filter((run) => run.finished !== undefined).reverse();
  if (finished.length === 0) {
    return null;
  }
  return (
    <section class="past-runs">
      <h2>Past runs</h2>
      <ul id="past-runs">
        {finished.map((run) => (
          <li key={run.runId} data-run-id={run.runId} class={run.runId === props.opened ? 'selected' : undefined}>
            <button type="button" class="link" onClick={() => props.onOpen(run.runId)}>
              {run.task}
            </button>{' '}
            <span class="muted">
              {run.finished?.reason} · {new Date(run.startedAt).toLocaleString()}
            </span>
          </li>
        ))}
      </ul>
    </section>
  );
}
