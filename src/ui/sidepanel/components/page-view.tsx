import { useState } from 'preact/hooks';
import type { CommandResponse } from '../../../protocol/commands';
import type { PanelStatus } from '../../../protocol/panel-messages';
import type { Described } from '../describe';
import { successLine } from '../result-words';
import { describeElement, optionTexts, parsePageState, screenshotUrl, type PageState } from '../page-state';
import type { WorkerPort } from '../port';
import { ElementActions } from './element-actions';
import { ResponseView } from './response-view';

/**
 * The page as the model sees it: the `state` action's indexed elements and screenshot. Hovering an
 * element highlights it in the page (`highlight`); selecting one offers the actions that fit it.
 */
export function PageView(props: {
  port: WorkerPort;
  described: Described | undefined;
  status: PanelStatus | undefined;
}): preact.JSX.Element {
  const [page, setPage] = useState<PageState | undefined>(undefined);
  const [withScreenshot, setWithScreenshot] = useState(true);
  const [selected, setSelected] = useState<number | undefined>(undefined);
  const [options, setOptions] = useState<string[] | undefined>(undefined);
  const [response, setResponse] = useState<CommandResponse | undefined>(undefined);
  const [summary, setSummary] = useState<string | undefined>(undefined);
  const [busy, setBusy] = useState(false);
  /** What Retry does: the last request this view sent. */
  const [retry, setRetry] = useState<(() => void) | undefined>(undefined);
  const { described, port } = props;
  if (described === undefined) {
    return <p class="muted">Loading…</p>;
  }
  if (!described.has('state')) {
    return (
      <p id="page-unavailable" class="muted">
        The page view needs the <code>state</code> action, which this build does not offer yet. The Actions tab runs
        every action it does offer.
      </p>
    );
  }
  const refresh = async (): Promise<void> => {
    setRetry(() => () => void refresh());
    setBusy(true);
    const answer = await port.request('state', { include_screenshot: withScreenshot });
    setBusy(false);
    const parsed = answer.ok ? parsePageState(answer.result) : undefined;
    if (parsed !== undefined) {
      setPage(parsed);
      setResponse(undefined);
    } else {
      setResponse(answer);
    }
  };
  const run = async (action: string, params: Record<string, unknown>): Promise<void> => {
    setRetry(() => () => void run(action, params));
    setBusy(true);
    const started = performance.now();
    const answer = await port.request(action, params);
    setBusy(false);
    setSummary(answer.ok ? successLine(action, params, answer.result, performance.now() - started) : undefined);
    setResponse(answer);
    if (answer.ok) {
      setSelected(undefined);
      setOptions(undefined);
      await refresh();
      setResponse(answer);
    }
  };
  const highlight = (index?: number): void => {
    if (described.has('highlight')) {
      void port.request('highlight', index === undefined ? {} : { index });
    }
  };
  const element = page?.elements?.find((candidate) => candidate.index === selected);
  const noTab = (props.status?.tabs.length ?? 0) === 0;
  const focused = props.status?.tabs.find((tab) => tab.focused);
  // The focused tab shows another page than the one read: its indexes no longer hold.
  const stale = page !== undefined && focused !== undefined && focused.url !== page.url;
  return (
    <section class="page-view">
      <div class="row">
        <button
          type="button"
          id="refresh-state"
          class="primary"
          disabled={busy || noTab}
          aria-describedby={noTab ? 'refresh-blocked' : undefined}
          onClick={() => void refresh()}
        >
          {page === undefined ? 'Read the page' : 'Refresh'}
        </button>
        <label class="inline">
          <input
            type="checkbox"
            id="include-screenshot"
            checked={withScreenshot}
            onChange={(event) => setWithScreenshot(event.currentTarget.checked)}
          />
          screenshot
        </label>
      </div>
      {noTab && (
        <p id="refresh-blocked" class="muted hint">
          No tab is controlled, so there is no page to read: attach a tab first (Attach current tab at the top).
        </p>
      )}
      {stale && (
        <p id="page-stale" class="banner warn" role="status">
          The tab now shows {focused.title || focused.url}; what is below is the page before. Refresh to read it.
        </p>
      )}
      {page !== undefined && (
        <p id="page-title" class="page-title" title={page.url}>
          {page.title || page.url}
        </p>
      )}
      {page?.screenshot !== undefined && page.screenshot !== null && (
        <img
          id="screenshot"
          class="screenshot"
          alt="What the page looks like to the model"
          src={screenshotUrl(page.screenshot)}
        />
      )}
      {element !== undefined && (
        <ElementActions
          element={element}
          described={described}
          options={options}
          run={(action, params) => void run(action, params)}
          loadOptions={() =>
            void port.request('dropdown_options', { index: element.index }).then((answer) => {
              setSummary(
                answer.ok ? successLine('dropdown_options', { index: element.index }, answer.result) : undefined,
              );
              setResponse(answer);
              setOptions(answer.ok ? optionTexts(answer.result) : undefined);
            })
          }
        />
      )}
      <ResponseView id="page-output" response={response} summary={summary} busy={busy} onRetry={retry} />
      {page !== undefined && (
        <ol
          id="elements"
          class="elements"
          role="listbox"
          aria-label="Elements of the page, by index"
          onMouseLeave={() => highlight()}
          onKeyDown={(event) => moveFocus(event)}
        >
          {(page.elements ?? []).map((candidate) => {
            const choose = (): void => {
              setSelected(candidate.index);
              setOptions(undefined);
            };
            return (
              <li
                key={candidate.index}
                data-index={candidate.index}
                role="option"
                tabIndex={0}
                aria-selected={candidate.index === selected}
                class={candidate.index === selected ? 'selected' : ''}
                onMouseEnter={() => highlight(candidate.index)}
                onFocus={() => highlight(candidate.index)}
                onClick={choose}
                onKeyDown={(event) => {
                  if (event.key === 'Enter' || event.key === ' ') {
                    event.preventDefault();
                    choose();
                  }
                }}
              >
                <span class="index">[{candidate.index}]</span> {describeElement(candidate)}
              </li>
            );
          })}
        </ol>
      )}
    </section>
  );
}

/** Up and down arrows move between element rows, as in any list a person picks from. */
function moveFocus(event: preact.TargetedKeyboardEvent<HTMLOListElement>): void {
  if (event.key !== 'ArrowDown' && event.key !== 'ArrowUp') {
    return;
  }
  const row = (event.target as HTMLElement).closest('li');
  const next = event.key === 'ArrowDown' ? row?.nextElementSibling : row?.previousElementSibling;
  if (next instanceof HTMLElement) {
    event.preventDefault();
    next.focus();
  }
}
