import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { modelSchema } from './model-schema';

const Params = z.strictObject({
  mode: z.enum(['fast', 'full']).default('fast').describe('How'),
  count: z.number().int().positive().max(50).meta({ details: 'The long words of the reference' }),
  ratio: z.number().min(0).max(1).optional(),
  label: z.string().min(1).max(64).optional(),
  code: z.string().min(3),
  path: z.string().startsWith('/').optional(),
  flag: z.boolean().default(false),
  on: z.boolean().default(true),
  list: z.array(z.string()).default([]),
  file: z.string().min(1).nullable().default(null).describe('The file'),
  extra: z.record(z.string(), z.unknown()).default({}),
  box: z.strictObject({ x: z.number(), details: z.string() }).optional(),
  limit: z.number().int().min(1).max(1000).default(50),
  file_name: z.string().default('page.pdf'),
  clicks: z.number().int().min(1).max(3).default(1),
  offset: z.number().min(0).optional(),
  size: z.number().positive().optional(),
  index: z.number().int().positive().optional(),
  expansion: z.number().int().min(-1).optional(),
  files: z.array(z.string()).min(1).max(20).optional(),
});

const schema = modelSchema(z.toJSONSchema(Params, { io: 'input' }));
const properties = schema['properties'] as Record<string, Record<string, unknown>>;

describe('the schema a model is sent', () => {
  it('keeps what a model needs: types, enums, required, numeric ranges, informative defaults, descriptions', () => {
    expect(schema.type).toBe('object');
    expect(schema['required']).toEqual(['count', 'code']);
    expect(properties['code']).toEqual({ type: 'string', minLength: 3 });
    expect(properties['mode']).toEqual({ default: 'fast', description: 'How', type: 'string', enum: ['fast', 'full'] });
    expect(properties['count']).toEqual({ type: 'integer', minimum: 1, maximum: 50 });
    expect(properties['ratio']).toEqual({ type: 'number', minimum: 0, maximum: 1 });
    expect(properties['on']).toEqual({ default: true, type: 'boolean' });
    expect(properties['path']).toMatchObject({ type: 'string', pattern: '^\\/.*' });
    // A param named like a keyword is a param.
    expect(properties['box']).toEqual({
      type: 'object',
      properties: { x: { type: 'number' }, details: { type: 'string' } },
      required: ['x', 'details'],
    });
  });

  it('leaves out what informs nothing: the draft, closed objects, details, string lengths, implied defaults', () => {
    const text = JSON.stringify(schema);
    for (const noise of [
      '$schema',
      'additionalProperties',
      'details":"The long',
      'minLength":1',
      'maxLength',
      'starts_with',
    ]) {
      expect(text).not.toContain(noise);
    }
    expect(text).not.toContain(String(Number.MAX_SAFE_INTEGER));
    expect(properties['flag']).toEqual({ type: 'boolean' });
    expect(properties['list']).toEqual({ type: 'array', items: { type: 'string' } });
    expect(properties['extra']).toEqual({ type: 'object' });
    // Null by default: shown as what it is when given.
    expect(properties['file']).toEqual({ description: 'The file', type: 'string' });
    expect(properties['label']).toEqual({ type: 'string' });
  });

  it("leaves out a number's default, a free string's and a cap of 1000 or more; keeps a smaller cap", () => {
    expect(properties['limit']).toEqual({ type: 'integer' });
    expect(properties['file_name']).toEqual({ type: 'string' });
    expect(properties['clicks']).toEqual({ type: 'integer', minimum: 1, maximum: 3 });
  });

  it('leaves out a floor of 0 or 1 with no cap (never negative is what a count or an index is); keeps any other', () => {
    expect(properties['offset']).toEqual({ type: 'number' });
    expect(properties['size']).toEqual({ type: 'number' });
    expect(properties['index']).toEqual({ type: 'integer' });
    expect(properties['expansion']).toEqual({ type: 'integer', minimum: -1 });
    // A list is sent non-empty anyway; its cap is a rule.
    expect(properties['files']).toEqual({ type: 'array', items: { type: 'string' }, maxItems: 20 });
  });
});
