import type { EventRecordView } from '../../bus/event-record';
import type { DomState } from '../../dom/dom-service';
import { findOnPage } from '../../dom/find-on-page';
import { errorMessageOf, TabpilotError } from '../../shared/errors';
import { withTimeout } from '../../shared/time';
import { defineWatchdog } from '../define-watchdog';
import { DialogOpenedEvent } from '../../protocol/events/dialogs.events';
import { BrowserReplacedEvent } from '../../protocol/events/connection.events';
import { BrowserErrorEvent } from '../../protocol/events/lifecycle.events';
import {
  BrowserStateRequestEvent,
  ConsoleErrorsSinceStateEvent,
  FindEvent,
  HighlightElementEvent,
  ScreenshotEvent,
  type BrowserStateSummary,
} from '../../protocol/events/state.events';
import { TabClosedEvent } from '../../protocol/events/tabs.events';
import type { BrowserSessionView } from '../session-view';
import { paginationButtons } from './pagination';
import type { DialogCondition, TabConditions } from '../guards/tab-conditions';

const RECENT_EVENTS = 10;
/** A page that opens dialogs in a loop must not grow the state without bound. */
const MAX_DIALOGS = 20;
/** What the state keeps of its handler timeout to answer with a non-actionable state instead of failing. */
const ANSWER_MARGIN_MS = 250;

/**
 * BrowserStateRequestEvent: the page as the model sees it (DomService), the tabs, the page geometry, and
 * a screenshot taken alongside when asked; and the highlight a person sees. A failed DOM capture still
 * gives a state (empty, with the error in browser_errors), as browser-use does; a page that does not
 * answer within the event's timeout gives a non-actionable one (no elements, state_error says why), so
 * nothing stale is acted on and the caller is never left hanging.
 */
