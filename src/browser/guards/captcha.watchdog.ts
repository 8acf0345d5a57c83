import { defineWatchdog } from '../define-watchdog';
import { CAPTCHA_EVENTS, CaptchaMonitor } from './captcha-monitor';
import { followCaptchas } from './follow-captchas';
import {
  CaptchaClearedEvent,
  CaptchaSolverFinishedEvent,
  CaptchaSolverStartedEvent,
} from '../../protocol/events/captcha.events';
import { TabClosedEvent } from '../../protocol/events/tabs.events';

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
  emits: CAPTCHA_EVENTS,
  enabled: (config) => config.captcha.enabled,
  setup: (ctx) => {
    const monitor = new CaptchaMonitor(ctx);
    followCaptchas(ctx.session.targets, monitor, ctx.signal);
    return {
      CaptchaSolverStartedEvent: (event) => monitor.solverStarted(event.payload.target_id),
      CaptchaSolverFinishedEvent: (event) => monitor.solverFinished(event.payload.target_id),
      TabClosedEvent: (event, hctx) => {
        const cleared = monitor.tabClosed(event.payload.target_id);
        if (cleared !== undefined) {
          hctx.emit(CaptchaClearedEvent, cleared);
        }
      },
    };
  },
});
