import { z } from 'zod';
import { defineEvent } from '../../bus/define-event';

/**
 * The session's config was replaced while it runs (the panel's settings, a test): the top-level fields
 * whose value changed, never their values (sensitive_data is one of them). Watchdogs whose work a field
 * turns on or off (recording a HAR, say) start or stop on it.
 */
export const ConfigChangedEvent = defineEvent('ConfigChangedEvent', {
  payload: { fields: z.array(z.string()) },
  result: z.void(),
  timeoutMs: 30_000,
  lifecycle: true,
});
