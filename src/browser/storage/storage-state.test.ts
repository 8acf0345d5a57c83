import { describe, expect, it } from 'vitest';
import { parseStorageState } from './storage-state';

const cookie = {
  name: 'sid',
  value: '1',
  domain: 'a.test',
  path: '/',
  expires: -1,
  httpOnly: true,
  secure: false,
  sameSite: 'Lax',
};

describe('parseStorageState', () => {
  it("reads Playwright's file, with an empty indexedDB list as Playwright writes it when asked", () => {
    expect(
      parseStorageState(
        { cookies: [cookie], origins: [{ origin: 'https://a.test', localStorage: [], indexedDB: [] }] },
        'f.json',
        'path',
      ),
    ).toEqual({ cookies: [cookie], origins: [{ origin: 'https://a.test', localStorage: [] }] });
  });

  it('refuses a file with IndexedDB databases whole, naming the origin, rather than drop them', () => {
    const withDatabase = {
      cookies: [cookie],
      origins: [
        { origin: 'https://a.test', localStorage: [] },
        { origin: 'https://b.test', localStorage: [], indexedDB: [{ name: 'db', version: 1, stores: [] }] },
      ],
    };
    expect(() => parseStorageState(withDatabase, 'f.json', 'path')).toThrow(
      expect.objectContaining({
        code: 'UNSUPPORTED',
        message: expect.stringMatching(/^path: f\.json .*origins\.1\.indexedDB/),
      }),
    );
  });

  it('refuses a wrong shape whole, naming the field', () => {
    expect(() =>
      parseStorageState({ cookies: [{ ...cookie, sameSite: 'Sometimes' }], origins: [] }, 'f.json', 'state'),
    ).toThrow(
      expect.objectContaining({
        code: 'INVALID_PARAMS',
        message: expect.stringMatching(/^state: f\.json is not a storage state at cookies\.0\.sameSite/),
      }),
    );
  });
});
