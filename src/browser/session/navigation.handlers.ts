import type { HandlerContext } from '../../bus/event-bus';
import { CdpProtocolError } from '../../cdp/errors';
import { isTabpilotError, TabpilotError } from '../../shared/errors';
import { sleep } from '../../shared/time';
import { defaultReadinessMs, navigateAndWait, runAndWaitForCommit } from '../actions/navigation';
import {
  GoBackEvent,
  GoForwardEvent,
  NavigateToUrlEvent,
  NavigationCompleteEvent,
  NavigationStartedEvent,
  RefreshEvent,
  WaitEvent,
  type NavigationOutcome,
} from '../events/navigation.events';
import { SwitchTabEvent } from '../events/tabs.events';
import type { BrowserSession } from '../session';

const NEW_TAB_URLS = ['about:blank', 'chrome://newtab/', 'chrome://new-tab-page/', 'chrome://new-tab-page'];
const HISTORY_READINESS_MS = 8000;

/** BrowserSession's navigation handlers: navigate, history moves, reload, wait. */
export function registerNavigationHandlers(session: BrowserSession): void {
  const navigateTimeoutMs = (): number => Math.max(1000, session.bus.timeoutFor(NavigateToUrlEvent) - 1000);

  session.bus.on(
    NavigateToUrlEvent,
    async (event, ctx) => {
      const { url, wait_until, timeout_ms, new_tab } = event.payload;
      // Before a new tab opens for it; navigateAndWait checks again for the paths that skip this event.
      session.guard.check(url, session.targets.focusedTargetId ?? '');
      let targetId = await session.focusedTargetId();
      if (new_tab && !NEW_TAB_URLS.includes(session.targets.target(targetId)?.url ?? '')) {
        const page = await session.targets.createPage('about:blank');
        await ctx.emit(SwitchTabEvent, { target_id: page.targetId });
        targetId = page.targetId;
      }
      const fromUrl = session.targets.target(targetId)?.url ?? '';
      return navigateWithEvents(ctx, targetId, url, () =>
        navigateAndWait(session.targets, targetId, {
          url,
          waitUntil: wait_until,
          readinessMs: timeout_ms ?? defaultReadinessMs(fromUrl, url),
          navigateTimeoutMs: navigateTimeoutMs(),
          guard: session.guard,
          signal: ctx.signal,
        }),
      );
    },
    { name: 'BrowserSession.on_NavigateToUrlEvent' },
  );

  const historyMove =
    (step: -1 | 1) =>
    async (_event: unknown, ctx: HandlerContext): Promise<NavigationOutcome> => {
      const targetId = await session.focusedTargetId();
      const history = await session.targets.requireSession(targetId).send('Page.getNavigationHistory');
      const entry = history.entries[history.currentIndex + step];
      if (entry === undefined) {
        throw new TabpilotError(
          'NAVIGATION_FAILED',
          step < 0
            ? 'Cannot go back: this is the first page of the tab history'
            : 'Cannot go forward: this is the last page of the tab history',
        );
      }
      return navigateWithEvents(ctx, targetId, entry.url, () =>
        runAndWaitForCommit(
          session.targets,
          targetId,
          (cdp) => cdp.send('Page.navigateToHistoryEntry', { entryId: entry.id }),
          {
            waitUntil: 'load',
            readinessMs: HISTORY_READINESS_MS,
            navigateTimeoutMs: navigateTimeoutMs(),
            guard: session.guard,
            signal: ctx.signal,
          },
        ),
      );
    };
  session.bus.on(GoBackEvent, historyMove(-1), { name: 'BrowserSession.on_GoBackEvent' });
  session.bus.on(GoForwardEvent, historyMove(1), { name: 'BrowserSession.on_GoForwardEvent' });

  session.bus.on(
    RefreshEvent,
    async (_event, ctx) => {
      const targetId = await session.focusedTargetId();
      const url = session.targets.target(targetId)?.url ?? '';
      return navigateWithEvents(ctx, targetId, url, () =>
        runAndWaitForCommit(session.targets, targetId, (cdp) => cdp.send('Page.reload', {}), {
          waitUntil: 'load',
          readinessMs: HISTORY_READINESS_MS,
          navigateTimeoutMs: navigateTimeoutMs(),
          guard: session.guard,
          signal: ctx.signal,
        }),
      );
    },
    { name: 'BrowserSession.on_RefreshEvent' },
  );

  session.bus.on(
    WaitEvent,
    async (event, ctx) => {
      const seconds = Math.min(Math.max(event.payload.seconds, 0), event.payload.max_seconds);
      await sleep(seconds * 1000, ctx.signal);
    },
    { name: 'BrowserSession.on_WaitEvent' },
  );
}

/**
 * Wraps one navigation in NavigationStartedEvent (awaited before anything is sent, so a handler that
 * throws stops it) and NavigationCompleteEvent (with the error when it failed).
 */
async function navigateWithEvents(
  ctx: HandlerContext,
  targetId: string,
  url: string,
  navigate: () => Promise<NavigationOutcome>,
): Promise<NavigationOutcome> {
  await ctx.emit(NavigationStartedEvent, { target_id: targetId, url });
  let outcome: NavigationOutcome;
  try {
    outcome = await navigate();
  } catch (error) {
    const failure = asNavigationError(error, url);
    // Not awaited: the failure is what the caller needs now; the child still completes before the parent.
    ctx.emit(NavigationCompleteEvent, { target_id: targetId, url, error_message: failure.message });
    throw failure;
  }
  await ctx.emit(NavigationCompleteEvent, {
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
