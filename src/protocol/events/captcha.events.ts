import { z } from 'zod';
import { defineEvent } from '../define-event';

export const CaptchaVendor = z.enum(['recaptcha', 'hcaptcha', 'turnstile', 'cloudflare']);
export type CaptchaVendor = z.infer<typeof CaptchaVendor>;

/** A tab shows a challenge a person must solve: actions there wait for it (the tab is handed to the person). */
export const CaptchaDetectedEvent = defineEvent('CaptchaDetectedEvent', {
  payload: {
    target_id: z.string(),
    vendor: CaptchaVendor,
    /** A widget inside the page, or a whole interstitial page standing in front of the site. */
    kind: z.enum(['widget', 'interstitial']),
    /** The challenge frame's URL, or the page's for an interstitial. */
    url: z.string(),
  },
  result: z.void(),
  timeoutMs: 5_000,
});

/** The challenge is no longer in the way: solved, navigated away from, or its tab closed. */
export const CaptchaClearedEvent = defineEvent('CaptchaClearedEvent', {
  payload: {
    target_id: z.string(),
    vendor: CaptchaVendor,
    reason: z.enum(['solved', 'gone', 'tab_closed']),
    waited_ms: z.number(),
  },
  result: z.void(),
  timeoutMs: 5_000,
});

/**
 * browser-use's names and fields: an external solver announces it took a challenge on (actions keep
 * waiting, the panel shows a solver at work) and when it is done (on failure the tab goes to the person).
 */
export const CaptchaSolverStartedEvent = defineEvent('CaptchaSolverStartedEvent', {
  payload: { target_id: z.string(), vendor: z.string(), url: z.string(), started_at: z.number() },
  result: z.void(),
  timeoutMs: 5_000,
});

export const CaptchaSolverFinishedEvent = defineEvent('CaptchaSolverFinishedEvent', {
  payload: {
    target_id: z.string(),
    vendor: z.string(),
    url: z.string(),
    duration_ms: z.number(),
    finished_at: z.number(),
    success: z.boolean(),
  },
  result: z.void(),
  timeoutMs: 5_000,
});
