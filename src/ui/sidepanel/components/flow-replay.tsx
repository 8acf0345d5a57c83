import { useState } from 'preact/hooks';
import { flowParams, flowSecrets, type Flow } from '../../../protocol/flow';
import { replayWords } from '../flows/flow-words';
import type { WorkerPort } from '../port';

/**
 * Replay of a kept flow on the person's focused tab, through the `replay` action: a field for each of
 * the flow's parameters (its default filled in; one left empty takes the default), the answer in words.
 * Secrets come from the settings' sensitive_data, in the worker, never typed here.
 */
export function FlowReplay(props: { port: WorkerPort; flow: Flow }): preact.JSX.Element {
  const { flow } = props;
  const params = flowParams(flow);
  const secrets = flowSecrets(flow);
  // What the person typed; a field they left shows the parameter's default (one made after the form opened too).
  const [typed, setTyped] = useState<Record<string, string>>({});
  const shown = (name: string): string => typed[name] ?? flow.defaults[name] ?? '';
  const [busy, setBusy] = useState(false);
  const [answer, setAnswer] = useState<{ passed: boolean; text: string } | undefined>(undefined);
  const replay = (): void => {
    setBusy(true);
    setAnswer(undefined);
    const given = Object.fromEntries(
      params.flatMap((name) => {
        const value = shown(name);
        return value === '' ? [] : [[name, value]];
      }),
    );
    // The run lane: a replay lasts as long as its steps, and holds back no other request of the panel.
    const started = props.port.start('replay', { flow, params: given }, 'run');
    void started.response.then((response) => {
      setBusy(false);
      setAnswer(response.ok ? replayWords(response.result) : { passed: false, text: response.error.message });
    });
  };
  return (
    <form
      id="replay-form"
      class="replay-form"
      aria-label="Replay this flow"
      onSubmit={(event) => {
        event.preventDefault();
        replay();
      }}
    >
      {params.map((name) => (
        <label key={name} class="field">
          <span class="field-name">{`{${name}}`}</span>
          <input
            type="text"
            data-param={name}
            value={shown(name)}
            onInput={(event) => setTyped({ ...typed, [name]: event.currentTarget.value })}
          />
        </label>
      ))}
      {secrets.length > 0 && (
        <p class="muted hint">
          Secrets ({secrets.join(', ')}) are typed from Settings › sensitive_data for the page's site.
        </p>
      )}
      <div class="row">
        <button type="submit" id="replay-flow" class="primary" disabled={busy}>
          {busy ? 'Replaying…' : 'Replay on the focused tab'}
        </button>
      </div>
      {answer !== undefined && (
        <p
          id="replay-result"
          class={answer.passed ? 'ok-line' : 'error-line'}
          data-passed={String(answer.passed)}
          role="status"
        >
          {answer.text}
        </p>
      )}
    </form>
  );
}
