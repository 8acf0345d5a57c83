import { describe, expect, it } from 'vitest';
import { exportFileName, readStateFile } from './storage-state-file';

describe('the panel storage-state file', () => {
  it('names an export by its moment, in characters every file system takes', () => {
    expect(exportFileName(new Date('2026-12-01T14:05:09.123Z'))).toBe('storage-state-2026-12-01T14-05-09Z.json');
  });

  it('reads a picked file as JSON, and refuses one that is not, naming it', async () => {
    await expect(readStateFile(new File(['{"cookies":[],"origins":[]}'], 'ok.json'))).resolves.toEqual({
      cookies: [],
      origins: [],
    });
    await expect(readStateFile(new File(['{"cookies": ['], 'half.json'))).rejects.toThrow(/^half\.json is not JSON/);
  });
});