export const domWatchdog = defineWatchdog({
  name: 'dom',
  listensTo: [
    BrowserStateRequestEvent,
    HighlightElementEvent,
    FindEvent,
    TabClosedEvent,
    DialogOpenedEvent,
    BrowserReplacedEvent,
  ],
  emits: [ScreenshotEvent, BrowserErrorEvent, ConsoleErrorsSinceStateEvent],
  setup: (ctx) => {
    const session = ctx.session;
    // Dialogs answered since the tab's last state: reported once, then forgotten (browser-use repeats
    // every past dialog in every later state).
    const dialogs = new Map<string, string[]>();
    // A browser replaced since the last state: said once, in the next state's browser_errors.
    let replaced: string | undefined;
    return {
      BrowserStateRequestEvent: async (event, hctx): Promise<BrowserStateSummary> => {
        const started = performance.now();
        const payload = event.payload;
        const targetId = payload.target_id;
        const dialog = session.conditions.get(targetId, 'dialog');
        if (dialog !== undefined) {
          return dialogState(session, targetId, dialog, takeDialogs(dialogs, targetId));
        }
        const config = session.config.state;
        const budgetMs = Math.max(ANSWER_MARGIN_MS, session.timeoutFor(BrowserStateRequestEvent) - ANSWER_MARGIN_MS);
        const capture = new AbortController();
        const stopCapture = (): void => capture.abort(hctx.signal.reason);
        hctx.signal.addEventListener('abort', stopCapture, { once: true });
        const screenshotStarted = performance.now();
        const screenshot = payload.include_screenshot
          ? hctx
              .emit(ScreenshotEvent, {
                target_id: targetId,
                format: config.screenshot_format,
                quality: config.screenshot_quality,
              })
              .result()
              .then((shot) => ({ shot, ms: performance.now() - screenshotStarted }))
          : undefined;
        const browserErrors: string[] = replaced === undefined ? [] : [replaced];
        replaced = undefined;
        let dom: DomState | undefined;
        try {
          if (payload.include_dom) {
            try {
              dom = await withTimeout(
                session.dom.state(targetId, {
                  viewportExpansion: payload.viewport_expansion ?? config.viewport_expansion,
                  maxChars: payload.max_chars ?? config.max_chars,
                  hiddenText: config.hidden_text,
                  signal: capture.signal,
                }),
                budgetMs,
                () => new TabpilotError('TIMEOUT', `the page gave no state within ${budgetMs} ms`),
              );
            } catch (error) {
              if (error instanceof TabpilotError && error.code === 'TIMEOUT') {
                capture.abort(error);
                session.dom.forget(targetId);
                screenshot?.catch((shotError: unknown) =>
                  ctx.log.debug('the screenshot of a state that timed out failed', {
                    error: errorMessageOf(shotError),
                  }),
                );
                return nonActionableState(session, targetId, error.message);
              }
              browserErrors.push(`DOM capture failed: ${errorMessageOf(error)}`);
              hctx.emit(BrowserErrorEvent, {
                error_type: 'DOMBuildFailed',
                message: errorMessageOf(error),
                details: {},
              });
            }
          }
          const shot = screenshot === undefined ? undefined : await screenshot;
          // Taken only for a state the client gets to read: a timed-out one leaves the count for the next.
          const consoleErrors = await hctx
            .emit(ConsoleErrorsSinceStateEvent, { target_id: targetId })
            .result()
            .then(
              (counted) => counted?.errors ?? 0,
              (error: unknown) => {
                ctx.log.warn('counting the console errors failed', { error: errorMessageOf(error) });
                return 0;
              },
            );
          return {
            ...summaryOf(session, targetId, dom),
            screenshot: shot?.shot?.data ?? null,
            screenshot_format: shot?.shot?.format ?? null,
            closed_popup_messages: takeDialogs(dialogs, targetId),
            console_errors: consoleErrors,
            browser_errors: [
              ...browserErrors,
              ...session.conditions.of(targetId).map((condition) => condition.reason),
              ...session.conditions.notesOf(targetId),
            ],
            recent_events: payload.include_recent_events ? recentEvents(session.recentEvents(RECENT_EVENTS)) : null,
            timings: {
              total_ms: Math.round(performance.now() - started),
              dom_ms: dom?.timings.total_ms ?? 0,
              in_page_ms: dom?.timings.in_page_ms ?? 0,
              screenshot_ms: Math.round(shot?.ms ?? 0),
            },
          };
        } finally {
          hctx.signal.removeEventListener('abort', stopCapture);
        }
      },
      HighlightElementEvent: async (event) => {
        const { target_id, index } = event.payload;
        await session.dom.highlight(target_id, index ?? null);
        return { highlighted: index ?? null };
      },
      FindEvent: (event) => {
        const { target_id, text, regex, case_sensitive, max_results, scroll_to } = event.payload;
        return findOnPage({ targets: session.targets, dom: session.dom, log: ctx.log }, target_id, {
          text,
          regex,
          caseSensitive: case_sensitive,
          maxResults: max_results,
          scrollTo: scroll_to,
        });
      },
      TabClosedEvent: (event) => {
        session.dom.forget(event.payload.target_id);
        dialogs.delete(event.payload.target_id);
      },
      BrowserReplacedEvent: (event) => {
        const lost = event.payload.lost_target_ids.map((targetId) => ctx.session.tabIdOf(targetId));
        replaced =
          `The browser was replaced: the connection to the previous one was lost (${event.payload.reason}) and this is ` +
          `another browser. ${lost.length === 0 ? 'Its tabs are gone' : `Its tabs (${lost.join(', ')}) are gone and answer TAB_NOT_FOUND`}; ` +
          'pages, logins and anything typed there must be done again.';
      },
      DialogOpenedEvent: (event) => {
        const { target_id, dialog_type, message, answer } = event.payload;
        const list = dialogs.get(target_id) ?? [];
        list.push(`[${dialog_type}] ${message} (${answer})`);
        dialogs.set(target_id, list.slice(-MAX_DIALOGS));
      },
    };
  },
});

