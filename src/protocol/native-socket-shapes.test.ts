import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { HostRecord, HostWelcome } from './native-socket';
import { HOST_RECORD_SHAPE, HOST_WELCOME_SHAPE, isHostRecord, isHostWelcome, type Shape } from './native-socket-shapes';

/** The keys of a shape and of a zod object, nested, to compare them. */
function shapeKeys(shape: Shape): unknown {
  if (typeof shape === 'string') {
    return null;
  }
  if ('nullable' in shape) {
    return shapeKeys(shape.nullable);
  }
  return Object.fromEntries(Object.entries(shape.object).map(([key, field]) => [key, shapeKeys(field)]));
}

function zodKeys(schema: z.ZodType): unknown {
  if (schema instanceof z.ZodNullable) {
    return zodKeys(schema.unwrap() as z.ZodType);
  }
  if (schema instanceof z.ZodObject) {
    return Object.fromEntries(Object.entries(schema.shape).map(([key, field]) => [key, zodKeys(field as z.ZodType)]));
  }
  return null;
}

const record = {
  pid: 42,
  socket: '/run/host-42.sock',
  extension_id: 'abc',
  user_data_dir: null,
  profile_id: 'p1',
  browser: null,
  version: '0.1.0',
  started_at: 1700000000000.5,
};
const host = { pid: 42, version: '0.1.0', socket: '/s', user_data_dir: '/profile', started_at: 1 };
const extension = { id: 'abc', version: '1', browser: 'Chrome/140', profile_id: 'p1' };
const welcome = { hello: { client: 'tabpilot:cli', host, extension } };

/** The value and variants of it: each field removed, replaced by a wrong kind, an extra key added. */
function variants(value: Record<string, unknown>): unknown[] {
  const out: unknown[] = [value, { ...value, extra: 1 }, null, [], 'text'];
  for (const key of Object.keys(value)) {
    const { [key]: _removed, ...rest } = value;
    out.push(rest);
    for (const wrong of [null, 'x', 1.5, 7, -1, Number.NaN, Infinity, true, {}, [], undefined]) {
      out.push({ ...value, [key]: wrong });
    }
    const field = value[key];
    if (typeof field === 'object' && field !== null && !Array.isArray(field)) {
      out.push(...variants(field as Record<string, unknown>).map((inner) => ({ ...value, [key]: inner })));
    }
  }
  return out;
}

describe('the socket shapes checked without zod', () => {
  it('name the same keys as the zod schemas', () => {
    expect(shapeKeys(HOST_RECORD_SHAPE)).toEqual(zodKeys(HostRecord));
    expect(shapeKeys(HOST_WELCOME_SHAPE)).toEqual(zodKeys(HostWelcome));
  });

  it('give the zod verdict on a record and on every broken variant of it', () => {
    const cases = variants(record);
    expect(cases.length).toBeGreaterThan(90);
    for (const value of cases) {
      expect(isHostRecord(value), JSON.stringify(value)).toBe(HostRecord.safeParse(value).success);
    }
  });

  it('give the zod verdict on a welcome and on every broken variant of it, client names included', () => {
    const cases = [
      ...variants(welcome),
      { hello: { ...welcome.hello, extension: null } },
      ...['tabpilot', 'mcp:Claude Code', 'tabpilot:', 'mcp:', 'other', `tabpilot:${'a'.repeat(49)}`].map((client) => ({
        hello: { ...welcome.hello, client },
      })),
    ];
    for (const value of cases) {
      expect(isHostWelcome(value), JSON.stringify(value)).toBe(HostWelcome.safeParse(value).success);
    }
    expect(isHostWelcome(welcome)).toBe(true);
  });
});
