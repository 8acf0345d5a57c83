import { z } from 'zod';
import { defineEvent } from '../../bus/define-event';

export const WAIT_UNTIL = ['load', 'domcontentloaded', 'networkidle', 'commit'] as const;
export type WaitUntil = (typeof WAIT_UNTIL)[number];

/** Where a navigation landed; `loading_status` is set when readiness timed out (not an error). */
export const NavigationOutcome = z.strictObject({
  target_id: z.string(),
  url: z.string(),
  loading_status: z.string().nullable(),
});
export type NavigationOutcome = z.infer<typeof NavigationOutcome>;

export const NavigateToUrlEvent = defineEvent('NavigateToUrlEvent', {
  payload: {
    url: z.string().min(1),
    wait_until: z.enum(WAIT_UNTIL).default('load'),
    /** Readiness wait; defaults to 3 s for a same-host move and 8 s otherwise, as browser-use. */
    timeout_ms: z.number().int().positive().nullable().default(null),
    new_tab: z.boolean().default(false),
    /** The tab to navigate; null = the focused tab. */
    target_id: z.string().nullable().default(null),
  },
  result: NavigationOutcome,
  timeoutMs: 30_000,
});

export const GoBackEvent = defineEvent('GoBackEvent', {
  /** target_id null = the focused tab. */
  payload: { target_id: z.string().nullable().default(null) },
  result: NavigationOutcome,
  timeoutMs: 15_000,
});

export const GoForwardEvent = defineEvent('GoForwardEvent', {
  /** target_id null = the focused tab. */
  payload: { target_id: z.string().nullable().default(null) },
  result: NavigationOutcome,
  timeoutMs: 15_000,
});

export const RefreshEvent = defineEvent('RefreshEvent', {
  /** target_id null = the focused tab. */
  payload: { target_id: z.string().nullable().default(null) },
  result: NavigationOutcome,
  timeoutMs: 15_000,
});

/**
 * Emitted and awaited before any request leaves: a handler that throws (the security policy) stops
 * the navigation before the browser sends anything (browser-use checks only afterwards: reference §4.0).
 */
export const NavigationStartedEvent = defineEvent('NavigationStartedEvent', {
  payload: { target_id: z.string(), url: z.string() },
  result: z.void(),
  timeoutMs: 30_000,
});

export const NavigationCompleteEvent = defineEvent('NavigationCompleteEvent', {
  payload: {
    target_id: z.string(),
    url: z.string(),
    status: z.number().int().nullable().default(null),
    error_message: z.string().nullable().default(null),
    loading_status: z.string().nullable().default(null),
  },
  result: z.void(),
  timeoutMs: 30_000,
});

export const WaitEvent = defineEvent('WaitEvent', {
  payload: { seconds: z.number().min(0).default(3), max_seconds: z.number().min(0).default(10) },
  result: z.void(),
  timeoutMs: 60_000,
});