/** A state built from what the capture gave (nothing, when it failed): every field of the summary. */
function summaryOf(session: BrowserSessionView, targetId: string, dom: DomState | undefined): BrowserStateSummary {
  const targets = session.targets;
  const target = targets.target(targetId);
  const metrics = dom?.metrics;
  const url = metrics?.url ?? target?.url ?? '';
  const viewportHeight = metrics?.viewportHeight ?? 0;
  const viewportWidth = metrics?.viewportWidth ?? 0;
  return {
    target_id: targetId,
    url,
    title: metrics?.title ?? target?.title ?? '',
    tabs: targets.pages().map((page) => ({
      target_id: page.targetId,
      url: page.url,
      title: page.title,
      ...statusOf(session.conditions, page.targetId),
    })),
    page_info: {
      viewport_width: viewportWidth,
      viewport_height: viewportHeight,
      page_width: metrics?.pageWidth ?? 0,
      page_height: metrics?.pageHeight ?? 0,
      scroll_x: metrics?.scrollX ?? 0,
      scroll_y: metrics?.scrollY ?? 0,
      pixels_above: metrics?.scrollY ?? 0,
      pixels_below: Math.max(0, (metrics?.pageHeight ?? 0) - (metrics?.scrollY ?? 0) - viewportHeight),
      pixels_left: metrics?.scrollX ?? 0,
      pixels_right: Math.max(0, (metrics?.pageWidth ?? 0) - (metrics?.scrollX ?? 0) - viewportWidth),
    },
    text: dom?.text ?? '',
    elements: (dom?.entries ?? []).map((entry) => ({
      index: entry.index,
      tag: entry.tag,
      role: entry.role,
      name: entry.name,
      attributes: entry.attributes,
      box: entry.box,
      is_new: entry.isNew,
    })),
    truncated: dom?.truncated ?? false,
    screenshot: null,
    screenshot_format: null,
    closed_popup_messages: [],
    open_dialog: null,
    pending_network_requests: (metrics?.pending ?? []).map((request) => ({
      url: request.url,
      method: 'GET',
      loading_duration_ms: request.loadingMs,
      resource_type: request.resourceType,
    })),
    pagination_buttons: paginationButtons(dom?.entries ?? []),
    browser_errors: [],
    console_errors: 0,
    downloaded_files: session.downloads.paths(),
    is_pdf_viewer: /\.pdf($|[?#])|\/pdf\//i.test(url),
    recent_events: null,
    page_stats: {
      elements: dom?.stats.elements ?? 0,
      interactive: dom?.stats.interactive ?? 0,
      iframes: dom?.stats.iframes ?? 0,
      shadow_roots: dom?.stats.shadowRoots ?? 0,
      images: dom?.stats.images ?? 0,
      links: dom?.stats.links ?? 0,
    },
    timings: { total_ms: 0, dom_ms: 0, in_page_ms: 0, screenshot_ms: 0 },
    state_error: null,
    document: dom?.document ?? null,
    // Set per client, where the client's last state is known (ClientConnection).
    changes: null,
  };
}

/** What a state that could not be taken in time looks like: no elements, so nothing stale is acted on. */
function nonActionableState(session: BrowserSessionView, targetId: string, error: string): BrowserStateSummary {
  return {
    ...summaryOf(session, targetId, undefined),
    browser_errors: [error],
    state_error: `The page did not answer in time (${error}). The elements are not known: wait, then take a new state.`,
  };
}

/**
 * The state of a tab a dialog blocks: its page answers nothing until the dialog is answered, so there
 * is no capture; the text says what the dialog asks and how to answer it.
 */
function dialogState(
  session: BrowserSessionView,
  targetId: string,
  condition: DialogCondition,
  answered: string[],
): BrowserStateSummary {
  const { dialog_type, message, default_prompt, url } = condition.dialog;
  return {
    ...summaryOf(session, targetId, undefined),
    text: condition.reason,
    closed_popup_messages: answered,
    open_dialog: { dialog_type, message, default_prompt, url },
    browser_errors: session.conditions.of(targetId).map((entry) => entry.reason),
  };
}

function statusOf(
  conditions: TabConditions,
  targetId: string,
): { status: BrowserStateSummary['tabs'][number]['status']; status_reason: string | null } {
  const { status, reason } = conditions.status(targetId);
  return { status, status_reason: reason };
}

function takeDialogs(dialogs: Map<string, string[]>, targetId: string): string[] {
  const list = dialogs.get(targetId) ?? [];
  dialogs.delete(targetId);
  return list;
}

function recentEvents(views: readonly EventRecordView[]): string {
  return JSON.stringify(
    views.map((view) => {
      const payload = (view.payload ?? {}) as Record<string, unknown>;
      return {
        event_type: view.type,
        timestamp: new Date(view.created_at).toISOString(),
        ...(typeof payload['url'] === 'string' ? { url: payload['url'] } : {}),
        ...(typeof payload['target_id'] === 'string' ? { target_id: payload['target_id'] } : {}),
        ...(typeof payload['message'] === 'string' ? { error_message: payload['message'] } : {}),
      };
    }),
  );
}
