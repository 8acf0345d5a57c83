import { z } from 'zod';
import { defineEvent } from '../define-event';

/**
 * A person pressed Stop on the in-page indicator of a controlled tab. The entry that owns the command
 * server answers it with the emergency stop (cancel every running and queued command, let go of every
 * tab), exactly as the panel's Stop does.
 */
export const ControlStopRequestedEvent = defineEvent('ControlStopRequestedEvent', {
  payload: { target_id: z.string().min(1).describe('The tab whose indicator was pressed') },
  result: z.void(),
  timeoutMs: 5_000,
});
