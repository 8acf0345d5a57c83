import { z } from 'zod';
import { defineEvent } from '../../bus/define-event';

/**
 * A JavaScript dialog (alert, confirm, prompt, beforeunload) opened and was answered by the popups
 * watchdog. browser-use defines this event but never dispatches it; here it is
 * emitted for every dialog, after the answer, so a blocked page never waits for the bus.
 */
export const DialogOpenedEvent = defineEvent('DialogOpenedEvent', {
  payload: {
    dialog_type: z.enum(['alert', 'confirm', 'prompt', 'beforeunload']),
    message: z.string(),
    url: z.string(),
    frame_id: z.string().nullable().default(null),
    /** The page (top-level tab) the dialog belongs to, also when a frame of it opened the dialog. */
    target_id: z.string(),
    answer: z.enum(['accepted', 'dismissed', 'failed']),
  },
  result: z.void(),
  timeoutMs: 5_000,
});
