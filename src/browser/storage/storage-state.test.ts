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
    ).toEqual({ cookies: [cookie], origins: [{ origin: 'https://a.test', localStorage: [], indexedDB: [] }] });
  });

  it("keeps IndexedDB databases in Playwright's shape, and refuses a malformed one whole, naming it", () => {
    const database = {
      name: 'db',
      version: 2,
      stores: [
        {
          name: 'tokens',
          autoIncrement: false,
          keyPath: 'id',
          records: [{ value: { id: 1 } }, { valueEncoded: { d: '2030-01-01T00:00:00.000Z' } }],
          indexes: [{ name: 'by-kind', keyPathArray: ['kind', 'id'], multiEntry: false, unique: true }],
        },
      ],
    };
    const withDatabase = {
      cookies: [cookie],
      origins: [
        { origin: 'https://a.test', localStorage: [] },
        { origin: 'https://b.test', localStorage: [], indexedDB: [database] },
      ],
    };
    expect(parseStorageState(withDatabase, 'f.json', 'path').origins[1]).toEqual({
      origin: 'https://b.test',
      localStorage: [],
      indexedDB: [database],
    });
    const versionless = structuredClone(withDatabase);
    versionless.origins[1]!.indexedDB![0]!.version = 0;
    expect(() => parseStorageState(versionless, 'f.json', 'path')).toThrow(
      expect.objectContaining({
        code: 'INVALID_PARAMS',
        message: expect.stringMatching(/^path: f\.json is not a storage state at origins\.1\.indexedDB\.0\.version/),
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
