import { errorMessageOf } from '../../shared/errors';
import { defineWatchdog } from '../define-watchdog';
import { captchaCondition, type CaptchaState } from './captcha-condition';
import { challengeFrame, decideChallenge, PROBE_EXPRESSION, type PageFacts } from './captcha-detect';
import {
  CaptchaClearedEvent,
  CaptchaDetectedEvent,
  CaptchaSolverFinishedEvent,
  CaptchaSolverStartedEvent,
} from '../../protocol/events/captcha.events';
import { TabClosedEvent } from '../../protocol/events/tabs.events';

/** A widget's markup settles a moment after its frame navigates. */
const PROBE_DELAY_MS = 150;
const PROBE_TIMEOUT_MS = 3000;

/**
 * CaptchaWatchdog, as a hand-off to the person. Challenge frames (reCAPTCHA, hCaptcha, Turnstile, in
 * every process) are seen from CDP frame navigations at no cost to other pages; only a page that has
 * one is probed (its markup tells shown from invisible, solved from waiting, and a Cloudflare challenge
 * page). While a challenge waits, the tab is marked needs_person, actions on it wait (see
 * captchaCondition) and the page is checked every `poll_ms` until it is solved or gone. browser-use's
 * CaptchaSolverStarted/Finished events let an external solver take a challenge on.
 */
