import { useEffect, useState } from 'preact/hooks';
import type { Described } from '../describe';
import { fileContent } from '../file-bytes';
import { declarationOf, type ElementWidget } from '../../../protocol/actions';
import { actionsFor, describeElement, type ElementActionName, type PageElement } from '../page-state';

/** How the element view offers an action, as its declaration says. */
function elementFacts(action: ElementActionName): { widget: ElementWidget; button: string } | undefined {
  return declarationOf(action)?.panel.element;
}

/** The actions that fit one element, each run as its protocol action; unavailable ones say so. */
export function ElementActions(props: {
  element: PageElement;
  described: Described;
  run: (action: string, params: Record<string, unknown>) => void;
  options: string[] | undefined;
  loadOptions: () => void;
}): preact.JSX.Element {
  const { element, described } = props;
  const current = element.attributes?.['value'] ?? '';
  const [text, setText] = useState(element.tag.toLowerCase() === 'select' ? '' : current);
  const [uploadError, setUploadError] = useState('');
  const index = element.index;
  const available = (action: string): boolean => described.has(action);
  const selectable = actionsFor(element).includes('select_dropdown') && available('dropdown_options');
  // The options are read as soon as a select is chosen: picking one is then the one step left.
  useEffect(() => {
    if (selectable && props.options === undefined) {
      props.loadOptions();
    }
  }, [index]);
  const upload = async (input: HTMLInputElement): Promise<void> => {
    setUploadError('');
    try {
      const files = await Promise.all(Array.from(input.files ?? [], fileContent));
      if (files.length > 0) {
        props.run('upload_file', { index, files });
      }
    } catch (error) {
      setUploadError(error instanceof Error ? error.message : String(error));
    }
  };
  return (
    <div id="element-actions" class="element-actions" data-index={index}>
      <p class="element-line">
        <strong>[{index}]</strong> {describeElement(element)}
      </p>
      {actionsFor(element).map((action) => {
        if (!available(action)) {
          return (
            <p key={action} class="muted" data-unavailable={action}>
              {elementFacts(action)?.button ?? action}: not available yet (this build has no <code>{action}</code>{' '}
              action)
            </p>
          );
        }
        switch (elementFacts(action)?.widget) {
          case 'press':
            return (
              <button key={action} type="button" data-action="click" onClick={() => props.run('click', { index })}>
                Click
              </button>
            );
          case 'type':
            return (
              <div key={action} class="row">
                <input
                  id="element-text"
                  type="text"
                  placeholder="text to type"
                  value={text}
                  onInput={(event) => setText(event.currentTarget.value)}
                />
                <button
                  type="button"
                  data-action="input"
                  onClick={() => props.run('input', { index, text, clear: true })}
                >
                  Type
                </button>
              </div>
            );
          case 'choose':
            return (
              <div key={action} class="row">
                {props.options === undefined ? (
                  <span class="muted" id="element-options-loading">
                    {available('dropdown_options')
                      ? 'Reading the options…'
                      : 'The options cannot be read in this build'}
                  </span>
                ) : (
                  <label class="inline">
                    <span>Choose</span>
                    <select
                      id="element-option"
                      aria-label={`Option of [${index}]; choosing one selects it in the page`}
                      value={props.options.includes(current) ? current : ''}
                      onChange={(event) => {
                        const chosen = event.currentTarget.value;
                        if (chosen !== '' && chosen !== current) {
                          props.run('select_dropdown', { index, text: chosen });
                        }
                      }}
                    >
                      {!props.options.includes(current) && <option value="">choose…</option>}
                      {props.options.map((candidate) => (
                        <option key={candidate} value={candidate}>
                          {candidate === current ? `${candidate} (current)` : candidate}
                        </option>
                      ))}
                    </select>
                  </label>
                )}
              </div>
            );
          case 'upload':
            return (
              <div key={action} class="row">
                <input
                  id="element-file"
                  type="file"
                  multiple
                  aria-label="files to upload"
                  onChange={(event) => void upload(event.currentTarget)}
                />
                {uploadError === '' ? null : (
                  <p class="error-line" role="alert">
                    {uploadError}
                  </p>
                )}
              </div>
            );
          case undefined:
            return null;
        }
      })}
    </div>
  );
}
