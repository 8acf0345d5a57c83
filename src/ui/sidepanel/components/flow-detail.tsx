import { useState } from 'preact/hooks';
import type { Flow } from '../../../protocol/flow';
import { errorMessageOf } from '../../../shared/errors';
import { fieldOf } from '../../../shared/narrow';
import { deleteStep, parameterizeStep, renameFlow } from '../flows/flow-edits';
import type { FlowLibrary, KeptFlow } from '../flows/flow-library';
import { expectationWords, stepLine } from '../flows/flow-words';
import type { WorkerPort } from '../port';
import { FlowReplay } from './flow-replay';

/** A step whose value the person typed themselves, which they may make a parameter. */
function typesOwnValue(step: Flow['steps'][number]): boolean {
  return (step.action === 'fill' || step.action === 'select') && 'value' in step.input;
}

/**
 * One kept flow, opened: its steps in words, and what a person does with it: rename it, delete a step,
 * make a typed value a parameter (flow-edits.ts), export it as the flow file or a Playwright Test file,
 * delete it, and replay it on their focused tab.
 */
export function FlowDetail(props: {
  kept: KeptFlow;
  library: FlowLibrary;
  port: WorkerPort;
  canReplay: boolean;
  onDeleted: () => void;
}): preact.JSX.Element {
  const { kept, library } = props;
  const flow = kept.flow;
  const [name, setName] = useState(flow.name);
  const [naming, setNaming] = useState<number | undefined>(undefined);
  const [param, setParam] = useState('');
  const [problem, setProblem] = useState<string | undefined>(undefined);
  const [exported, setExported] = useState<string | undefined>(undefined);
  const [deleting, setDeleting] = useState(false);

  /** An edit is checked before it is kept: a refused one says why and changes nothing. */
  const edit = (change: (flow: Flow) => Flow, then?: () => void): void => {
    let next: Flow;
    try {
      next = change(flow);
    } catch (error) {
      setProblem(errorMessageOf(error));
      return;
    }
    library.update(kept.id, next).then(
      () => {
        setProblem(undefined);
        then?.();
      },
      (error: unknown) => setProblem(errorMessageOf(error)),
    );
  };
  const exportAs = (kind: 'json' | 'playwright'): void => {
    void props.port.exportFlow(flow, kind).then((answer) => {
      const path = answer.ok ? fieldOf(answer.result, 'path') : undefined;
      setExported(typeof path === 'string' ? `Saved ${path}` : undefined);
      setProblem(answer.ok ? undefined : answer.error.message);
    });
  };

  return (
    <section id="flow-detail" class="flow-detail" aria-label={`Flow ${flow.name}`}>
      <form
        class="row"
        id="rename-flow-form"
        onSubmit={(event) => {
          event.preventDefault();
          edit((current) => renameFlow(current, name));
        }}
      >
        <input
          type="text"
          id="flow-name-input"
          aria-label="Flow name"
          value={name}
          onInput={(event) => setName(event.currentTarget.value)}
        />
        <button type="submit" id="flow-rename" disabled={name.trim() === flow.name}>
          Rename
        </button>
      </form>
      <ol id="flow-steps" class="flow-steps">
        {flow.steps.map((step, index) => (
          <li key={`${index}:${stepLine(step, index)}`} data-step={index + 1}>
            <span class="step-line">{stepLine(step, index)}</span>
            {step.expect !== undefined && <span class="step-expect muted">{expectationWords(step.expect)}</span>}
            <span class="row step-edits">
              {typesOwnValue(step) && (
                <button
                  type="button"
                  class="parameterize-step"
                  aria-label={`Make the value of step ${index + 1} a parameter`}
                  onClick={() => {
                    setNaming(index);
                    setParam('');
                  }}
                >
                  Make a parameter
                </button>
              )}
              <button
                type="button"
                class="delete-step"
                aria-label={`Delete step ${index + 1}`}
                onClick={() => edit((current) => deleteStep(current, index))}
              >
                Delete step
              </button>
            </span>
            {naming === index && (
              <form
                class="row"
                id="parameterize-form"
                onSubmit={(event) => {
                  event.preventDefault();
                  edit(
                    (current) => parameterizeStep(current, index, param),
                    () => setNaming(undefined),
                  );
                }}
              >
                <input
                  type="text"
                  id="param-name"
                  aria-label="Parameter name"
                  placeholder="parameter name, e.g. email"
                  value={param}
                  onInput={(event) => setParam(event.currentTarget.value)}
                />
                <button type="submit" id="param-save">
                  Make it a parameter
                </button>
                <button type="button" onClick={() => setNaming(undefined)}>
                  Cancel
                </button>
              </form>
            )}
          </li>
        ))}
      </ol>
      {problem !== undefined && (
        <p id="flow-edit-error" class="error-line" role="alert">
          {problem}
        </p>
      )}
      <div class="row">
        <button type="button" id="export-flow-json" onClick={() => exportAs('json')}>
          Export flow file
        </button>
        <button type="button" id="export-flow-playwright" onClick={() => exportAs('playwright')}>
          Export Playwright test
        </button>
        {!deleting ? (
          <button type="button" id="delete-flow" onClick={() => setDeleting(true)}>
            Delete flow
          </button>
        ) : (
          <button
            type="button"
            id="delete-flow-confirm"
            class="danger"
            onClick={() => {
              library.remove(kept.id).then(props.onDeleted, (error: unknown) => setProblem(errorMessageOf(error)));
            }}
          >
            Delete "{flow.name}" for good
          </button>
        )}
      </div>
      {exported !== undefined && (
        <p id="flow-export-output" class="ok-line" role="status">
          {exported}
        </p>
      )}
      {props.canReplay && <FlowReplay port={props.port} flow={flow} />}
    </section>
  );
}
