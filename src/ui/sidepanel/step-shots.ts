import { z } from 'zod';

/** A step's picture as the panel shows it: a data URL of what `run_screenshot` answers. */
export interface StepShotView {
  readonly src: string;
}

const Answer = z.object({ format: z.enum(['png', 'jpeg', 'webp']), data: z.string().min(1) });

/** The picture in a `run_screenshot` answer; undefined for an answer that is not one. */
export function stepShotOf(result: unknown): StepShotView | undefined {
  const parsed = Answer.safeParse(result);
  return parsed.success ? { src: `data:image/${parsed.data.format};base64,${parsed.data.data}` } : undefined;
}

/** What a step's event (or its kept record) says of its picture, read leniently: there is one, or not. */
export const StepScreenshotMark = z
  .object({ format: z.string(), bytes: z.number() })
  .nullable()
  .optional()
  .catch(null)
  .transform((mark) => mark ?? null);
