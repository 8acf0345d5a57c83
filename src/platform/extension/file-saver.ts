import type { FileSaver } from '../../browser/host';
import { TabpilotError } from '../../shared/errors';

/** The slice of chrome.downloads the saver needs (fakeable). */
export interface DownloadsApi {
  download(options: { url: string; filename: string; conflictAction: 'uniquify'; saveAs: false }): Promise<number>;
  search(query: { id: number }): Promise<Array<{ state?: string; filename: string; error?: string }>>;
}

const FOLDER = 'tabpilot';
const WAIT_MS = 30_000;
const POLL_MS = 100;

/** A file name that stays inside tabpilot/ under the downloads folder (no path parts, nothing hidden). */
export function safeFileName(name: string): string {
  const base = name.replace(/\0/g, '').replace(/\\/g, '/').split('/').pop() ?? '';
  const cleaned = base
    .replace(/^\.+/, '')
    .replace(/[<>:"|?*]/g, '_')
    .trim();
  return cleaned === '' ? 'download' : cleaned;
}

/**
 * The extension has no file system: a file is a download of a data: URL into tabpilot/ under the user's
 * downloads folder. Resolves with the file's full path once it is written.
 */
export function createDownloadsFileSaver(downloads: DownloadsApi): FileSaver {
  return {
    save: (fileName, base64, mimeType) => downloadInto(downloads, `data:${mimeType};base64,${base64}`, fileName),
  };
}

/** Downloads `url` into tabpilot/ under the downloads folder; resolves with the file's full path once written. */
export async function downloadInto(downloads: DownloadsApi, url: string, fileName: string): Promise<string> {
  const id = await downloads.download({
    url,
    filename: `${FOLDER}/${safeFileName(fileName)}`,
    conflictAction: 'uniquify',
    saveAs: false,
  });
  const deadline = Date.now() + WAIT_MS;
  while (Date.now() < deadline) {
    const [item] = await downloads.search({ id });
    if (item?.state === 'complete') {
      return item.filename;
    }
    if (item?.state === 'interrupted') {
      throw new TabpilotError('INTERNAL', `Saving ${fileName} failed: ${item.error ?? 'interrupted'}`);
    }
    await new Promise((resolve) => setTimeout(resolve, POLL_MS));
  }
  throw new TabpilotError('TIMEOUT', `Saving ${fileName} did not finish within ${WAIT_MS / 1000} s`);
}
