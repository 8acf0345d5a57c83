import { errorMessageOf } from '../../shared/errors';
import type { PayloadInputOf } from '../../protocol/define-event';
import type { WatchdogContext } from '../define-watchdog';
import { captchaCondition, type CaptchaState } from './captcha-condition';
import { challengeFrame, decideChallenge, PROBE_EXPRESSION, type PageFacts } from './captcha-detect';
import { CaptchaClearedEvent, CaptchaDetectedEvent } from '../../protocol/events/captcha.events';

/** A widget's markup settles a moment after its frame navigates. */
const PROBE_DELAY_MS = 150;
const PROBE_TIMEOUT_MS = 3000;

/** The events the captcha watchdog emits. */
export const CAPTCHA_EVENTS = [CaptchaDetectedEvent, CaptchaClearedEvent] as const;

type CaptchaContext = WatchdogContext<typeof CAPTCHA_EVENTS>;

/**
 * The challenges of the controlled pages: which challenge frames each page has (frame id to URL), what
 * the last probe of the page decided, and the tab condition that follows. A page is probed only when its
 * challenge frames change or a challenge waits on it (every `poll_ms` then), one probe at a time.
 */
export class CaptchaMonitor {
  readonly #ctx: CaptchaContext;
  readonly #frames = new Map<string, Map<string, string>>();
  readonly #states = new Map<string, CaptchaState>();
  readonly #timers = new Map<string, ReturnType<typeof setTimeout>>();
  readonly #probing = new Set<string>();
  /** Pages asked to be probed while a probe ran: that probe's look may predate what changed. */
  readonly #probeAgain = new Set<string>();

  constructor(ctx: CaptchaContext) {
    this.#ctx = ctx;
  }

  /** A frame of the page at `url`: remembered, and the page probed, when it is a challenge's. */
  frameSeen(targetId: string, frameId: string, url: string): void {
    if (challengeFrame(url) === undefined) {
      return;
    }
    let known = this.#frames.get(targetId);
    if (known === undefined) {
      known = new Map();
      this.#frames.set(targetId, known);
    }
    known.set(frameId, url);
    this.#schedule(targetId, PROBE_DELAY_MS);
  }

  /** A frame of the page navigated to `url`, or (`url` undefined) went away. */
  frameChanged(targetId: string, frameId: string, url: string | undefined): void {
    if (url !== undefined && challengeFrame(url) !== undefined) {
      this.frameSeen(targetId, frameId, url);
    } else if (this.#frames.get(targetId)?.delete(frameId) === true) {
      this.#schedule(targetId, PROBE_DELAY_MS);
    }
  }

  /** A new document: its frames are new too. A challenge shown before is checked again. */
  documentChanged(targetId: string): void {
    this.#frames.get(targetId)?.clear();
    if (this.#states.has(targetId)) {
      this.#schedule(targetId, PROBE_DELAY_MS);
    }
  }

  solverStarted(targetId: string): void {
    const state = this.#states.get(targetId);
    if (state !== undefined) {
      this.#show(targetId, { ...state, solving: true });
    }
  }

  solverFinished(targetId: string): void {
    const state = this.#states.get(targetId);
    if (state !== undefined) {
      // Solved or not, the page says whether the challenge is still there; a failure goes to the person.
      this.#show(targetId, { ...state, solving: false });
      this.#schedule(targetId, 0);
    }
  }