export const captchaWatchdog = defineWatchdog({
  name: 'captcha',
  listensTo: [CaptchaSolverStartedEvent, CaptchaSolverFinishedEvent, TabClosedEvent],
  emits: [CaptchaDetectedEvent, CaptchaClearedEvent],
  enabled: (config) => config.captcha.enabled,
  setup: (ctx) => {
    const { targets, conditions } = ctx.session;
    /** Challenge frames per page: frame id to URL. */
    const frames = new Map<string, Map<string, string>>();
    const states = new Map<string, CaptchaState>();
    const timers = new Map<string, ReturnType<typeof setTimeout>>();
    const probing = new Set<string>();
    /** Pages asked to be probed while a probe ran: that probe's look may predate what changed. */
    const probeAgain = new Set<string>();

    const show = (targetId: string, state: CaptchaState | undefined): void => {
      if (state === undefined) {
        states.delete(targetId);
        conditions.clear(targetId, 'captcha');
        return;
      }
      states.set(targetId, state);
      conditions.set(
        targetId,
        captchaCondition(
          ctx.session.tabIdOf(targetId),
          targetId,
          state,
          conditions,
          () => ctx.session.config.captcha.wait_timeout_ms,
        ),
      );
    };

    const schedule = (targetId: string, delayMs: number): void => {
      if (timers.has(targetId) || ctx.signal.aborted) {
        return;
      }
      timers.set(
        targetId,
        setTimeout(() => {
          timers.delete(targetId);
          void probe(targetId);
        }, delayMs),
      );
    };

    const probe = async (targetId: string): Promise<void> => {
      const session = targets.sessionFor(targetId);
      const known = frames.get(targetId);
      if (session === undefined) {
        // A new tab's challenge frame can be seen before the tab's own session is ready (its setup is
        // still running on a loaded machine): look again once it may be, while the tab is there.
        if (targets.target(targetId) !== undefined) {
          schedule(targetId, ctx.session.config.captcha.poll_ms);
        }
        return;
      }
      if (probing.has(targetId)) {
        probeAgain.add(targetId);
        return;
      }
      if ((known === undefined || known.size === 0) && !states.has(targetId)) {
        return;
      }
      probing.add(targetId);
      let facts: PageFacts | undefined;
      try {
        const response = await session.call(
          'Runtime.evaluate',
          { expression: PROBE_EXPRESSION, returnByValue: true },
          { timeoutMs: PROBE_TIMEOUT_MS },
        );
        facts = response.result.value as PageFacts | undefined;
      } catch (error) {
        ctx.log.debug('could not look for a challenge', { error: errorMessageOf(error) });
      } finally {
        probing.delete(targetId);
      }
      const previous = states.get(targetId);
      if (facts !== undefined) {
        const url = targets.target(targetId)?.url ?? '';
        const challenge = decideChallenge([...(frames.get(targetId)?.values() ?? [])], facts, url);
        if (challenge !== null && previous === undefined) {
          show(targetId, { ...challenge, since: Date.now(), solving: false });
          ctx.emit(CaptchaDetectedEvent, { target_id: targetId, ...challenge });
        } else if (challenge === null && previous !== undefined) {
          show(targetId, undefined);
          ctx.emit(CaptchaClearedEvent, {
            target_id: targetId,
            vendor: previous.vendor,
            reason:
              previous.kind === 'widget' && facts.tokens[previous.vendor as keyof PageFacts['tokens']]
                ? 'solved'
                : 'gone',
            waited_ms: Date.now() - previous.since,
          });
        }
      }
      if (probeAgain.delete(targetId)) {
        schedule(targetId, 0);
      } else if (states.has(targetId) || facts === undefined) {
        // A waiting challenge is watched until it goes; a look that failed (a page still loading, a
        // renderer slow to answer) is tried again, or a challenge frame already seen would never be checked.
        schedule(targetId, ctx.session.config.captcha.poll_ms);
      }
    };

    const pageOf = (target: { targetId: string; pageTargetId?: string | undefined } | undefined): string | undefined =>
      target?.pageTargetId ?? target?.targetId;

    const remember = (targetId: string, frameId: string, url: string): void => {
      if (challengeFrame(url) === undefined) {
        return;
      }
      let known = frames.get(targetId);
      if (known === undefined) {
        known = new Map();
        frames.set(targetId, known);
      }
      known.set(frameId, url);
      schedule(targetId, PROBE_DELAY_MS);
    };

    const disposers = [
      // A tab attached after it loaded (the extension attaches a person's tab whenever they say) has had
      // its frame navigations already: its frames are read once when each session is set up. An
      // out-of-process frame is its own target, whose id is its frame id.
      targets.addSessionSetup(async (session, target) => {
        if (target.type === 'iframe' && target.pageTargetId !== undefined) {
          remember(target.pageTargetId, target.targetId, target.url);
        } else if (target.type === 'page') {
          const { frameTree } = await session.send('Page.getFrameTree');
          const walk = (node: typeof frameTree): void => {
            remember(target.targetId, node.frame.id, node.frame.url);
            for (const child of node.childFrames ?? []) {
              walk(child);
            }
          };
          walk(frameTree);
        }
      }),
      targets.on('Page.frameNavigated', (params, source) => {
        const targetId = pageOf(source.target);
        if (targetId === undefined) {
          return;
        }
        const isMainFrame = params.frame.parentId === undefined && source.target?.targetId === targetId;
        const known = frames.get(targetId);
        if (isMainFrame) {
          // A new document: its frames are new too. A challenge shown before is checked again.
          known?.clear();
          if (states.has(targetId)) {
            schedule(targetId, PROBE_DELAY_MS);
          }
          return;
        }
        if (challengeFrame(params.frame.url) !== undefined) {
          remember(targetId, params.frame.id, params.frame.url);
        } else if (known?.delete(params.frame.id) === true) {
          schedule(targetId, PROBE_DELAY_MS);
        }
      }),
      targets.on('Page.frameDetached', (params, source) => {
        const targetId = pageOf(source.target);
        // 'swap': the frame moved to another process (an OOPIF); it is still there.
        if (
          targetId !== undefined &&
          params.reason !== 'swap' &&
          frames.get(targetId)?.delete(params.frameId) === true
        ) {
          schedule(targetId, PROBE_DELAY_MS);
        }
      }),
    ];
    ctx.signal.addEventListener(
      'abort',
      () => {
        for (const dispose of disposers) {
          dispose();
        }
        for (const timer of timers.values()) {
          clearTimeout(timer);
        }
        for (const targetId of states.keys()) {
          conditions.clear(targetId, 'captcha');
        }
      },
      { once: true },
    );

    return {
      CaptchaSolverStartedEvent: (event) => {
        const state = states.get(event.payload.target_id);
        if (state !== undefined) {
          show(event.payload.target_id, { ...state, solving: true });
        }
      },
      CaptchaSolverFinishedEvent: (event) => {
        const targetId = event.payload.target_id;
        const state = states.get(targetId);
        if (state !== undefined) {
          // Solved or not, the page says whether the challenge is still there; a failure goes to the person.
          show(targetId, { ...state, solving: false });
          schedule(targetId, 0);
        }
      },
      TabClosedEvent: (event, hctx) => {
        const targetId = event.payload.target_id;
        const state = states.get(targetId);
        frames.delete(targetId);
        probeAgain.delete(targetId);
        clearTimeout(timers.get(targetId));
        timers.delete(targetId);
        if (state !== undefined) {
          show(targetId, undefined);
          hctx.emit(CaptchaClearedEvent, {
            target_id: targetId,
            vendor: state.vendor,
            reason: 'tab_closed',
            waited_ms: Date.now() - state.since,
          });
        }
      },
    };
  },
});
