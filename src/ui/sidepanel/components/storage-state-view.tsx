import { useState } from 'preact/hooks';
import type { CommandResponse } from '../../../protocol/commands';
import type { Described } from '../describe';
import type { WorkerPort } from '../port';
import { exportFileName, readStateFile } from '../storage-state-file';
import { ResponseView } from './response-view';

/**
 * Export and import of the browser's cookies and the controlled tabs' localStorage, in Playwright's
 * storageState format: an export is saved into Downloads/tabpilot under a new name; an import reads a
 * file the person picks (from anywhere) and sends its content, which the worker checks whole first.
 */
export function StorageStateView(props: { port: WorkerPort; described: Described }): preact.JSX.Element | null {
  const [response, setResponse] = useState<CommandResponse | undefined>(undefined);
  const [busy, setBusy] = useState(false);
  const [fileError, setFileError] = useState('');
  if (!props.described.has('save_storage_state') || !props.described.has('load_storage_state')) {
    return null;
  }
  const run = async (send: () => Promise<CommandResponse>): Promise<void> => {
    setBusy(true);
    setFileError('');
    setResponse(await send());
    setBusy(false);
  };
  const importFile = async (input: HTMLInputElement): Promise<void> => {
    const file = input.files?.[0];
    input.value = '';
    if (file === undefined) {
      return;
    }
    let state: unknown;
    try {
      state = await readStateFile(file);
    } catch (error) {
      setResponse(undefined);
      setFileError(error instanceof Error ? error.message : String(error));
      return;
    }
    await run(() => props.port.request('load_storage_state', { state }));
  };
  return (
    <section class="storage-state" aria-labelledby="storage-state-title">
      <h3 id="storage-state-title">Cookies and storage</h3>
      <p class="muted">
        Playwright's storageState file: exports go to Downloads/tabpilot; an import loads cookies into the browser and
        localStorage into the tabs of each origin.
      </p>
      <div class="row">
        <button
          type="button"
          id="export-storage-state"
          disabled={busy}
          onClick={() => void run(() => props.port.request('save_storage_state', { path: exportFileName(new Date()) }))}
        >
          Export
        </button>
        <label class="field">
          <span>Import…</span>
          <input
            id="import-storage-state"
            type="file"
            accept="application/json,.json"
            aria-label="storage state file to import"
            disabled={busy}
            onChange={(event) => void importFile(event.currentTarget)}
          />
        </label>
      </div>
      {fileError === '' ? null : (
        <p id="storage-state-file-error" class="error-line" role="alert">
          {fileError}
        </p>
      )}
      <ResponseView id="storage-state-output" response={response} busy={busy} />
    </section>
  );
}
