import { useState } from 'preact/hooks';
import type { CommandResponse } from '../../../protocol/commands';
import type { Described } from '../describe';
import type { WorkerPort } from '../port';
import { asRecord } from '../schema';
import { ResponseView } from './response-view';
import { SchemaFields } from './schema-form';

/** Every protocol action, each with a form built from the JSON Schema `describe` gives for its params. */
export function ActionsView(props: { port: WorkerPort; described: Described | undefined }): preact.JSX.Element {
  const [name, setName] = useState('navigate');
  const [params, setParams] = useState<Record<string, unknown>>({});
  const [response, setResponse] = useState<CommandResponse | undefined>(undefined);
  const [busy, setBusy] = useState(false);
  if (props.described === undefined) {
    return <p class="muted">Loading the actions…</p>;
  }
  const action = props.described.action(name) ?? props.described.actions[0];
  if (action === undefined) {
    return <p class="muted">The worker offers no actions.</p>;
  }
  const run = async (sent: Record<string, unknown>): Promise<void> => {
    setBusy(true);
    setResponse(await props.port.request(action.name, sent));
    setBusy(false);
  };
  const errorField = response?.ok === false ? (response.error.details?.['field'] as string | undefined) : undefined;
  return (
    <section class="actions-view">
      <label class="field">
        <span class="field-name">Action</span>
        <select
          id="action-select"
          value={action.name}
          onChange={(event) => {
            setName(event.currentTarget.value);
            setParams({});
            setResponse(undefined);
          }}
        >
          {props.described.actions.map((candidate) => (
            <option key={candidate.name} value={candidate.name}>
              {candidate.name}
            </option>
          ))}
        </select>
      </label>
      <p class="field-help">{action.description}</p>
      <form
        id="action-form"
        onSubmit={(event) => {
          event.preventDefault();
          void run(params);
        }}
      >
        <SchemaFields
          key={action.name}
          path=""
          schema={action.schema}
          value={params}
          errorField={errorField}
          onChange={(next) => setParams(asRecord(next))}
        />
        <button type="submit" id="run-action" class="primary" disabled={busy}>
          Run {action.name}
        </button>
      </form>
      <ResponseView id="action-output" response={response} busy={busy} onRetry={() => void run(params)} />
    </section>
  );
}
