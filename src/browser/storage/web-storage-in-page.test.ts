import { describe, expect, it } from 'vitest';
import { MemoryStorage } from '../../../test/fakes/memory-storage';
import type { WebStorageRequest } from '../actions/in-page-api';
import { operate } from '../actions/in-page/web-storage';

const ORIGIN = 'https://a.test';
const request = (op: WebStorageRequest['op'], key = '', value = ''): WebStorageRequest => ({
  area: 'local',
  op,
  key,
  value,
});

describe('web storage in the page', () => {
  it('lists every entry, gets one, and answers none for a missing key', () => {
    const storage = new MemoryStorage([
      ['b', '2'],
      ['a', '1'],
    ]);
    expect(operate(storage, ORIGIN, request('list'))).toEqual({
      ok: true,
      origin: ORIGIN,
      entries: [
        ['b', '2'],
        ['a', '1'],
      ],
      cleared: 0,
    });
    expect(operate(storage, ORIGIN, request('get', 'a'))).toMatchObject({ ok: true, entries: [['a', '1']] });
    expect(operate(storage, ORIGIN, request('get', 'missing'))).toMatchObject({ ok: true, entries: [] });
  });

  it('sets and reads back, deletes answering the removed entry, and clears counting them', () => {
    const storage = new MemoryStorage([['a', '1']]);
    expect(operate(storage, ORIGIN, request('set', 'b', 'two'))).toMatchObject({ entries: [['b', 'two']] });
    expect(storage.getItem('b')).toBe('two');
    expect(operate(storage, ORIGIN, request('delete', 'a'))).toMatchObject({ entries: [['a', '1']] });
    expect(operate(storage, ORIGIN, request('delete', 'a'))).toMatchObject({ entries: [] });
    expect(operate(storage, ORIGIN, request('clear'))).toMatchObject({ entries: [], cleared: 1 });
    expect(storage.length).toBe(0);
  });

  it('answers a write past the quota as refused, with the browser words, keeping the old value', () => {
    const storage = new MemoryStorage([['a', '1']], 3);
    expect(operate(storage, ORIGIN, request('set', 'a', 'long'))).toEqual({
      ok: false,
      reason: 'refused',
      origin: ORIGIN,
      error: expect.stringMatching(/exceeded the quota/),
    });
    expect(storage.getItem('a')).toBe('1');
  });
});
