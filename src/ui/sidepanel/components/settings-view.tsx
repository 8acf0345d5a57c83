import { useState } from 'preact/hooks';
import type { SettingsError } from '../../../protocol/panel-messages';
import type { Described } from '../describe';
import type { WorkerPort } from '../port';
import { asRecord } from '../schema';
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
  return (
    <>
      <StorageStateView port={props.port} described={props.described} />
      <form
        id="settings-form"
        class="settings-view"
        onSubmit={(event) => {
          event.preventDefault();
          void save();
        }}
      >
        <p class="muted">Stored in this browser profile and applied at once, without a reload.</p>
        <SchemaFields
          key={generation}
          path=""
          schema={props.described.configSchema}
          value={value}
          errorField={errorField}
          onChange={(next) => setValue(asRecord(next))}
        />
        <div class="row sticky-actions">
          <button type="submit" id="save-settings" class="primary">
            Save settings
          </button>
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
