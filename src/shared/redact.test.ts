import { describe, expect, it } from 'vitest';
import type { LogRecord } from './logger';
import { redact, redactingSink, redactString, secretsOf, TIMELINE_LIMITS } from './redact';

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

  const mail = secretsOf({ '*': { mail: 'secret-mail@x.test' } });

  it('matches a value whatever its case and in the spellings pages echo it in', () => {
    for (const echoed of [
      'SECRET-MAIL@X.TEST',
      'secret-mail%40x.test',
      '?q=secret-mail%40x.test&x=1',
      '{"v":"secret-mail@x.test"}',
    ]) {
      expect(redactString(echoed, mail)).toContain('<secret>mail</secret>');
      expect(redactString(echoed, mail).toLowerCase()).not.toContain('secret-mail');
    }
    expect(redactString('a &lt;b&gt; &amp;', secretsOf({ '*': { html: 'a <b> &' } }))).toBe('<secret>html</secret>');
  });

  it('replaces a piece of a secret where an output cut the text, and a string that is only such a piece', () => {
    expect(redactString('Hello secret-mai', mail)).toBe('Hello <secret>mail</secret>');
    expect(redactString('il@x.test and more', mail)).toBe('<secret>mail</secret> and more');
    expect(redactString('a long line ending in secret-ma… next line', mail)).toBe(
      'a long line ending in <secret>mail</secret>… next line',
    );
    expect(redactString('ret-mail@x', mail)).toBe('<secret>mail</secret>');
  });

  it('leaves short common pieces alone (they are ordinary words, not the secret)', () => {
    expect(redactString('testing mail order', mail)).toBe('testing mail order');
    expect(redactString('.test', mail)).toBe('.test');
  });

  it('redacts log records, message and fields, before the sink writes them', () => {
    const written: LogRecord[] = [];
    const sink = redactingSink(
      (record) => written.push(record),
      () => mail,
    );
    sink({
      level: 'info',
      namespace: 'x',
      message: 'typed secret-mail@x.test',
      fields: { v: 'secret-mail@x.test' },
      time: 0,
    });
    expect(JSON.stringify(written)).not.toContain('secret-mail');
    expect(written[0]?.message).toBe('typed <secret>mail</secret>');
  });
});
