import { describe, expect, it } from 'vitest';
import { uuid7 } from './ids';

describe('uuid7', () => {
  it('has the UUIDv7 shape and is unique and ordered within a millisecond', () => {
    const ids = Array.from({ length: 5_000 }, () => uuid7(1_700_000_000_000));
    for (const id of ids.slice(0, 5)) {
      expect(id).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-7[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    }
    expect(new Set(ids).size).toBe(ids.length);
    expect([...ids].sort()).toEqual(ids);
  });

  it('orders ids by time', () => {
    expect(uuid7(2_000) < uuid7(3_000)).toBe(true);
  });
});
