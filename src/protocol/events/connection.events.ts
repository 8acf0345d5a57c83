import { z } from 'zod';
import { defineEvent } from '../define-event';

/**
 * The session got a browser again after losing one, and it is another browser: a pool handed out a new
 * one, or a browser behind the same address was restarted. The lost browser's tabs are gone (they answer
 * TAB_NOT_FOUND) and work goes on in the new browser's tabs; the next state says so once.
 * browser-use has no such event: its reconnect carries on in whatever answers, as if nothing happened.
 */
export const BrowserReplacedEvent = defineEvent('BrowserReplacedEvent', {
  payload: {
    /** The endpoint, credentials masked. */
    cdp_url: z.string(),
    /** The lost browser's target id, where it told. */
    previous_browser_id: z.string().nullable(),
    browser_id: z.string().nullable(),
    /** The pages tabpilot had in the lost browser. */
    lost_target_ids: z.array(z.string()),
    /** Why the previous browser was lost (the connection's close reason). */
    reason: z.string(),
  },
  result: z.void(),
  timeoutMs: 30_000,
  lifecycle: true,
});
