import { useState } from 'preact/hooks';
import type { AgentKeysPresent } from '../../../protocol/panel-messages';
import type { WorkerPort } from '../port';
import { modelSettingsOf, originOf } from '../agent-settings';

/**
 * The agent's API key: a password field whose value goes to the worker's chrome.storage.local (never the
 * config, never synced, never shown again), and, for a model server that does not answer cross-origin
 * requests, a button that asks the person for access to that one origin (an optional host permission).
 */
export function AgentKeyField(props: {
  port: WorkerPort;
  config: Record<string, unknown> | undefined;
  keys: AgentKeysPresent | undefined;
}): preact.JSX.Element {
  const [key, setKey] = useState('');
  const [said, setSaid] = useState<{ ok: boolean; text: string } | undefined>(undefined);
  const model = modelSettingsOf(props.config);
  const present = props.keys?.[model.provider] ?? false;
  const origin = originOf(model);
  const save = async (value: string | null): Promise<void> => {
    const response = await props.port.saveAgentKey(model.provider, value);
    setKey('');
    setSaid(
      response.ok
        ? { ok: true, text: value === null ? 'Key removed.' : 'Key saved in this browser profile.' }
        : { ok: false, text: response.error.message },
    );
  };
  const allow = async (): Promise<void> => {
    const granted = await props.port.requestOrigin(origin);
    setSaid(
      granted
        ? { ok: true, text: `tabpilot may now reach ${origin}.` }
        : { ok: false, text: `Access to ${origin} was not granted; the server must then allow cross-origin requests.` },
    );
  };
  return (
    <form
      id="agent-key-form"
      class="agent-key"
      onSubmit={(event) => {
        event.preventDefault();
        void save(key);
      }}
    >
      <h2>Agent API key</h2>
      <p class="muted hint">
        For {model.provider} ({origin}). Kept only in this browser profile, outside the settings; never synced or shown
        again. A local server (Ollama, LM Studio) may need none.
      </p>
      <div class="row">
        <input
          id="agent-api-key"
          type="password"
          autocomplete="off"
          placeholder={present ? 'A key is saved; type to replace it' : 'API key'}
          value={key}
          onInput={(event) => setKey((event.target as HTMLInputElement).value)}
        />
        <button type="submit" id="save-agent-key" disabled={key.trim() === ''}>
          Save key
        </button>
      </div>
      <div class="row">
        <span id="agent-key-state" class="muted">
          {present ? `A key for ${model.provider} is saved.` : `No key for ${model.provider} is saved.`}
        </span>
        {present && (
          <button type="button" id="remove-agent-key" onClick={() => void save(null)}>
            Remove key
          </button>
        )}
        <button type="button" id="allow-model-origin" onClick={() => void allow()}>
          Allow access to this server
        </button>
      </div>
      {said !== undefined && (
        <p id="agent-key-result" class={said.ok ? 'ok' : 'error-line'} role="status">
          {said.text}
        </p>
      )}
    </form>
  );
}
