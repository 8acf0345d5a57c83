import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { firstProblem, problemText, zodMessage } from './zod-issues';

function errorOf(schema: z.ZodType, value: unknown): z.ZodError {
  const parsed = schema.safeParse(value);
  if (parsed.success) {
    throw new Error('expected the value to be refused');
  }
  return parsed.error;
}

const Frame = z.strictObject({ type: z.literal('hello'), host: z.strictObject({ version: z.string() }) });

describe('zodMessage', () => {
  it('names the dotted path of the first issue, with zod’s own message', () => {
    const error = errorOf(Frame, { type: 'hello', host: { version: 1 } });
    expect(zodMessage(error)).toBe(`host.version: ${error.issues[0]?.message}`);
    expect(zodMessage(error)).toMatch(/^host\.version: Invalid input: expected string/);
  });

  it('counts array indexes in the path', () => {
    const error = errorOf(z.object({ cookies: z.array(z.object({ name: z.string() })) }), {
      cookies: [{ name: 'a' }, { name: 2 }],
    });
    expect(zodMessage(error)).toMatch(/^cookies\.1\.name: /);
  });

  it('gives the message alone for a problem with the whole value, or names it as `whole` says', () => {
    const error = errorOf(z.string().min(1), '');
    const message = error.issues[0]?.message ?? '';
    expect(zodMessage(error)).toBe(message);
    expect(zodMessage(error, { whole: 'the top' })).toBe(`the top: ${message}`);
    expect(zodMessage(error, { whole: '' })).toBe(`: ${message}`);
  });

  it('keeps zod’s words for an unknown key (the core’s firstProblem is what says "unknown field")', () => {
    const error = errorOf(Frame, { type: 'hello', host: { version: '1' }, extra: true });
    expect(zodMessage(error)).toBe(error.issues[0]?.message);
    expect(zodMessage(error)).toMatch(/extra/);
    expect(problemText(firstProblem(error))).toBe('extra: unknown field');
  });

  it('falls back to the error’s own message when there is no issue', () => {
    const error = new z.ZodError([]);
    expect(zodMessage(error)).toBe(error.message);
  });
});
