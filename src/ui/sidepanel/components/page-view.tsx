import { useEffect, useState } from 'preact/hooks';
import type { CommandResponse } from '../../../protocol/commands';
import type { PanelStatus } from '../../../protocol/panel-messages';
import type { Described } from '../describe';
import { successLine } from '../result-words';
import { optionTexts, parsePageState, type PageState } from '../page-state';
import type { WorkerPort } from '../port';
import { ElementActions } from './element-actions';
import { ElementList } from './element-list';
import { PageScreenshot } from './page-screenshot';
import { ResponseView } from './response-view';

/**
 * The page as the model sees it: the `state` action's indexed elements and screenshot (with the indexes
 * drawn). Pointing at an element highlights it in the page (`highlight`) and marks it on the screenshot;
 * choosing one offers the actions that fit it. After an action of its own it reads the page again, and
 * once more when the action took the tab to another page (a submit), so what it shows is the page after.
 */
export function PageView(props: {
  port: WorkerPort;
  described: Described | undefined;
  status: PanelStatus | undefined;
}): preact.JSX.Element {
  const [page, setPage] = useState<PageState | undefined>(undefined);
  const [wholePage, setWholePage] = useState(false);
  const [withScreenshot, setWithScreenshot] = useState(true);
  const [selected, setSelected] = useState<number | undefined>(undefined);
  const [pointed, setPointed] = useState<number | undefined>(undefined);
  const [options, setOptions] = useState<string[] | undefined>(undefined);
  const [response, setResponse] = useState<CommandResponse | undefined>(undefined);
  const [summary, setSummary] = useState<string | undefined>(undefined);
  const [busy, setBusy] = useState(false);
  /** The page an action of this view started on: a different one in the tab means it navigated. */
  const [actedOn, setActedOn] = useState<string | undefined>(undefined);
  /** What Retry does: the last request this view sent. */
  const [retry, setRetry] = useState<(() => void) | undefined>(undefined);
  const { described, port } = props;
  const focused = props.status?.tabs.find((tab) => tab.focused);

  const refresh = async (whole = wholePage): Promise<PageState | undefined> => {
    setRetry(() => () => void refresh(whole));
    setBusy(true);
    const answer = await port.request('state', {
      include_screenshot: withScreenshot,
      ...(whole ? { viewport_expansion: -1 } : {}),
    });
    setBusy(false);
    const parsed = answer.ok ? parsePageState(answer.result) : undefined;
    if (parsed !== undefined) {
      setPage(parsed);
      setWholePage(whole);
      setResponse(undefined);
    } else {
      setResponse(answer);
    }
    return parsed;
  };

  // The action took the tab to another page: read that one once it is there.
  const navigatedAway = actedOn !== undefined && focused !== undefined && focused.url !== actedOn && !busy;
  useEffect(() => {
    if (navigatedAway) {
      setActedOn(undefined);
      void refresh();
    }
  }, [navigatedAway]);

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
  const run = async (action: string, params: Record<string, unknown>): Promise<void> => {
    setRetry(() => () => void run(action, params));
    setBusy(true);
    setActedOn(page?.url);
    const started = performance.now();
    const answer = await port.request(action, params);
    setBusy(false);
    setSummary(answer.ok ? successLine(action, params, answer.result, performance.now() - started) : undefined);
    setResponse(answer);
    if (answer.ok) {
      setSelected(undefined);
      setOptions(undefined);
      const after = await refresh();
      setResponse(answer);
      if (after !== undefined && after.url !== page?.url) {
        // Read on the page the action led to already.
        setActedOn(undefined);
      }
    } else {
      setActedOn(undefined);
    }
  };
  const point = (index?: number): void => {
    setPointed(index);
    if (described.has('highlight')) {
      void port.request('highlight', index === undefined ? {} : { index });
    }
  };
  const choose = (index: number): void => {
    setSelected(index);
    setOptions(undefined);
  };
  const element = page?.elements?.find((candidate) => candidate.index === selected);
  const noTab = (props.status?.tabs.length ?? 0) === 0;
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
          onClick={() => {
            setActedOn(undefined);
            void refresh();
          }}
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
        <PageScreenshot page={page} screenshot={page.screenshot} marked={pointed ?? selected} onChoose={choose} />
      )}
      {element !== undefined && (
        <ElementActions
          key={element.index}
          element={element}
          described={described}
          options={options}
          run={(action, params) => void run(action, params)}
          loadOptions={() =>
            void port.request('dropdown_options', { index: element.index }).then((answer) => {
              setOptions(answer.ok ? optionTexts(answer.result) : undefined);
              if (!answer.ok) {
                setSummary(undefined);
                setResponse(answer);
              }
            })
          }
        />
      )}
      <ResponseView id="page-output" response={response} summary={summary} busy={busy} onRetry={retry} />
      {page !== undefined && (
        <ElementList
          page={page}
          wholePage={wholePage}
          selected={selected}
          busy={busy}
          onChoose={choose}
          onPoint={point}
          onReadWholePage={() => void refresh(true)}
          onScrollDown={() => void run('scroll', { direction: 'down' })}
        />
      )}
    </section>
  );
}
