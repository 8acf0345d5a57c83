import { useMemo, useState } from 'preact/hooks';
import { errorMessageOf } from '../../../shared/errors';
import type { Described } from '../describe';
import { chromeFlowStorage, FlowLibrary, MAX_KEPT_FLOWS, type KeptFlow } from '../flows/flow-library';
import { readFlowFile } from '../flows/flow-files';
import { useKeptFlows } from '../flows/use-kept-flows';
import type { WorkerPort } from '../port';
import { whenLine } from '../run-records';
import { FlowDetail } from './flow-detail';
import { FlowRecorder } from './flow-recorder';

/**
 * The person's flows (docs/flows.md): Record and Stop, the flows the panel keeps (each recorded here and
 * each file imported), newest first; opening one shows its steps to read, edit, export and replay.
 */
export function FlowsView(props: { port: WorkerPort; described: Described | undefined }): preact.JSX.Element {
  const library = useMemo(() => new FlowLibrary(chromeFlowStorage()), []);
  const kept = useKeptFlows(library);
  const [openId, setOpenId] = useState<string | undefined>(undefined);
  const [problem, setProblem] = useState<string | undefined>(undefined);
  const keep = (flow: unknown, source: KeptFlow['source']): void => {
    library.add(flow, source).then(
      (added) => {
        setProblem(undefined);
        setOpenId(added.id);
      },
      (error: unknown) => setProblem(errorMessageOf(error)),
    );
  };
  const importFile = (input: HTMLInputElement): void => {
    const file = input.files?.[0];
    input.value = '';
    if (file !== undefined) {
      readFlowFile(file).then(
        (flow) => keep(flow, 'imported'),
        (error: unknown) => setProblem(errorMessageOf(error)),
      );
    }
  };
  const open = kept?.find((entry) => entry.id === openId);
  return (
    <section class="flows-view" id="flows-view">
      {props.described !== undefined && (
        <FlowRecorder port={props.port} described={props.described} onRecorded={(flow) => keep(flow, 'recorded')} />
      )}
      <div class="row">
        <label class="inline">
          Import a flow file{' '}
          <input
            type="file"
            id="flow-import"
            accept=".json,application/json"
            onChange={(e) => importFile(e.currentTarget)}
          />
        </label>
      </div>
      {problem !== undefined && (
        <p id="flows-error" class="error-line" role="alert">
          {problem}
        </p>
      )}
      {kept !== undefined && kept.length === 0 && (
        <p id="flows-empty" class="muted hint">
          No flows yet: Record one above, or import a flow file. The panel keeps up to {MAX_KEPT_FLOWS}.
        </p>
      )}
      <ul id="flow-list" class="flow-list">
        {kept?.map((entry) => (
          <li key={entry.id} data-flow-id={entry.id} class={entry.id === openId ? 'selected' : undefined}>
            <button
              type="button"
              class="open-flow link"
              onClick={() => setOpenId(entry.id === openId ? undefined : entry.id)}
            >
              {entry.flow.name}
            </button>
            <span class="flow-meta muted">
              {entry.flow.steps.length} step{entry.flow.steps.length === 1 ? '' : 's'} · {entry.source}{' '}
              {whenLine(entry.kept_at)}
            </span>
          </li>
        ))}
      </ul>
      {open !== undefined && (
        <FlowDetail
          key={open.id}
          kept={open}
          library={library}
          port={props.port}
          canReplay={props.described?.has('replay') === true}
          onDeleted={() => setOpenId(undefined)}
        />
      )}
    </section>
  );
}
