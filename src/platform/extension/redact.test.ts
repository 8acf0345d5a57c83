import { describe, expect, it } from 'vitest';
import { redact, redactString, secretsOf, TIMELINE_LIMITS } from './redact';

describe('redact', () => {
  const secrets = secretsOf({
    '*.bank.com': { password: 'hunter2', pin: '1234' },
    'mail.com': { token: 'hunter2-long' },
  });

  it('replaces every secret value, longest first, wherever it appears', () => {
    expect(redactString('log in with hunter2 and hunter2-long, pin 1234', secrets)).toBe(
      'log in with <secret>password</secret> and <secret>token</secret>, pin <secret>pin</secret>',
    );
  });

  it('walks objects, arrays and keys, and leaves other values alone', () => {
    expect(redact({ text: 'hunter2', list: ['x 1234', 5, null, true], hunter2: { deep: 'ok' } }, secrets)).toEqual({
      text: '<secret>password</secret>',
      list: ['x <secret>pin</secret>', 5, null, true],
      '<secret>password</secret>': { deep: 'ok' },
    });
  });

  it('cuts long strings, long lists and deep values within the timeline limits, after redacting', () => {
    const long = `hunter2${'a'.repeat(2000)}`;
    const cut = redact({ long, list: Array.from({ length: 100 }, (_, i) => i) }, secrets, TIMELINE_LIMITS) as {
      long: string;
      list: unknown[];
    };
    expect(cut.long.startsWith('<secret>password</secret>aaa')).toBe(true);
    expect(cut.long).toMatch(/… \[\d+ more characters\]$/);
    expect(cut.list).toHaveLength(TIMELINE_LIMITS.maxItems + 1);
    expect(cut.list.at(-1)).toBe(`… ${100 - TIMELINE_LIMITS.maxItems} more items`);
    let deep: unknown = 'bottom';
    for (let i = 0; i < 10; i++) {
      deep = { deep };
    }
    expect(JSON.stringify(redact(deep, [], TIMELINE_LIMITS))).toContain('[…]');
  });

  it('ignores empty secret values (they would match everywhere)', () => {
    expect(secretsOf({ a: { empty: '' } })).toEqual([]);
  });
});
