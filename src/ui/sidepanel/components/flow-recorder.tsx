import { useState } from 'preact/hooks';
import type { CommandResponse } from '../../../protocol/commands';
import { fieldOf } from '../../../shared/narrow';
import type { Described } from '../describe';
import type { WorkerPort } from '../port';
import { ResponseView } from './response-view';

/** The saved file's name, from record_stop's answer (its path under the output folder). */
function savedName(response: CommandResponse): string | undefined {
  const path = response.ok ? fieldOf(response.result, 'path') : undefined;
  return typeof path === 'string' ? path.split(/[/\\]/).pop() : undefined;
}

/**
 * Record and Stop: the person's own input in their focused tab becomes a flow (docs/flows.md, Recording),
 * saved into Downloads/tabpilot and kept in the panel's list of flows; the panel shows the file's name. A refusal (no tab, a recording going
 * already) shows as any answer does.
 */
export function FlowRecorder(props: {
  port: WorkerPort;
  described: Described;
  /** The recorded flow, for the panel to keep in its list. */
  onRecorded: (flow: unknown) => void;
}): preact.JSX.Element | null {
  const [recording, setRecording] = useState(false);
  const [busy, setBusy] = useState(false);
  const [response, setResponse] = useState<CommandResponse | undefined>(undefined);
  const [saved, setSaved] = useState<string | undefined>(undefined);
  if (!props.described.has('record_start') || !props.described.has('record_stop')) {
    return null;
  }
  const send = async (action: 'record_start' | 'record_stop'): Promise<void> => {
    setBusy(true);
    const answer = await props.port.request(action, {});
    setBusy(false);
    setResponse(answer.ok ? undefined : answer);
    if (answer.ok || action === 'record_stop') {
      setRecording(action === 'record_start' && answer.ok);
    }
    if (action === 'record_stop' && answer.ok) {
      setSaved(savedName(answer));
      props.onRecorded(fieldOf(answer.result, 'flow'));
    }
  };
  return (
    <section class="flow-recorder" aria-label="Record a flow">
      <div class="row">
        <button type="button" id="record-flow" disabled={busy || recording} onClick={() => void send('record_start')}>
          Record
        </button>
        <button
          type="button"
          id="stop-recording"
          disabled={busy || !recording}
          onClick={() => void send('record_stop')}
        >
          Stop
        </button>
        {recording && (
          <span id="recording-state" class="badge" role="status">
            recording
          </span>
        )}
        {!recording && saved !== undefined && (
          <span id="recorded-flow" class="muted" role="status">
            saved {saved}
          </span>
        )}
      </div>
      <ResponseView id="record-output" response={response} />
    </section>
  );
}
