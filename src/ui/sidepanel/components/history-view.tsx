import { useEffect, useState } from 'preact/hooks';
import type { CommandResponse } from '../../../protocol/commands';
import { finishLine, paramsLine } from '../agent-runs';
import type { Described } from '../describe';
import type { WorkerPort } from '../port';
import { recordOf, type RunRecordView } from '../run-records';
import { RerunButton } from './rerun-button';
import { StepShot } from './step-shot';
import { ResponseView } from './response-view';

/** A past run the timeline no longer holds, read from the worker's kept runs (`run_history`). */
export function HistoryView(props: {
  port: WorkerPort;
  described: Described | undefined;
  runId: string;
}): preact.JSX.Element {
  const [record, setRecord] = useState<RunRecordView | undefined>(undefined);
  const [failed, setFailed] = useState<CommandResponse | undefined>(undefined);
  useEffect(() => {
    void props.port.request('run_history', { run_id: props.runId }).then((response) => {
      if (response.ok) {
        setRecord(recordOf(response.result));
      } else {
        setFailed(response);
      }
    });
  }, [props.port, props.runId]);
  if (failed !== undefined) {
    return <ResponseView id="run-history" response={failed} />;
  }
  if (record === undefined) {
    return <p class="muted">Reading the run…</p>;
  }
  return (
    <article class="run" id="run-view" data-run-id={record.run_id} data-finished="true">
      <h2 class="run-task" id="run-task-text">
        {record.task}
      </h2>
      <p id="run-state" class="run-state">
        {finishLine({ ...record, steps: record.steps.length })}
      </p>
      <ol class="run-steps" id="run-steps">
        {record.steps.map((step) => (
          <li key={step.step} class="run-step" data-step={step.step}>
            <strong>Step {step.step}</strong>
            {step.screenshot !== null && <StepShot port={props.port} runId={record.run_id} step={step.step} />}
            {step.goal !== null && <p class="run-goal">Next: {step.goal}</p>}
            <ul class="run-actions">
              {step.actions.map((action, position) => (
                <li key={position} class="run-action" data-ok={action.error === undefined} data-action={action.name}>
                  <code>{action.name}</code> <span class="muted">{paramsLine(action.params)}</span>
                  <div class={action.error === undefined ? 'run-result' : 'run-error error-line'}>
                    {action.error === undefined ? `✓ ${action.result ?? 'ok'}` : `✗ ${action.error.message}`}
                  </div>
                </li>
              ))}
            </ul>
          </li>
        ))}
      </ol>
      <div id="run-result" class={record.success ? 'ok-line' : 'error-line'}>
        {record.text}
      </div>
      {props.described?.has('rerun') === true && <RerunButton port={props.port} runId={record.run_id} />}
    </article>
  );
}
