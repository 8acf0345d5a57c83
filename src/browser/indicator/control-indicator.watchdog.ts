import type { CdpSession } from '../../cdp/session';
import { bestEffort } from '../../shared/logger';
import { defineWatchdog } from '../define-watchdog';
import { ControlStopRequestedEvent } from '../../protocol/events/indicator.events';
import { ReleaseTabEvent } from '../../protocol/events/tabs.events';
import { INDICATOR_GLOBAL, INDICATOR_WORLD, indicatorSource, STOP_WAIT_MS } from './indicator-source';

/** How long one renewal keeps the indicator up: past it, a tab tabpilot silently lost shows none. */
const LEASE_MS = 6_000;
/** Renewals come three times per lease, so one late renewal on a busy machine does not blink it. */
const RENEW_MS = 2_000;

/**
 * The indicator's upkeep is not the session's commands: its calls are `background`, so a session that
 * only renews its indicators counts as idle (a recording takes frames at its full rate then).
 */
const UPKEEP = { background: true } as const;

/** The indicator's world in the tab's top frame (a page target's id is its main frame's id); the same world each time. */
async function indicatorContext(session: CdpSession, targetId: string): Promise<number> {
  const { executionContextId } = await session.call(
    'Page.createIsolatedWorld',
    { frameId: targetId, worldName: INDICATOR_WORLD },
    UPKEEP,
  );
  return executionContextId;
}

async function callIndicator(session: CdpSession, contextId: number, call: 'renew' | 'remove'): Promise<void> {
  const { result } = await session.call(
    'Runtime.evaluate',
    {
      expression: `globalThis.${INDICATOR_GLOBAL} === undefined ? null : globalThis.${INDICATOR_GLOBAL}.${call}()`,
      contextId,
      returnByValue: true,
    },
    UPKEEP,
  );
  if (call === 'renew' && result.value !== true) {
    // A document the script did not run in (the one open at attach): install it, which shows it.
    await session.call('Runtime.evaluate', { expression: indicatorSource(LEASE_MS), contextId }, UPKEEP);
  }
}

/**
 * The in-page indicator on every controlled tab: a border and a badge with its own Stop, drawn by a script
 * in a world of its own in the top frame of each document (installed on attach and for every new
 * document), renewed while the tab is controlled and removed when it is released. A call waits in each
 * document's world for Stop; a person's press answers it, and is announced as ControlStopRequestedEvent,
 * which the entry answers with the emergency stop.
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
          const { result } = await session.call(
            'Runtime.evaluate',
            {
              expression: `globalThis.${INDICATOR_GLOBAL}.stopPressed()`,
              contextId,
              awaitPromise: true,
              returnByValue: true,
            },
            // Pending for as long as nobody presses Stop.
            { ...UPKEEP, timeoutMs: STOP_WAIT_MS + 10_000, signal: ctx.signal },
          );
          if (result.value === 'stop' && !ctx.signal.aborted) {
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
      const contextId = await indicatorContext(session, targetId);
      await callIndicator(session, contextId, 'renew');
      waitForStop(session, targetId, contextId);
    };

    const disposeSetup = targets.addSessionSetup(async (session, target) => {
      if (target.type !== 'page') {
        return;
      }
      const { identifier } = await session.send('Page.addScriptToEvaluateOnNewDocument', {
        source: indicatorSource(LEASE_MS),
        worldName: INDICATOR_WORLD,
      });
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
    const remove = async (session: CdpSession, targetId: string): Promise<void> => {
      await callIndicator(session, await indicatorContext(session, targetId), 'remove');
    };

    ctx.signal.addEventListener(
      'abort',
      () => {
        clearInterval(timer);
        disposeSetup();
        // Turned off in the config: take it down in every tab and install it in no new document.
        for (const [targetId, { session, identifier }] of scripts) {
          void bestEffort(
            session.send('Page.removeScriptToEvaluateOnNewDocument', { identifier }),
            ctx.log,
            'forgetting the indicator script',
          );
          void bestEffort(remove(session, targetId), ctx.log, 'removing the in-page indicator');
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
              await bestEffort(remove(session, targetId), ctx.log, 'removing the in-page indicator');
            }
          }),
        );
      },
    };
  },
});
