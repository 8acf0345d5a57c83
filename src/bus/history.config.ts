import { z } from 'zod';

const History = z
  .strictObject({
    max_events: z
      .number()
      .int()
      .min(1)
      .max(100_000)
      .default(200)
      .describe('Bus events kept in history, each with its lineage, timing and handler statuses'),
    max_bytes: z
      .number()
      .int()
      .min(0)
      .default(4 * 1024 * 1024)
      .describe(
        'Bytes (as JSON, estimated) of whole payloads and results kept over all events; past it, the oldest are summarised',
      ),
    max_event_bytes: z
      .number()
      .int()
      .min(0)
      .default(256 * 1024)
      .describe(
        'An event whose payload and results are bigger than this keeps only a summary in history (its small fields and a size note)',
      ),
  })
  .describe('What the bus history keeps (recent_events, the event log); a caller always gets its full result');

/** The bus history's config field. */
export const HistoryConfigShape = {
  history: History.default({ max_events: 200, max_bytes: 4 * 1024 * 1024, max_event_bytes: 256 * 1024 }),
};

/** The bus's history limits from the config field. */
export function historyLimits(config: z.output<typeof History>): {
  maxEvents: number;
  maxBytes: number;
  maxEventBytes: number;
} {
  return { maxEvents: config.max_events, maxBytes: config.max_bytes, maxEventBytes: config.max_event_bytes };
}
