import { useState } from 'preact/hooks';
import type { AgentKeysPresent, SettingsError } from '../../../protocol/panel-messages';
import { AgentKeyField } from './agent-key-field';
import type { Described } from '../describe';
import type { WorkerPort } from '../port';
import { asRecord } from '../schema';
import { settingsGroups } from '../settings-groups';
import { SchemaFields } from './schema-form';
import { StorageStateView } from './storage-state-view';

/**
 * The config as a form built from its JSON Schema (`describe` → config_schema), so a field a later part
 * adds appears here by itself. Saving sends it to the worker, which validates, stores it in
 * chrome.storage.local and applies it at once; a refused value names its field.
 */
export function SettingsView(props: {
  port: WorkerPort;
  described: Described | undefined;
  config: Record<string, unknown> | undefined;
  agentKeys?: AgentKeysPresent | undefined;
}): preact.JSX.Element {
  const [shown, setShown] = useState(props.config);
  const [value, setValue] = useState<Record<string, unknown>>(props.config ?? {});
  const [generation, setGeneration] = useState(0);
  const [outcome, setOutcome] = useState<{ ok: true } | { ok: false; error: SettingsError } | undefined>(undefined);
  if (props.config !== shown) {
    // The worker's config changed (saved here or in another window's panel): show it afresh.
    setShown(props.config);
    setValue(props.config ?? {});
    setGeneration(generation + 1);
  }
  if (props.described === undefined || props.config === undefined) {
    return <p class="muted">Loading the settings…</p>;
  }
  const save = async (): Promise<void> => {
    setOutcome(await props.port.saveSettings(value));
  };
  const errorField = outcome?.ok === false ? outcome.error.field : undefined;
  const { groups, hidden } = settingsGroups(props.described.configSchema);
  const unsaved = JSON.stringify(value) !== JSON.stringify(props.config);
  const reset = (): void => {
    setValue(props.config ?? {});
    setGeneration(generation + 1);
    setOutcome(undefined);
  };
  return (
    <>
      <StorageStateView port={props.port} described={props.described} />
      <AgentKeyField port={props.port} config={props.config} keys={props.agentKeys} />
      <form
        id="settings-form"
        class="settings-view"
        noValidate
        onSubmit={(event) => {
          event.preventDefault();
          void save();
        }}
      >
        <p class="muted">Stored in this browser profile and applied at once, without a reload.</p>
        {hidden.length > 0 && (
          <p id="settings-node-only" class="muted hint">
            {hidden.length} setting(s) only the Node tools read are left out here ({hidden.join(', ')}).
          </p>
        )}
        {groups.map((group) => (
          <details
            key={`${group.id}-${generation}`}
            class="settings-group"
            data-group={group.id}
            open={group.id === 'general'}
          >
            <summary>{group.label}</summary>
            <SchemaFields
              path=""
              schema={group.schema}
              value={value}
              errorField={errorField}
              onChange={(next) => {
                setValue(asRecord(next));
                setOutcome(undefined);
              }}
            />
          </details>
        ))}
        <div class="row sticky-actions">
          <button type="submit" id="save-settings" class="primary">
            Save settings
          </button>
          <button type="button" id="reset-settings" disabled={!unsaved} onClick={reset}>
            Reset
          </button>
          {unsaved && outcome === undefined && (
            <span id="settings-unsaved" class="warn-text" role="status">
              Unsaved changes
            </span>
          )}
          {outcome !== undefined && (
            <span id="settings-result" class={outcome.ok ? 'ok' : 'error-line'} role="status">
              {outcome.ok ? 'Saved and applied.' : outcome.error.message}
            </span>
          )}
        </div>
      </form>
    </>
  );
}