  /** Forgets a closed tab; the clearing to report when a challenge waited on it. */
  tabClosed(targetId: string): PayloadInputOf<typeof CaptchaClearedEvent> | undefined {
    const state = this.#states.get(targetId);
    this.#frames.delete(targetId);
    this.#probeAgain.delete(targetId);
    clearTimeout(this.#timers.get(targetId));
    this.#timers.delete(targetId);
    if (state === undefined) {
      return undefined;
    }
    this.#show(targetId, undefined);
    return { target_id: targetId, vendor: state.vendor, reason: 'tab_closed', waited_ms: Date.now() - state.since };
  }

  /** Stops every probe to come and lets every tab go: detached, the watchdog holds no tab waiting. */
  release(): void {
    for (const timer of this.#timers.values()) {
      clearTimeout(timer);
    }
    for (const targetId of this.#states.keys()) {
      this.#ctx.session.conditions.clear(targetId, 'captcha');
    }
  }

  #show(targetId: string, state: CaptchaState | undefined): void {
    const { session } = this.#ctx;
    if (state === undefined) {
      this.#states.delete(targetId);
      session.conditions.clear(targetId, 'captcha');
      return;
    }
    this.#states.set(targetId, state);
    session.conditions.set(
      targetId,
      captchaCondition(
        session.tabIdOf(targetId),
        targetId,
        state,
        session.conditions,
        () => session.config.captcha.wait_timeout_ms,
      ),
    );
  }

  #schedule(targetId: string, delayMs: number): void {
    if (this.#timers.has(targetId) || this.#ctx.signal.aborted) {
      return;
    }
    this.#timers.set(
      targetId,
      setTimeout(() => {
        this.#timers.delete(targetId);
        void this.#probe(targetId);
      }, delayMs),
    );
  }

  async #probe(targetId: string): Promise<void> {
    const { session: browser, log } = this.#ctx;
    const session = browser.targets.sessionFor(targetId);
    const known = this.#frames.get(targetId);
    if (session === undefined) {
      // A new tab's challenge frame can be seen before the tab's own session is ready (its setup is
      // still running on a loaded machine): look again once it may be, while the tab is there.
      if (browser.targets.target(targetId) !== undefined) {
        this.#schedule(targetId, browser.config.captcha.poll_ms);
      }
      return;
    }
    if (this.#probing.has(targetId)) {
      this.#probeAgain.add(targetId);
      return;
    }
    if ((known === undefined || known.size === 0) && !this.#states.has(targetId)) {
      return;
    }
    this.#probing.add(targetId);
    let facts: PageFacts | undefined;
    try {
      const response = await session.call(
        'Runtime.evaluate',
        { expression: PROBE_EXPRESSION, returnByValue: true },
        { timeoutMs: PROBE_TIMEOUT_MS },
      );
      facts = response.result.value as PageFacts | undefined;
    } catch (error) {
      log.debug('could not look for a challenge', { error: errorMessageOf(error) });
    } finally {
      this.#probing.delete(targetId);
    }
    if (facts !== undefined) {
      this.#decide(targetId, facts);
    }
    if (this.#probeAgain.delete(targetId)) {
      this.#schedule(targetId, 0);
    } else if (this.#states.has(targetId) || facts === undefined) {
      // A waiting challenge is watched until it goes; a look that failed (a page still loading, a
      // renderer slow to answer) is tried again, or a challenge frame already seen would never be checked.
      this.#schedule(targetId, browser.config.captcha.poll_ms);
    }
  }

  #decide(targetId: string, facts: PageFacts): void {
    const previous = this.#states.get(targetId);
    const url = this.#ctx.session.targets.target(targetId)?.url ?? '';
    const challenge = decideChallenge([...(this.#frames.get(targetId)?.values() ?? [])], facts, url);
    if (challenge !== null && previous === undefined) {
      this.#show(targetId, { ...challenge, since: Date.now(), solving: false });
      this.#ctx.emit(CaptchaDetectedEvent, { target_id: targetId, ...challenge });
    } else if (challenge === null && previous !== undefined) {
      this.#show(targetId, undefined);
      this.#ctx.emit(CaptchaClearedEvent, {
        target_id: targetId,
        vendor: previous.vendor,
        reason:
          previous.kind === 'widget' && facts.tokens[previous.vendor as keyof PageFacts['tokens']] ? 'solved' : 'gone',
        waited_ms: Date.now() - previous.since,
      });
    }
  }
}
