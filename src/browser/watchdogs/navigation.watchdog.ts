import { CdpProtocolError } from '../../cdp/errors';
import { isTabpilotError, TabpilotError } from '../../shared/errors';
import { sleep } from '../../shared/time';
import { defaultReadinessMs, navigateAndWait, runAndWaitForCommit } from '../actions/navigation';
import { defineWatchdog, type WatchdogHandlerContext } from '../define-watchdog';
import {
  GoBackEvent,
  GoForwardEvent,
  NavigateToUrlEvent,
  NavigationCompleteEvent,
  NavigationStartedEvent,
  RefreshEvent,
  SearchEvent,
  WaitEvent,
  type NavigationOutcome,
  type WaitUntil,
} from '../../protocol/events/navigation.events';
import { SwitchTabEvent } from '../../protocol/events/tabs.events';
import { searchUrl } from '../search-url';
import { normalizeUrl } from '../url-guards';

const NEW_TAB_URLS = ['about:blank', 'chrome://newtab/', 'chrome://new-tab-page/', 'chrome://new-tab-page'];
const HISTORY_READINESS_MS = 8000;

type Emits = readonly [typeof NavigationStartedEvent, typeof NavigationCompleteEvent, typeof SwitchTabEvent];

/**
 * Moving a tab: navigate (in the tab, or a new one), search, the history moves, reload, and wait. Every
 * navigation runs between NavigationStartedEvent, awaited before anything is sent (so a policy handler
 * that throws stops it), and NavigationCompleteEvent. `go_back` at the first page is an error, not a
 * silent no-op as in browser-use.
 */
export const navigationWatchdog = defineWatchdog({
  name: 'navigation',
  listensTo: [NavigateToUrlEvent, SearchEvent, GoBackEvent, GoForwardEvent, RefreshEvent, WaitEvent],
  emits: [NavigationStartedEvent, NavigationCompleteEvent, SwitchTabEvent],
  setup: (ctx) => {
    const { targets, guard } = ctx.session;
    // The CDP call itself gets what the handler's timeout leaves after a second for the events around it.
    const navigateTimeoutMs = (): number => Math.max(1000, ctx.session.timeoutFor(NavigateToUrlEvent) - 1000);

    const navigate = async (
      hctx: WatchdogHandlerContext<Emits>,
      payload: {
        target_id: string;
        url: string;
        new_tab: boolean;
        wait_until: WaitUntil;
        timeout_ms?: number | undefined;
      },
    ): Promise<NavigationOutcome> => {
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
          navigateTimeoutMs: navigateTimeoutMs(),
          guard,
          signal: hctx.signal,
        }),
      );
    };

    const historyMove = async (
      hctx: WatchdogHandlerContext<Emits>,
      targetId: string,
      step: -1 | 1,
    ): Promise<NavigationOutcome> => {
      const history = await targets.requireSession(targetId).send('Page.getNavigationHistory');
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
          targets,
          targetId,
          (page) => page.send('Page.navigateToHistoryEntry', { entryId: entry.id }),
          {
            waitUntil: 'load',
            readinessMs: HISTORY_READINESS_MS,
            navigateTimeoutMs: navigateTimeoutMs(),
            guard,
            signal: hctx.signal,
          },
        ),
      );
    };

    return {
      NavigateToUrlEvent: (event, hctx) => navigate(hctx, event.payload),
      SearchEvent: (event, hctx) =>
        navigate(hctx, {
          url: searchUrl(event.payload.engine, event.payload.query),
          target_id: event.payload.target_id,
          new_tab: false,
          wait_until: 'load',
        }),
      GoBackEvent: (event, hctx) => historyMove(hctx, event.payload.target_id, -1),
      GoForwardEvent: (event, hctx) => historyMove(hctx, event.payload.target_id, 1),
      RefreshEvent: (event, hctx) => {
        const targetId = event.payload.target_id;
        const url = targets.target(targetId)?.url ?? '';
        return withNavigationEvents(hctx, targetId, url, () =>
          runAndWaitForCommit(targets, targetId, (page) => page.send('Page.reload', {}), {
            waitUntil: 'load',
            readinessMs: HISTORY_READINESS_MS,
            navigateTimeoutMs: navigateTimeoutMs(),
            guard,
            signal: hctx.signal,
          }),
        );
      },
      WaitEvent: async (event, hctx) => {
        await sleep(event.payload.seconds * 1000, hctx.signal);
        return { waited_seconds: event.payload.seconds };
      },
    };
  },
});

/**
 * Wraps one navigation in NavigationStartedEvent (awaited before anything is sent, so a handler that
 * throws stops it) and NavigationCompleteEvent (with the error when it failed).
 */
async function withNavigationEvents(
  hctx: WatchdogHandlerContext<Emits>,
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
