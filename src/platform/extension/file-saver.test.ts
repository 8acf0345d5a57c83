import { describe, expect, it } from 'vitest';
import { createDownloadsFileSaver, safeFileName, type DownloadsApi } from './file-saver';

describe('extension file saver', () => {
  it('keeps file names inside tabpilot/ (no traversal, separators, NUL or hidden names)', () => {
    expect(safeFileName('../../etc/passwd')).toBe('passwd');
    expect(safeFileName('a\\b\\c.png')).toBe('c.png');
    expect(safeFileName('.hidden')).toBe('hidden');
    expect(safeFileName('x\0y.pdf')).toBe('xy.pdf');
    expect(safeFileName('..')).toBe('download');
    expect(safeFileName('what?.png')).toBe('what_.png');
  });

  it('downloads a data: URL into tabpilot/ and answers with the final path once complete', async () => {
    const calls: Array<{ url: string; filename: string }> = [];
    let polls = 0;
    const downloads: DownloadsApi = {
      download: async (options) => {
        calls.push(options);
        return 7;
      },
      search: async () => [
        { state: ++polls < 3 ? 'in_progress' : 'complete', filename: '/home/me/Downloads/tabpilot/shot.png' },
      ],
    };
    const path = await createDownloadsFileSaver(downloads).save('shot.png', 'AAAA', 'image/png');
    expect(path).toBe('/home/me/Downloads/tabpilot/shot.png');
    expect(calls[0]).toMatchObject({ url: 'data:image/png;base64,AAAA', filename: 'tabpilot/shot.png' });
  });

  it('reports an interrupted download', async () => {
    const downloads: DownloadsApi = {
      download: async () => 1,
      search: async () => [{ state: 'interrupted', filename: '', error: 'FILE_NO_SPACE' }],
    };
    await expect(createDownloadsFileSaver(downloads).save('a.pdf', 'AA', 'application/pdf')).rejects.toThrow(
      /FILE_NO_SPACE/,
    );
  });
});
