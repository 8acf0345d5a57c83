import { CdpTimeoutError } from '../../cdp/errors';
import { tabOf } from '../../cdp/session-manager';
import type { CdpSession } from '../../cdp/session';
import { errorMessageOf } from '../../shared/errors';
import { defineWatchdog } from '../define-watchdog';
import { crashedCondition, crashSuspension, unresponsiveCondition, unresponsiveSuspension } from './crash-conditions';
import { StuckRequests } from './stuck-requests';
import type { Admission } from './tab-conditions';
import { BrowserErrorEvent } from '../../protocol/events/lifecycle.events';
import { TabClosedEvent, TargetCrashedEvent } from '../../protocol/events/tabs.events';

/** How often open requests are checked against their bound. */
const REQUEST_SWEEP_MS = 250;
/** How long a refresh of a stuck page waits for its renderer to end before reloading anyway. */
const UNSTICK_WAIT_MS = 5000;

/**
 * CrashWatchdog (browser-use ships it switched off; ours is on). A crashed renderer (Inspector or Target
 * targetCrashed) marks its tab crashed at once, from the CDP event itself: the bus may be held by the
 * very command that now hangs (over chrome.debugger a crashed tab answers nothing until a reload), so
 * that command and every later one fail with TAB_CRASHED until `refresh` reloads the page. A bounded
 * health check (Runtime.evaluate, answered only by a free main thread) finds a stuck page the same way,
 * fails what waits on it, and lets `refresh` end the renderer before reloading. Requests open past a
 * bound are reported once and shown in the tab's state.
 */
