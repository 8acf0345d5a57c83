import { z } from 'zod';
import type { ErrorCode } from '../shared/errors';

/**
 * What an acting action did to the page, observed after it settled: the verified outcome a client asks
 * for with `"outcome": true` in its request (the MCP server and the built-in agent always do). A model
 * reads it instead of a whole new state when it tells enough, and can never take a failure for a
 * success: `verdict` is `failed` exactly when the action was not done, with a reason from one closed set.
 * docs/outcomes.md is the reference.
 */

/**
 * Why an action did not work, or what the page reported when it ran. The first group comes from the
 * action's own failure (its error code), the second from what the page did while it settled.
 */
export const OUTCOME_REASONS = [
  // The action was not done:
  'covered_by',
  'detached',
  'offscreen',
  'blocked',
  'navigation_failed',
  'timeout',
  'tab_crashed',
  'no_tab',
  'invalid_params',
  'cancelled',
  'forbidden',
  'person_needed',
  'unsupported',
  'error',
  // It was done, but:
  'disabled',
  'navigated_away',
  'request_failed',
  'page_error',
] as const;
export type OutcomeReason = (typeof OUTCOME_REASONS)[number];

/** An element the outcome names: its index where it has one (the state's numbering), and how it reads. */
export const OutcomeElement = z.strictObject({
  index: z.number().int().nullable(),
  label: z.string(),
});
export type OutcomeElement = z.infer<typeof OutcomeElement>;

export const ActionOutcome = z.strictObject({
  /** changed: the page changed; no_visible_change: it did not; failed: the action was not done. */
  verdict: z.enum(['changed', 'no_visible_change', 'failed']),
  /** Why it failed, or what the page reported while it settled (a failed request, an uncaught error). */
  reason: z.enum(OUTCOME_REASONS).optional(),
  /** The failure's message, or what took the press (covered_by). */
  detail: z.string().optional(),
  /** The tab's URL and title when they changed. */
  url: z.string().optional(),
  title: z.string().optional(),
  /** Another document: the indexes of the last state name nothing in it; take a state. */
  new_document: z.literal(true).optional(),
  /** Interactive elements that came into view (with the index an action takes), and that went. */
  appeared: z.array(OutcomeElement).optional(),
  removed: z.array(OutcomeElement).optional(),
  /** Elements whose value, checked, selected, expanded or disabled state changed, as they read now. */
  changed: z.array(OutcomeElement).optional(),
  /** Text that appeared or went (a message, a count), cut short. */
  texts_appeared: z.array(z.string()).optional(),
  texts_removed: z.array(z.string()).optional(),
  /** What the lists above left out past their bounds. */
  more: z.number().int().optional(),
  dialog: z.strictObject({ type: z.string(), message: z.string() }).optional(),
  new_tab_id: z.string().optional(),
  download: z.string().optional(),
  /** Requests the action caused that failed or answered 4xx/5xx: `POST /api/save → 500`. */
  failed_requests: z.array(z.string()).optional(),
  /** Uncaught errors and console errors while it settled, their first line. */
  errors: z.array(z.string()).optional(),
  /** False when the page was still changing (or loading what the action asked) at the bound. */
  settled: z.boolean(),
  /** How long the page was watched after the action, in ms. */
  waited_ms: z.number().int(),
});
export type ActionOutcome = z.infer<typeof ActionOutcome>;

/** How long the page is watched after an action: until it was quiet this long, with nothing it asked for loading. */
export const OUTCOME_QUIET_MS = 100;
/**
 * At least this long after the action: the quiet time counts from the last change, which may be from
 * before a slow action ended, and a handler's timer set during it has yet to fire.
 */
export const OUTCOME_MIN_WAIT_MS = 50;
/** At most this long after the action (the bound docs/outcomes.md states). */
export const OUTCOME_MAX_WAIT_MS = 1_500;

const REASON_OF_CODE: Partial<Record<ErrorCode, OutcomeReason>> = {
  ELEMENT_OCCLUDED: 'covered_by',
  ELEMENT_NOT_FOUND: 'detached',
  URL_BLOCKED: 'blocked',
  NAVIGATION_FAILED: 'navigation_failed',
  TIMEOUT: 'timeout',
  TAB_CRASHED: 'tab_crashed',
  TAB_NOT_FOUND: 'no_tab',
  NOT_ATTACHED: 'no_tab',
  INVALID_PARAMS: 'invalid_params',
  CANCELLED: 'cancelled',
  FORBIDDEN: 'forbidden',
  PERSON_NEEDED: 'person_needed',
  UNSUPPORTED: 'unsupported',
};

/** The closed reason for a failed action, from its error (an element with no box to point at is offscreen). */
export function failureReason(code: ErrorCode, details: Record<string, unknown> | undefined): OutcomeReason {
  if (code === 'ELEMENT_NOT_FOUND' && details?.['reason'] === 'no_box') {
    return 'offscreen';
  }
  return REASON_OF_CODE[code] ?? 'error';
}
