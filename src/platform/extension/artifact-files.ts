import type { ArtifactFiles, RandomAccessFile } from '../../browser/artifacts/artifact-files';
import { base64ToBytes, bytesToBase64 } from '../../shared/bytes';
import { TabpilotError, errorMessageOf } from '../../shared/errors';
import type { Logger } from '../../shared/logger';
import type { KeyValueStore } from './timeline-recorder';

/** The slice of chrome.downloads the artifact files need (fakeable). */
export interface ArtifactDownloadsApi {
  download(options: { url: string; filename: string; conflictAction: 'overwrite'; saveAs: false }): Promise<number>;
  search(query: { id: number }): Promise<Array<{ state?: string; filename: string; error?: string }>>;
  erase(query: { id: number }): Promise<unknown>;
}

export const ARTIFACT_FOLDER = 'tabpilot';
const WAIT_MS = 60_000;
const POLL_MS = 100;
/** A file that grows (a HAR) is saved again at most this often while it changes, and once more on close. */
const CHECKPOINT_MS = 1_000;
/** Files the extension wrote that it keeps a copy of, so it can read them back (it cannot read the disk). */
const COPY_PREFIX = 'tabpilot.file:';
const MAX_COPY_BYTES = 2 * 1024 * 1024;

function refuse(field: string, message: string): TabpilotError {
  return new TabpilotError('INVALID_PARAMS', `${field}: ${message}`, { details: { field } });
}

/** The name under Downloads/tabpilot, refusing absolute paths and `..`: a download cannot leave that folder. */
export function downloadName(path: string, field: string): string {
  if (path.includes('\0') || /^[/\\]/.test(path) || /^[a-zA-Z]:/.test(path)) {
    throw refuse(
      field,
      `${path} must be a name relative to Downloads/${ARTIFACT_FOLDER} (the extension saves only there)`,
    );
  }
  const parts = path.split(/[/\\]+/).filter((part) => part !== '' && part !== '.');
  if (parts.length === 0 || parts.some((part) => part === '..' || part.startsWith('.'))) {
    throw refuse(field, `${path} must stay inside Downloads/${ARTIFACT_FOLDER}, with no .. or hidden parts`);
  }
  return `${ARTIFACT_FOLDER}/${parts.join('/')}`;
}

/**
 * The extension's artifact files: each is a download of a data: URL into Downloads/tabpilot (the extension
 * has no file system), overwriting the previous save; Chrome writes a download to a temporary file and
 * renames it when complete, so a save never leaves half a file. A file written at offsets (a HAR) lives
 * in memory and is saved again while it changes, at most every second, so the file on disk is at most a
 * second behind if the browser dies. Only the latest save of a file stays in the person's download list.
 */
export function createDownloadsArtifactFiles(
  downloads: ArtifactDownloadsApi,
  copies: KeyValueStore,
  log: Logger,
): ArtifactFiles {
  const latestDownload = new Map<string, number>();
  const save = async (name: string, bytes: Uint8Array, mimeType: string): Promise<string> => {
    const id = await downloads.download({
      url: `data:${mimeType};base64,${bytesToBase64(bytes)}`,
      filename: name,
      conflictAction: 'overwrite',
      saveAs: false,
    });
    const deadline = Date.now() + WAIT_MS;
    while (Date.now() < deadline) {
      const [item] = await downloads.search({ id });
      if (item?.state === 'complete') {
        const previous = latestDownload.get(name);
        latestDownload.set(name, id);
        if (previous !== undefined) {
          await downloads
            .erase({ id: previous })
            .catch((error: unknown) =>
              log.debug('could not drop an older save from the download list', { error: errorMessageOf(error) }),
            );
        }
        return item.filename;
      }
      if (item?.state === 'interrupted') {
        throw new TabpilotError('INTERNAL', `Saving ${name} failed: ${item.error ?? 'interrupted'}`);
      }
      await new Promise((resolve) => setTimeout(resolve, POLL_MS));
    }
    throw new TabpilotError('TIMEOUT', `Saving ${name} did not finish within ${WAIT_MS / 1000} s`);
  };

  return {
    check: (path, field) => Promise.resolve(`Downloads/${downloadName(path, field)}`),

    folder: (path, field) => Promise.resolve(`Downloads/${downloadName(path, field)}`),

    openRandomAccess: (path, field) => {
      const name = downloadName(path, field);
      let bytes = new Uint8Array(0);
      let size = 0;
      let location = `Downloads/${name}`;
      let dirty = false;
      let saving: Promise<void> | undefined;
      let timer: ReturnType<typeof setTimeout> | undefined;
      const flush = async (): Promise<void> => {
        while (dirty) {
          dirty = false;
          // octet-stream: Chrome renames a download to fit its type (a .har saved as JSON would become .json).
          location = await save(name, bytes.subarray(0, size), 'application/octet-stream');
        }
      };
      const runFlush = (): Promise<void> => {
        saving ??= flush().finally(() => {
          saving = undefined;
        });
        return saving;
      };
      const schedule = (): void => {
        if (timer !== undefined) {
          return;
        }
        timer = setTimeout(() => {
          timer = undefined;
          void runFlush().catch((error: unknown) =>
            log.warn('saving a checkpoint failed', { name, error: errorMessageOf(error) }),
          );
        }, CHECKPOINT_MS);
      };
      const file: RandomAccessFile = {
        get location() {
          return location;
        },
        write: (offset, chunk) => {
          const end = offset + chunk.length;
          if (end > bytes.length) {
            const grown = new Uint8Array(Math.max(end, bytes.length * 2));
            grown.set(bytes.subarray(0, size), 0);
            bytes = grown;
          }
          bytes.set(chunk, offset);
          size = Math.max(size, end);
          dirty = true;
          schedule();
          return Promise.resolve();
        },
        close: async () => {
          clearTimeout(timer);
          timer = undefined;
          await saving;
          await runFlush();
        },
      };
      return Promise.resolve(file);
    },

    writeFile: async (path, bytes, options) => {
      const name = downloadName(path, options.field);
      const location = await save(name, bytes, options.mimeType);
      if (options.mimeType === 'application/json' && bytes.length <= MAX_COPY_BYTES) {
        await copies.set(`${COPY_PREFIX}${name}`, bytesToBase64(bytes));
      }
      return location;
    },

    readFile: async (path, field) => {
      const name = downloadName(path, field);
      const copy = await copies.get(`${COPY_PREFIX}${name}`);
      if (typeof copy !== 'string') {
        throw refuse(
          field,
          `the extension cannot read Downloads/${name}: it reads back only the JSON files it saved itself. Send the content instead (or import the file from the side panel)`,
        );
      }
      return base64ToBytes(copy);
    },
  };
}
