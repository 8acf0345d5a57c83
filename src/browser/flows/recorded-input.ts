import { z } from 'zod';
import type { RecordedInput } from '../../dom/payload';
import { FlowLocator } from '../../protocol/flow';

const Path = z.string().max(4_096);

/**
 * What the page's recorder tells the worker (src/dom/in-page/recorder.ts), checked on receipt: it comes
 * from tabpilot's own world, but through the page's process, so it is read as input.
 */
export const RecordedInputSchema: z.ZodType<RecordedInput> = z.discriminatedUnion('kind', [
  z.strictObject({ kind: z.literal('click'), locator: FlowLocator, path: Path }),
  z.strictObject({
    kind: z.literal('fill'),
    locator: FlowLocator,
    value: z.string().max(100_000),
    password: z.boolean(),
    path: Path,
  }),
  z.strictObject({ kind: z.literal('select'), locator: FlowLocator, value: z.string(), path: Path }),
  z.strictObject({
    kind: z.literal('upload'),
    locator: FlowLocator,
    files: z.array(z.string().min(1)).min(1),
    path: Path,
  }),
  z.strictObject({ kind: z.literal('press'), key: z.string().min(1).max(60), path: Path }),
]);
