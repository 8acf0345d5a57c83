import { z } from 'zod';

/** A bound in ms; 0 turns the check off. Negative values are refused at start, naming the field. */
const bound = (fallback: number, what: string): z.ZodDefault<z.ZodNumber> =>
  z.number().int().min(0).max(3_600_000).default(fallback).describe(what);

const Crash = z
  .strictObject({
    enabled: z
      .boolean()
      .default(true)
      .describe('Watch for crashed and stuck pages (browser-use ships its CrashWatchdog switched off; ours is on)'),
    health_check_interval_ms: bound(
      5000,
      'How often each controlled page is asked whether its main thread still answers; 0 for never',
    ),
    unresponsive_after_ms: z
      .number()
      .int()
      .min(100)
      .max(3_600_000)
      .default(30_000)
      .describe(
        "A page whose main thread has not answered the health check for this long is reported stuck: the commands waiting on it fail, and later ones fail at once until it answers again or is refreshed. Keep it above the longest the page may be busy (a huge page loading on a loaded machine went past 10 s in the benchmark): tabpilot's own page work runs on that thread too",
      ),
    network_timeout_ms: bound(
      30_000,
      'A network request of a controlled page still open after this long is reported (once); 0 turns request tracking off, and with it the Network domain',
    ),
  })
  .describe('CrashWatchdog: crashed renderers, stuck main threads, stuck requests');

const Captcha = z
  .strictObject({
    enabled: z
      .boolean()
      .default(true)
      .describe('Detect reCAPTCHA, hCaptcha, Cloudflare Turnstile and challenge pages, and hand the tab to the person'),
    wait_timeout_ms: bound(
      120_000,
      "How long after a challenge appears actions on its tab wait for a person (or a solver) to solve it; after that they fail at once with PERSON_NEEDED until it is gone. One action waits at most its own event's timeout (browser-use's TIMEOUT_CaptchaSolverWait is 120 s)",
    ),
    poll_ms: z
      .number()
      .int()
      .min(50)
      .max(60_000)
      .default(1000)
      .describe('While a challenge is shown, how often the page is checked for it being solved or gone'),
  })
  .describe('CaptchaWatchdog: challenges a person must solve');

/** The guard watchdogs' part of the config (the URL policy and permissions have their own). */
export const GUARDS_CONFIG = {
  crash: Crash.default({
    enabled: true,
    health_check_interval_ms: 5000,
    unresponsive_after_ms: 30_000,
    network_timeout_ms: 30_000,
  }),
  captcha: Captcha.default({ enabled: true, wait_timeout_ms: 120_000, poll_ms: 1000 }),
};
