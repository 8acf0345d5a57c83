import type { CdpSession } from '../../cdp/session';
import type { IndicatorValueFunctions } from '../../dom/payload';
import { pageFunctions } from '../../dom/page-bridge';
import { bestEffort } from '../../shared/logger';
import { defineWatchdog } from '../define-watchdog';
import { ControlStopRequestedEvent } from '../../protocol/events/indicator.events';
import { ReleaseTabEvent } from '../../protocol/events/tabs.events';

/** How long one renewal keeps the indicator up: past it, a tab tabpilot silently lost shows none. */
const LEASE_MS = 6_000;
/** Renewals come three times per lease, so one late renewal on a busy machine does not blink it. */
const RENEW_MS = 2_000;
/** How long one wait for Stop lasts in the page before it answers "idle" (under the CDP command timeout). */
const STOP_WAIT_MS = 20_000;

/**
 * The indicator's upkeep is not the session's commands: its calls are `background`, so a session that
 * only renews its indicators counts as idle (a recording takes frames at its full rate then).
 */
const INDICATOR = pageFunctions<IndicatorValueFunctions, Record<never, never>>({ background: true });

/**
 * The in-page indicator on every controlled tab: a border and a badge with its own Stop
 * (src/dom/in-page/indicator.ts), in tabpilot's one world of the tab's top frame, shown at the start of
 * every new document and in the one open at attach, renewed while the tab is controlled and removed when
 * it is released. A call waits in each document's world for Stop; a person's press answers it, and is
 * announced as ControlStopRequestedEvent, which the entry answers with the emergency stop.
 */
export const controlIndicatorWatchdog = defineWatchdog({
  name: 'control-indicator',
  listensTo: [ReleaseTabEvent],
  emits: [ControlStopRequestedEvent],
  enabled: (config) => config.control_indicator,
  setup: (ctx) => {
    const targets = ctx.session.targets;
    const scripts = new Map<string, { session: CdpSession; identifier: string }>();
    /** The world each tab has a call waiting for Stop in. */
    const waiting = new Map<string, number>();

    const waitForStop = (session: CdpSession, targetId: string, contextId: number): void => {
      if (waiting.get(targetId) === contextId) {
        return;
      }
      waiting.set(targetId, contextId);
      const wait = async (): Promise<void> => {
        try {
          // Pending for as long as nobody presses Stop.
          const answer = await INDICATOR.with({ timeoutMs: STOP_WAIT_MS + 10_000, signal: ctx.signal }).callInContext(
            session,
            contextId,
            'indicatorStopPressed',
            STOP_WAIT_MS,
          );
          if (answer === 'stop' && !ctx.signal.aborted) {
            ctx.log.info('Stop pressed on the in-page indicator', { target: targetId });
            await ctx.emit(ControlStopRequestedEvent, { target_id: targetId }).result();
          }
        } finally {
          // Answered, or its document is gone: the next renewal waits again in the tab's current world.
          if (waiting.get(targetId) === contextId) {
            waiting.delete(targetId);
          }
        }
      };
      void bestEffort(wait(), ctx.log, 'waiting for the in-page Stop');
    };

    const renew = async (session: CdpSession, targetId: string): Promise<void> => {
      const { contextId } = await INDICATOR.callInFrameWorld(session, 'indicatorRenew', LEASE_MS);
      waitForStop(session, targetId, contextId);
    };

    const disposeSetup = targets.addSessionSetup(async (session, target) => {
      if (target.type !== 'page') {
        return;
      }
      const identifier = await INDICATOR.atDocumentStart(session, 'top', 'indicatorRenew', LEASE_MS);
      scripts.set(target.targetId, { session, identifier });
      await renew(session, target.targetId);
    });
    const timer = setInterval(() => {
      for (const page of targets.pages()) {
        const session = targets.sessionFor(page.targetId);
        if (session !== undefined) {
          void bestEffort(renew(session, page.targetId), ctx.log, 'renewing the in-page indicator');
        }
      }
    }, RENEW_MS);
    const remove = async (session: CdpSession): Promise<void> => {
      await INDICATOR.callInFrame(session, 'indicatorRemove');
    };

    ctx.signal.addEventListener(
      'abort',
      () => {
        clearInterval(timer);
        disposeSetup();
        // Turned off in the config: take it down in every tab and install it in no new document.
        for (const { session, identifier } of scripts.values()) {
          void bestEffort(
            session.send('Page.removeScriptToEvaluateOnNewDocument', { identifier }),
            ctx.log,
            'forgetting the indicator script',
          );
          void bestEffort(remove(session), ctx.log, 'removing the in-page indicator');
        }
        scripts.clear();
      },
      { once: true },
    );

    return {
      // Runs before the tab is let go (this watchdog comes before the tabs watchdog), while its session still answers.
      ReleaseTabEvent: async (event) => {
        const only = event.payload.target_id;
        const released = only === undefined ? targets.pages().map((page) => page.targetId) : [only];
        await Promise.all(
          released.map(async (targetId) => {
            const session = targets.sessionFor(targetId);
            scripts.delete(targetId);
            if (session !== undefined) {
              await bestEffort(remove(session), ctx.log, 'removing the in-page indicator');
            }
          }),
        );
      },
    };
  },
});
