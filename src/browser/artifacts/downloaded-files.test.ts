import { describe, expect, it } from 'vitest';
import { DownloadedFiles, type DownloadedFile } from './downloaded-files';

function file(guid: string, size: number): DownloadedFile {
  return {
    guid,
    url: 'https://a.test/notes.txt',
    path: '/downloads/notes.txt',
    file_name: 'notes.txt',
    file_size: size,
    mime_type: 'text/plain',
    target_id: 'T1',
  };
}

describe('DownloadedFiles', () => {
  it('finds a download saved again at the same path by its own guid, and lists the path once', async () => {
    const files = new DownloadedFiles();
    for (const [guid, size] of [
      ['first', 5],
      ['second', 7],
    ] as const) {
      files.began({
        guid,
        url: 'https://a.test/notes.txt',
        suggested_filename: 'notes.txt',
        target_id: 'T1',
        received_bytes: 0,
        total_bytes: 0,
      });
      files.finished(file(guid, size));
    }
    // The second download's click waits for it by its guid: the file it answers is the one now on disk.
    expect(await files.waitFor('second', 1_000)).toMatchObject({ guid: 'second', file_size: 7 });
    expect(files.paths()).toEqual(['/downloads/notes.txt']);
    expect(files.list()).toHaveLength(1);
  });
});
