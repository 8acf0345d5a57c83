import { useState } from 'preact/hooks';
import type { CommandResponse } from '../../../protocol/commands';
import { finishLine, type RunView } from '../agent-runs';
import type { Described } from '../describe';
import type { WorkerPort } from '../port';
import { ApprovalBox } from './approval-box';
import { RerunButton } from './rerun-button';
import { ResponseView } from './response-view';
import { RunSteps } from './run-steps';

/** One run: its task, where it stands, Pause / Resume / Stop while it goes, and its steps. */
export function RunPanel(props: {
  port: WorkerPort;
  described: Described | undefined;
  run: RunView;
  live: boolean;
  /** Goes on with the finished run with a new task; absent when the run cannot take a follow-up. */
  onFollowUp?: ((task: string) => void) | undefined;
}): preact.JSX.Element {
  const { port, run, live } = props;
  const [stopping, setStopping] = useState(false);
  const [answer, setAnswer] = useState<CommandResponse | undefined>(undefined);
  const [followUp, setFollowUp] = useState('');
  const can = (action: string): boolean => props.described?.has(action) ?? false;
  const send = (action: string, params: Record<string, unknown>): void => {
    void port.request(action, params).then((response) => setAnswer(response.ok ? undefined : response));
  };
  const stop = (): void => {
    setStopping(true);
    send('stop_run', { run_id: run.runId });
  };
  const state =
    run.finished !== undefined
      ? finishLine(run.finished)
      : stopping
        ? 'Stopping…'
        : run.approvals.length > 0
          ? 'Waiting for your approval'
          : run.paused
            ? 'Paused: nothing more runs until you press Resume'
            : `Running: step ${run.steps.length + 1} of at most ${run.maxSteps}…`;
  return (
    <article class="run" id="run-view" data-run-id={run.runId} data-finished={run.finished !== undefined}>
      {run.tasks.length > 1 && (
        <ol class="run-earlier-tasks muted" id="run-earlier-tasks">
          {run.tasks.slice(0, -1).map((task, position) => (
            <li key={position}>{task}</li>
          ))}
        </ol>
      )}
      <h2 class="run-task" id="run-task-text">
        {run.task}
      </h2>
      <p id="run-state" class="run-state" role="status" data-paused={run.paused}>
        {state}
      </p>
      {live && (
        <div class="row run-controls">
          {can('pause_run') && !run.paused && (
            <button
              type="button"
              id="pause-run"
              disabled={stopping}
              onClick={() => send('pause_run', { run_id: run.runId })}
            >
              Pause
            </button>
          )}
          {can('resume_run') && run.paused && (
            <button
              type="button"
              id="resume-run"
              disabled={stopping}
              onClick={() => send('resume_run', { run_id: run.runId })}
            >
              Resume
            </button>
          )}
          {can('stop_run') && (
            <button type="button" id="stop-run" class="danger" disabled={stopping} onClick={stop}>
              Stop
            </button>
          )}
        </div>
      )}
      <ResponseView id="run-control" response={answer} />
      {live &&
        run.approvals.map((approval) => <ApprovalBox key={approval.approval_id} port={port} approval={approval} />)}
      <RunSteps port={port} runId={run.runId} steps={run.steps} />
      {run.finished !== undefined && (
        <div id="run-result" class={run.finished.success ? 'ok-line' : 'error-line'}>
          {run.finished.text}
        </div>
      )}
      {run.finished !== undefined && props.onFollowUp !== undefined && (
        <form
          id="follow-up-form"
          class="row"
          onSubmit={(event) => {
            event.preventDefault();
            if (followUp.trim() !== '') {
              props.onFollowUp?.(followUp.trim());
            }
          }}
        >
          <input
            id="follow-up-input"
            type="text"
            placeholder="A follow-up task for this run"
            value={followUp}
            onInput={(event) => setFollowUp((event.target as HTMLInputElement).value)}
          />
          <button type="submit" id="follow-up-run" disabled={followUp.trim() === ''}>
            Go on
          </button>
        </form>
      )}
      {run.finished !== undefined && can('rerun') && <RerunButton port={port} runId={run.runId} />}
    </article>
  );
}
