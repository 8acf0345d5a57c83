import { z } from 'zod';
import { defineEvent } from '../define-event';

/**
 * A screen recording was written (on stop, on disconnect, or when recording was turned off).
 * browser-use has no such event: its recorder only logs the path.
 */
export const RecordingSavedEvent = defineEvent('RecordingSavedEvent', {
  payload: {
    path: z.string().describe('Node: the file path; the extension: the downloaded file'),
    frames: z
      .number()
      .int()
      .describe('Frames written: each picture once however long it stays, the last again at the very end'),
    duration_seconds: z.number().describe('The video length: the wall-clock span recorded'),
    width: z.number().int(),
    height: z.number().int(),
  },
  result: z.void(),
  timeoutMs: 5_000,
});
