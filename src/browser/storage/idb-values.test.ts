import { describe, expect, it } from 'vitest';
import { UnsavableValue, loadValue, saveValue } from '../actions/in-page/idb-values';

describe("IndexedDB values in Playwright's storageState form", () => {
  it('keeps a JSON-shaped value as it is', () => {
    const value = { user: 'ada', roles: ['admin', 'dev'], age: 36, active: true, note: null };
    expect(saveValue(value)).toEqual({ plain: value });
    expect(saveValue('token')).toEqual({ plain: 'token' });
  });

  it("encodes other values with Playwright's tags", () => {
    expect(saveValue(new Date('2026-12-01T10:00:00.000Z'))).toEqual({ encoded: { d: '2026-12-01T10:00:00.000Z' } });
    expect(saveValue(10n)).toEqual({ encoded: { bi: '10' } });
    expect(saveValue(new Uint8Array([1, 2, 255]))).toEqual({ encoded: { ta: { b: 'AQL/', k: 'ui8' } } });
    expect(saveValue({ at: NaN })).toEqual({ encoded: { o: [{ k: 'at', v: { v: 'NaN' } }], id: 1 } });
    expect(saveValue(/a+b/gi)).toEqual({ encoded: { r: { p: 'a+b', f: 'gi' } } });
  });

  it('round-trips dates, maps, sets, typed arrays, buffers, special numbers and shared references', () => {
    const shared = { x: 1 };
    const value = {
      when: new Date(0),
      map: new Map<unknown, unknown>([
        ['k', 1],
        [2, new Set(['a'])],
      ]),
      floats: new Float64Array([1.5, -2]),
      buffer: new Uint8Array([9, 8]).buffer,
      specials: [undefined, -0, Infinity, -Infinity],
      url: new URL('https://example.com/a?b'),
      big: 2n ** 70n,
      twice: [shared, shared],
    };
    const saved = saveValue(value);
    if (!('encoded' in saved)) {
      throw new Error('a value with a Date must be encoded');
    }
    const back = loadValue(JSON.parse(JSON.stringify(saved.encoded)) as typeof saved.encoded) as typeof value;
    expect(back.when).toEqual(new Date(0));
    expect(back.map.get('k')).toBe(1);
    expect(back.map.get(2)).toEqual(new Set(['a']));
    expect(back.floats).toEqual(new Float64Array([1.5, -2]));
    expect(new Uint8Array(back.buffer)).toEqual(new Uint8Array([9, 8]));
    expect(back.specials[0]).toBeUndefined();
    expect(Object.is(back.specials[1], -0)).toBe(true);
    expect(back.specials.slice(2)).toEqual([Infinity, -Infinity]);
    expect(back.url.href).toBe('https://example.com/a?b');
    expect(back.big).toBe(2n ** 70n);
    expect(back.twice[0]).toBe(back.twice[1]);
  });

  it("reads what Playwright's serializer wrote", () => {
    // An object with a Date, as Playwright 1.65 writes it for valueEncoded.
    const encoded = {
      o: [
        { k: 'expires', v: { d: '2030-01-01T00:00:00.000Z' } },
        { k: 'n', v: 3 },
      ],
      id: 1,
    };
    expect(loadValue(encoded)).toEqual({ expires: new Date('2030-01-01T00:00:00.000Z'), n: 3 });
  });

  it('refuses a Blob rather than writing it as an empty object', () => {
    expect(() => saveValue({ avatar: new Blob(['x']) })).toThrow(UnsavableValue);
  });
});
