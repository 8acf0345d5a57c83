import { useState } from 'preact/hooks';
import type { CommandResponse } from '../../../protocol/commands';
import type { PanelStatus } from '../../../protocol/panel-messages';
import type { ActionInfo, Described } from '../describe';
import { successLine } from '../result-words';
import type { WorkerPort } from '../port';
import { asRecord } from '../schema';
import { ResponseView } from './response-view';
import { SchemaFields } from './schema-form';

/** Every protocol action, each with a form built from the JSON Schema `describe` gives for its params. */
export function ActionsView(props: {
  port: WorkerPort;
  described: Described | undefined;
  status: PanelStatus | undefined;
}): preact.JSX.Element {
  const [name, setName] = useState('navigate');
  const [params, setParams] = useState<Record<string, unknown>>({});
  const [response, setResponse] = useState<CommandResponse | undefined>(undefined);
  const [summary, setSummary] = useState<string | undefined>(undefined);
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
    const started = performance.now();
    const answer = await props.port.request(action.name, sent);
    setSummary(answer.ok ? successLine(action.name, sent, answer.result, performance.now() - started) : undefined);
    setResponse(answer);
    setBusy(false);
  };
  const blocked = whyNot(action, params, props.status);
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
        <button
          type="submit"
          id="run-action"
          class="primary"
          disabled={busy || blocked !== undefined}
          aria-describedby={blocked === undefined ? undefined : 'run-blocked'}
        >
          Run {action.name}
        </button>
        {blocked !== undefined && (
          <p id="run-blocked" class="muted hint">
            {blocked}
          </p>
        )}
      </form>
      <ResponseView
        id="action-output"
        response={response}
        summary={summary}
        busy={busy}
        busyText={`Running ${action.name}…`}
        onRetry={() => void run(params)}
      />
    </section>
  );
}

/**
 * Why an action cannot run now, or undefined when it can: one that acts in a tab (its params have a
 * tab_id) needs a controlled tab when none is named. Attach names a tab to take, not one it acts in.
 */
function whyNot(
  action: ActionInfo,
  params: Record<string, unknown>,
  status: PanelStatus | undefined,
): string | undefined {
  const actsInTab = action.name !== 'attach' && action.schema.properties?.['tab_id'] !== undefined;
  if (!actsInTab || params['tab_id'] !== undefined || (status?.tabs.length ?? 0) > 0) {
    return undefined;
  }
  return `No tab is controlled, so ${action.name} has nothing to act in: attach a tab first (Attach current tab at the top).`;
}
