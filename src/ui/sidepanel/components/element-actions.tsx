import { useState } from 'preact/hooks';
import type { Described } from '../describe';
import { fileContent } from '../file-bytes';
import { actionsFor, describeElement, type ElementActionName, type PageElement } from '../page-state';

const LABELS: Record<ElementActionName, string> = {
  click: 'Click',
  input: 'Type',
  select_dropdown: 'Select',
  upload_file: 'Upload',
};

/** The actions that fit one element, each run as its protocol action; unavailable ones say so. */
export function ElementActions(props: {
  element: PageElement;
  described: Described;
  run: (action: string, params: Record<string, unknown>) => void;
  options: string[] | undefined;
  loadOptions: () => void;
}): preact.JSX.Element {
  const [text, setText] = useState('');
  const [option, setOption] = useState('');
  const [uploadError, setUploadError] = useState('');
  const { element, described } = props;
  const index = element.index;
  const available = (action: string): boolean => described.has(action);
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
              {LABELS[action]}: not available yet (this build has no <code>{action}</code> action)
            </p>
          );
        }
        switch (action) {
          case 'click':
            return (
              <button key={action} type="button" data-action="click" onClick={() => props.run('click', { index })}>
                Click
              </button>
            );
          case 'input':
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
          case 'select_dropdown':
            return (
              <div key={action} class="row">
                {props.options === undefined ? (
                  <button
                    type="button"
                    data-action="dropdown_options"
                    disabled={!available('dropdown_options')}
                    onClick={props.loadOptions}
                  >
                    Show options
                  </button>
                ) : (
                  <select id="element-option" value={option} onChange={(event) => setOption(event.currentTarget.value)}>
                    <option value="">choose…</option>
                    {props.options.map((candidate) => (
                      <option key={candidate} value={candidate}>
                        {candidate}
                      </option>
                    ))}
                  </select>
                )}
                <button
                  type="button"
                  data-action="select_dropdown"
                  disabled={option === ''}
                  onClick={() => props.run('select_dropdown', { index, text: option })}
                >
                  Select
                </button>
              </div>
            );
          case 'upload_file':
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
        }
      })}
    </div>
  );
}
