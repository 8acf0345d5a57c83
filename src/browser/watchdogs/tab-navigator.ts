import { CdpProtocolError } from '../../cdp/errors';
import type { PayloadOf } from '../../protocol/define-event';
import { isTabpilotError, TabpilotError } from '../../shared/errors';
import { defaultReadinessMs, navigateAndWait, runAndWaitForCommit, type NavigateOptions } from '../actions/navigation';
import type { WatchdogHandlerContext } from '../define-watchdog';
import type { BrowserSessionView } from '../session-view';
import {
  NavigateToUrlEvent,
  NavigationCompleteEvent,
  NavigationStartedEvent,
  type NavigationOutcome,
  type SearchEvent,
  type WaitUntil,
} from '../../protocol/events/navigation.events';
import { SwitchTabEvent } from '../../protocol/events/tabs.events';
import { searchUrl } from '../search-url';
import { normalizeUrl } from '../url-guards';

const NEW_TAB_URLS = ['about:blank', 'chrome://newtab/', 'chrome://new-tab-page/', 'chrome://new-tab-page'];
const HISTORY_READINESS_MS = 8000;

/** The events the navigation watchdog emits. */
export const NAVIGATION_EVENTS = [NavigationStartedEvent, NavigationCompleteEvent, SwitchTabEvent] as const;

type NavigationContext = WatchdogHandlerContext<typeof NAVIGATION_EVENTS>;

/**
 * Moves a tab: navigate (in the tab, or a new one), search, the history moves and reload, each between
 * NavigationStartedEvent and NavigationCompleteEvent, emitted as children of the event that asked.
 */
export class TabNavigator {
  readonly #session: BrowserSessionView;

  constructor(session: BrowserSessionView) {
    this.#session = session;
  }

  async navigate(
    hctx: NavigationContext,
    payload: {
      target_id: string;
      url: string;
      new_tab: boolean;
      wait_until: WaitUntil;
      timeout_ms?: number | undefined;
    },
  ): Promise<NavigationOutcome> {
    const { targets, guard } = this.#session;
    const url = normalizeUrl(payload.url);
    // Before a new tab opens for it; navigateAndWait checks again for the paths that skip this event.
    guard.check(url, payload.target_id);
    let targetId = payload.target_id;
    if (payload.new_tab && !NEW_TAB_URLS.includes(targets.target(targetId)?.url ?? '')) {
      const page = await targets.createPage('about:blank');
      await hctx.emit(SwitchTabEvent, { target_id: page.targetId });
      targetId = page.targetId;
    }
    const fromUrl = targets.target(targetId)?.url ?? '';
    return withNavigationEvents(hctx, targetId, url, () =>
      navigateAndWait(targets, targetId, {
        url,
        waitUntil: payload.wait_until,
        readinessMs: payload.timeout_ms ?? defaultReadinessMs(fromUrl, url),
        navigateTimeoutMs: this.#navigateTimeoutMs(),
        guard,
        signal: hctx.signal,
      }),
    );
  }

  search(hctx: NavigationContext, payload: PayloadOf<typeof SearchEvent>): Promise<NavigationOutcome> {
    return this.navigate(hctx, {
      url: searchUrl(payload.engine, payload.query),
      target_id: payload.target_id,
      new_tab: false,
      wait_until: 'load',
    });
  }

  async historyMove(hctx: NavigationContext, targetId: string, step: -1 | 1): Promise<NavigationOutcome> {
    const history = await this.#session.targets.requireSession(targetId).send('Page.getNavigationHistory');
    const entry = history.entries[history.currentIndex + step];
    if (entry === undefined) {
      throw new TabpilotError(
        'NAVIGATION_FAILED',
        step < 0
          ? 'Cannot go back: this is the first page of the tab history'
          : 'Cannot go forward: this is the last page of the tab history',
      );
    }
    return withNavigationEvents(hctx, targetId, entry.url, () =>
      runAndWaitForCommit(
        this.#session.targets,
        targetId,
        (page) => page.send('Page.navigateToHistoryEntry', { entryId: entry.id }),
        this.#historyOptions(hctx.signal),
      ),
    );
  }

  refresh(hctx: NavigationContext, targetId: string): Promise<NavigationOutcome> {
    const { targets } = this.#session;
    const url = targets.target(targetId)?.url ?? '';
    return withNavigationEvents(hctx, targetId, url, () =>
      runAndWaitForCommit(targets, targetId, (page) => page.send('Page.reload', {}), this.#historyOptions(hctx.signal)),
    );
  }

  /** A history move and a reload wait for the page to load, within a fixed budget. */
  #historyOptions(signal: AbortSignal): Omit<NavigateOptions, 'url'> {
    return {
      waitUntil: 'load',
      readinessMs: HISTORY_READINESS_MS,
      navigateTimeoutMs: this.#navigateTimeoutMs(),
      guard: this.#session.guard,
      signal,
    };
  }

  // The CDP call itself gets what the handler's timeout leaves after a second for the events around it.
  #navigateTimeoutMs(): number {
    return Math.max(1000, this.#session.timeoutFor(NavigateToUrlEvent) - 1000);
  }
}

/**
 * Wraps one navigation in NavigationStartedEvent (awaited before anything is sent, so a handler that
 * throws stops it) and NavigationCompleteEvent (with the error when it failed).
 */
async function withNavigationEvents(
  hctx: NavigationContext,
  targetId: string,
  url: string,
  navigate: () => Promise<NavigationOutcome>,
): Promise<NavigationOutcome> {
  await hctx.emit(NavigationStartedEvent, { target_id: targetId, url });
  let outcome: NavigationOutcome;
  try {
    outcome = await navigate();
  } catch (error) {
    const failure = asNavigationError(error, url);
    // Not awaited: the failure is what the caller needs now; the child still completes before the parent.
    hctx.emit(NavigationCompleteEvent, { target_id: targetId, url, error_message: failure.message });
    throw failure;
  }
  await hctx.emit(NavigationCompleteEvent, {
    target_id: targetId,
    url: outcome.url,
    loading_status: outcome.loading_status,
  });
  return outcome;
}

function asNavigationError(error: unknown, url: string): Error {
  if (error instanceof CdpProtocolError) {
    return new TabpilotError('NAVIGATION_FAILED', `Navigation to ${url} failed: ${error.protocolMessage}`, {
      cause: error,
    });
  }
  if (isTabpilotError(error) || error instanceof Error) {
    return error;
  }
  return new TabpilotError('NAVIGATION_FAILED', String(error));
}
