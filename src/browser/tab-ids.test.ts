import { describe, expect, it } from 'vitest';
import { TabIds } from './tab-ids';

describe('TabIds', () => {
  it('uses the last four characters of the target id and stays stable', () => {
    const ids = new TabIds();
    expect(ids.idFor('0123456789ABCDEF0123456789ABCDEF')).toBe('CDEF');
    expect(ids.idFor('0123456789ABCDEF0123456789ABCDEF')).toBe('CDEF');
    expect(ids.targetFor('cdef')).toBe('0123456789ABCDEF0123456789ABCDEF');
  });

  it('lengthens an id where two live targets would share it', () => {
    const ids = new TabIds();
    expect(ids.idFor('AAAAAAAAAAAAAAAAAAAAAAAAAAAA1234')).toBe('1234');
    expect(ids.idFor('BBBBBBBBBBBBBBBBBBBBBBBBBBBB1234')).toBe('B1234');
    expect(ids.targetFor('B1234')).toBe('BBBBBBBBBBBBBBBBBBBBBBBBBBBB1234');
    ids.forget('AAAAAAAAAAAAAAAAAAAAAAAAAAAA1234');
    expect(ids.targetFor('1234')).toBeUndefined();
  });
});
