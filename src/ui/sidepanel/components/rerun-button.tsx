import { useState } from 'preact/hooks';
import type { CommandResponse } from '../../../protocol/commands';
import type { WorkerPort } from '../port';
import { rerunLine } from '../run-records';
import { ResponseView } from './response-view';

/** Replays a past run's flow without the model (the `rerun` action), and says what it did. */
export function RerunButton(props: { port: WorkerPort; runId: string }): preact.JSX.Element {
  const [busy, setBusy] = useState(false);
  const [response, setResponse] = useState<CommandResponse | undefined>(undefined);
  const rerun = (): void => {
    setBusy(true);
    setResponse(undefined);
    void props.port.start('rerun', { run_id: props.runId }, 'run').response.then((answer) => {
      setBusy(false);
      setResponse(answer);
    });
  };
  return (
    <div class="rerun">
      <button type="button" id="rerun-run" disabled={busy} onClick={rerun}>
        Rerun without the model
      </button>
      <ResponseView
        id="rerun-output"
        response={response}
        busy={busy}
        busyText="Replaying the run's steps…"
        summary={response?.ok === true ? rerunLine(response.result) : undefined}
      />
    </div>
  );
}
