import { z } from 'zod';
import { defineEvent } from '../define-event';
import { TargetId } from './navigation.events';

export const DialogType = z.enum(['alert', 'confirm', 'prompt', 'beforeunload']);

/**
 * A JavaScript dialog (alert, confirm, prompt, beforeunload) opened and was answered: by the popups
 * watchdog at once (dialogs.auto_answer), or later by handle_dialog or a person. browser-use defines
 * this event but never dispatches it; here it is emitted for every dialog, after the answer, so a
 * blocked page never waits for the bus.
 */
export const DialogOpenedEvent = defineEvent('DialogOpenedEvent', {
  payload: {
    dialog_type: DialogType,
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

export const HandleDialogEvent = defineEvent('HandleDialogEvent', {
  payload: {
    target_id: TargetId,
    accept: z.boolean().default(true).meta({ details: 'Accept (OK) or dismiss (Cancel)' }),
    prompt_text: z.string().optional().meta({ details: 'What to type into a prompt() before accepting it' }),
  },
  refine: (payload, ctx) => {
    if (payload.prompt_text !== undefined && !payload.accept) {
      ctx.addIssue({ code: 'custom', path: ['prompt_text'], message: 'a dismissed prompt takes no text' });
    }
  },
  result: z.strictObject({
    target_id: z.string(),
    dialog_type: DialogType,
    message: z.string(),
    accepted: z.boolean(),
  }),
  timeoutMs: 5_000,
  description:
    'Answer the JavaScript dialog (alert, confirm, prompt, beforeunload) open in a tab when dialogs.auto_answer is off; the state shows it as open_dialog.',
});
