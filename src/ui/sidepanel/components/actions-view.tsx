import { useEffect, useState } from 'preact/hooks';
import type { CommandResponse } from '../../../protocol/commands';
import type { PanelStatus } from '../../../protocol/panel-messages';
import { actionLabel, groupedActions, hiddenParams } from '../action-labels';
import type { ActionInfo, Described } from '../describe';
import { addressProblem } from '../address';
import { successLine } from '../result-words';
import { followResult, trackNextResult, type ResultTracking } from '../result-page';
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
  const [tracking, setTracking] = useState<ResultTracking | undefined>(undefined);
  const { status } = props;
  // A result stands for the tab and page it was about: once the person's tab or page changes, it is cleared.
  useEffect(
    () => setTracking((current) => (current === undefined ? current : followResult(current, status))),
    [status],
  );
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
    setTracking((previous) => trackNextResult(answer.ok ? answer.result : undefined, props.status, previous));
    setBusy(false);
  };
  const schema = withoutParams(action.schema, hiddenParams(action.name));
  const problem = typeof params['url'] === 'string' ? addressProblem(params['url']) : undefined;
  const blocked = problem ?? whyNot(action, params, props.status);
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
          {groupedActions(props.described.actions).map((group) => (
            <optgroup key={group.label} label={group.label}>
              {group.actions.map((candidate) => (
                <option key={candidate.name} value={candidate.name}>
                  {actionLabel(candidate.name)} ({candidate.name})
                </option>
              ))}
            </optgroup>
          ))}
        </select>
      </label>
      <p class="field-help">{action.description}</p>
      <form
        id="action-form"
        noValidate
        onSubmit={(event) => {
          event.preventDefault();
          void run(params);
        }}
      >
        <SchemaFields
          key={action.name}
          path=""
          schema={schema}
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
          Run: {actionLabel(action.name)}
        </button>
        {blocked !== undefined && (
          <p
            id="run-blocked"
            class={problem === undefined ? 'muted hint' : 'error-line'}
            role={problem === undefined ? undefined : 'alert'}
          >
            {blocked}
          </p>
        )}
      </form>
      {tracking?.stale === true && response !== undefined && !busy ? (
        <p class="muted" id="action-output-stale" role="status">
          {response?.ok === true ? `✓ ${summary ?? 'done'}` : `${actionLabel(action.name)} failed`}: a result of another
          page or tab, cleared as the page has changed since.
        </p>
      ) : (
        <ResponseView
          id="action-output"
          response={response}
          summary={summary}
          busy={busy}
          busyText={`Running ${actionLabel(action.name)}…`}
          onRetry={() => void run(params)}
        />
      )}
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

/** The params schema without the fields the form leaves out. */
function withoutParams(schema: ActionInfo['schema'], hidden: readonly string[]): ActionInfo['schema'] {
  if (hidden.length === 0 || schema.properties === undefined) {
    return schema;
  }
  const properties = Object.fromEntries(Object.entries(schema.properties).filter(([key]) => !hidden.includes(key)));
  return { ...schema, properties, required: schema.required?.filter((key) => !hidden.includes(key)) };
}