export const crashWatchdog = defineWatchdog({
  name: 'crash',
  listensTo: [TargetCrashedEvent, TabClosedEvent],
  emits: [BrowserErrorEvent],
  enabled: (config) => config.crash.enabled,
  setup: (ctx) => {
    const { targets, conditions } = ctx.session;
    const config = (): typeof ctx.session.config.crash => ctx.session.config.crash;
    const tabId = (targetId: string): string => ctx.session.tabIdOf(targetId);
    const pinging = new Set<string>();
    const dialogs = new Set<string>();
    const requests = new StuckRequests();
    // Crashes seen on the CDP events, and how many of them were reported: Inspector and Target both
    // announce a crash (Node), and the bus event may be handled after the tab came back.
    const crashes = new Map<string, { seen: number; reported: number }>();
    // Bumped at every crash and recovery of a page: a health check sent before one says nothing after it.
    const epochs = new Map<string, number>();
    const epochOf = (targetId: string): number => epochs.get(targetId) ?? 0;
    const bump = (targetId: string): void => {
      epochs.set(targetId, epochOf(targetId) + 1);
    };
    const disposers: Array<() => void> = [];

    const markCrashed = (targetId: string): void => {
      if (conditions.get(targetId, 'crashed') !== undefined) {
        return;
      }
      bump(targetId);
      const count = crashes.get(targetId) ?? { seen: 0, reported: 0 };
      crashes.set(targetId, { ...count, seen: count.seen + 1 });
      conditions.clear(targetId, 'unresponsive');
      conditions.set(targetId, crashedCondition(tabId(targetId)));
      targets.suspendTarget(targetId, crashSuspension(tabId(targetId)));
    };
    const recovered = (targetId: string): void => {
      if (conditions.get(targetId, 'crashed') === undefined && conditions.get(targetId, 'unresponsive') === undefined) {
        return;
      }
      bump(targetId);
      conditions.clear(targetId, 'crashed');
      conditions.clear(targetId, 'unresponsive');
      targets.resumeTarget(targetId);
    };

    // Ends a stuck renderer so the refresh that follows loads a fresh one (Runtime.terminateExecution is
    // refused to extensions; Page.crash works over both transports and is answered by the crash event).
    const unstick = async (targetId: string, admission: Admission): Promise<void> => {
      const session = targets.sessionFor(targetId);
      if (session === undefined) {
        return;
      }
      const crashed = conditions.get(targetId, 'crashed') !== undefined;
      if (!crashed) {
        void session.call('Page.crash', undefined, { ignoreSuspension: true }).catch((error: unknown) => {
          ctx.log.debug('Page.crash got no answer (it never does)', { error: errorMessageOf(error) });
        });
        const until = Math.min(admission.deadline, Date.now() + UNSTICK_WAIT_MS);
        while (conditions.get(targetId, 'crashed') === undefined && Date.now() < until && !admission.signal.aborted) {
          await Promise.race([conditions.nextChange(), new Promise((resolve) => setTimeout(resolve, 100))]);
        }
      }
    };

    const ping = async (targetId: string, session: CdpSession): Promise<void> => {
      const bound = config().unresponsive_after_ms;
      const sentAt = Date.now();
      const epoch = epochOf(targetId);
      try {
        await session.call(
          'Runtime.evaluate',
          { expression: '0', returnByValue: true },
          // A health check, not a command: it does not keep the session from counting as idle.
          { timeoutMs: bound, ignoreSuspension: true, background: true },
        );
        if (epoch === epochOf(targetId) && conditions.get(targetId, 'unresponsive') !== undefined) {
          ctx.log.info('a stuck page answers again', { tab: tabId(targetId) });
          recovered(targetId);
        }
      } catch (error) {
        if (!(error instanceof CdpTimeoutError) || epoch !== epochOf(targetId)) {
          return;
        }
        if (conditions.get(targetId, 'unresponsive') === undefined && targets.sessionFor(targetId) !== undefined) {
          conditions.set(
            targetId,
            unresponsiveCondition(tabId(targetId), sentAt, (admission) => unstick(targetId, admission)),
          );
          targets.suspendTarget(targetId, unresponsiveSuspension(tabId(targetId), sentAt));
          ctx.emit(BrowserErrorEvent, {
            error_type: 'TargetUnresponsive',
            message: `Tab ${tabId(targetId)}'s page did not answer a health check within ${bound} ms: its main thread is stuck`,
            details: { target_id: targetId, waited_ms: bound },
          });
        }
      }
    };

    const checkHealth = (): void => {
      for (const page of targets.pages()) {
        const session = targets.sessionFor(page.targetId);
        if (
          session === undefined ||
          pinging.has(page.targetId) ||
          dialogs.has(page.targetId) ||
          conditions.get(page.targetId, 'crashed') !== undefined
        ) {
          continue;
        }
        pinging.add(page.targetId);
        void ping(page.targetId, session).finally(() => pinging.delete(page.targetId));
      }
    };

    const sweepRequests = (): void => {
      const bound = config().network_timeout_ms;
      if (bound === 0) {
        return;
      }
      for (const stuck of requests.sweep(Date.now(), bound)) {
        const seconds = Math.round(stuck.pendingMs / 1000);
        conditions.note(
          stuck.targetId,
          `request:${stuck.url}`,
          `${stuck.method} ${stuck.url} has had no answer for ${seconds}+ s`,
        );
        ctx.emit(BrowserErrorEvent, {
          error_type: 'NetworkTimeout',
          message: `Tab ${tabId(stuck.targetId)}: ${stuck.method} ${stuck.url} has had no answer for ${stuck.pendingMs} ms`,
          details: {
            target_id: stuck.targetId,
            url: stuck.url,
            method: stuck.method,
            resource_type: stuck.resourceType,
            pending_ms: stuck.pendingMs,
          },
        });
      }
    };

    disposers.push(
      targets.on('Inspector.targetCrashed', (_params, source) => {
        const targetId = tabOf(source);
        if (targetId !== undefined) {
          markCrashed(targetId);
        }
      }),
      targets.on('Target.targetCrashed', (params) => {
        if (targets.target(params.targetId) !== undefined) {
          markCrashed(params.targetId);
        }
      }),
      targets.on('Inspector.targetReloadedAfterCrash', (_params, source) => {
        const targetId = tabOf(source);
        if (targetId !== undefined) {
          recovered(targetId);
        }
      }),
      // Chromium does not always send targetReloadedAfterCrash (a renderer ended by Page.crash while stuck):
      // a new main document in a crashed page is the same news.
      targets.on('Page.frameNavigated', (params, source) => {
        const targetId = tabOf(source);
        if (
          targetId !== undefined &&
          params.frame.parentId === undefined &&
          source.target?.targetId === targetId &&
          conditions.get(targetId, 'crashed') !== undefined
        ) {
          recovered(targetId);
        }
      }),
      targets.on('Page.javascriptDialogOpening', (_params, source) => {
        const targetId = tabOf(source);
        if (targetId !== undefined) {
          dialogs.add(targetId);
        }
      }),
      targets.on('Page.javascriptDialogClosed', (_params, source) => {
        const targetId = tabOf(source);
        if (targetId !== undefined) {
          dialogs.delete(targetId);
        }
      }),
      targets.on('Network.requestWillBeSent', (params, source) => {
        const targetId = tabOf(source);
        // Favicons and other browser-initiated loads ("Other") often get no end event at all.
        if (targetId !== undefined && params.type !== undefined && params.type !== 'Other') {
          requests.started(
            `${source.session.sessionId}:${params.requestId}`,
            { targetId, url: params.request.url, method: params.request.method, resourceType: params.type ?? 'Other' },
            Date.now(),
          );
        }
      }),
      targets.on('Network.loadingFinished', (params, source) =>
        ended(`${source.session.sessionId}:${params.requestId}`, tabOf(source)),
      ),
      targets.on('Network.loadingFailed', (params, source) =>
        ended(`${source.session.sessionId}:${params.requestId}`, tabOf(source)),
      ),
      targets.addSessionSetup(async (session, target) => {
        if (config().network_timeout_ms > 0 && (target.type === 'page' || target.type === 'iframe')) {
          // Small buffers: the Network domain is on only to see requests start and end, not to keep bodies.
          await session.send('Network.enable', { maxTotalBufferSize: 1_000_000, maxResourceBufferSize: 100_000 });
        }
      }),
    );
    function ended(key: string, targetId: string | undefined): void {
      const url = requests.ended(key);
      if (url !== undefined && targetId !== undefined) {
        conditions.unnote(targetId, `request:${url}`);
      }
    }

    // Re-read each round, so a changed interval applies without re-attaching.
    let healthTimer: ReturnType<typeof setTimeout> | undefined;
    const scheduleHealth = (): void => {
      const interval = config().health_check_interval_ms;
      healthTimer = setTimeout(
        () => {
          if (interval > 0) {
            checkHealth();
          }
          scheduleHealth();
        },
        interval > 0 ? interval : 1000,
      );
    };
    scheduleHealth();
    const sweepTimer = setInterval(sweepRequests, REQUEST_SWEEP_MS);
    ctx.signal.addEventListener(
      'abort',
      () => {
        clearTimeout(healthTimer);
        clearInterval(sweepTimer);
        for (const dispose of disposers) {
          dispose();
        }
        for (const page of targets.pages()) {
          recovered(page.targetId);
        }
      },
      { once: true },
    );

    return {
      TargetCrashedEvent: (event, hctx) => {
        const { target_id, error } = event.payload;
        const count = crashes.get(target_id);
        if (count === undefined || count.reported >= count.seen) {
          return;
        }
        crashes.set(target_id, { ...count, reported: count.reported + 1 });
        hctx.emit(BrowserErrorEvent, {
          error_type: 'TargetCrash',
          message: `Tab ${tabId(target_id)}'s page crashed (${error}): refresh it to bring it back`,
          details: { target_id },
        });
      },
      TabClosedEvent: (event) => {
        const targetId = event.payload.target_id;
        requests.forgetTarget(targetId);
        dialogs.delete(targetId);
        epochs.delete(targetId);
        crashes.delete(targetId);
        conditions.clear(targetId, 'crashed');
        conditions.clear(targetId, 'unresponsive');
      },
    };
  },
});
