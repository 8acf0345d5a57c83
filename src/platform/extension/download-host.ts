import type { DownloadHost } from '../../browser/host';
import { errorMessageOf } from '../../shared/errors';
import type { Logger } from '../../shared/logger';
import { pollUntil } from '../../shared/time';
import { ARTIFACT_FOLDER } from './artifact-files';
import { safeFileName } from './file-saver';

/** How long a download may wait for its tab's Page.downloadWillBegin to reach the worker. */
const CLAIM_WAIT_MS = 1_000;

export interface OwnDownloadsApi {
  download(options: {
    url: string;
    filename: string;
    conflictAction: 'uniquify' | 'overwrite';
    saveAs: false;
  }): Promise<number>;
  search(query: chrome.downloads.DownloadQuery): Promise<chrome.downloads.DownloadItem[]>;
  erase(query: chrome.downloads.DownloadQuery): Promise<number[]>;
}

/**
 * The names the extension's own chrome.downloads.download calls asked for, by URL. Chrome hands those
 * downloads to onDeterminingFilename too, with the name lost (a data: URL becomes download.txt), and an
 * answer there decides the name: the listener answers them with the name asked for.
 */
export class OwnDownloadNames {
  readonly #names = new Map<string, string[]>();

  /** chrome.downloads' download, search and erase, with `download` noting each name first. */
  wrap(downloads: typeof chrome.downloads): OwnDownloadsApi {
    return {
      download: (options) => {
        this.#names.set(options.url, [...(this.#names.get(options.url) ?? []), options.filename]);
        return downloads.download(options);
      },
      search: (query) => downloads.search(query),
      erase: (query) => downloads.erase(query),
    };
  }

  take(url: string): string | undefined {
    const names = this.#names.get(url);
    const name = names?.shift();
    if (names !== undefined && names.length === 0) {
      this.#names.delete(url);
    }
    return name;
  }
}

/**
 * The extension places downloads with chrome.downloads: a download that a controlled tab started (the
 * Downloads watchdog claims its URL from the tab's Page.downloadWillBegin) is named into
 * Downloads/tabpilot; the person's own downloads keep Chrome's name. Chrome waits for every listener of
 * onDeterminingFilename, so each download gets an answer, ours or not.
 */
export function createChromeDownloadHost(
  downloads: typeof chrome.downloads,
  own: OwnDownloadNames,
  extensionId: string,
  log: Logger,
): DownloadHost {
  return {
    watch: (hooks) => {
      const ours = new Set<number>();
      let active = true;
      const onDetermining = (
        item: chrome.downloads.DownloadItem,
        suggest: (suggestion?: chrome.downloads.FilenameSuggestion) => void,
      ): boolean => {
        if (item.byExtensionId === extensionId) {
          const name = own.take(item.url);
          suggest(name === undefined ? undefined : { filename: name, conflictAction: 'overwrite' });
          return false;
        }
        const url = item.finalUrl === '' ? item.url : item.finalUrl;
        const claimed = (): boolean => hooks.isOurs(url) || hooks.isOurs(item.url);
        void pollUntil(() => (!active ? false : claimed() ? true : undefined), {
          timeoutMs: CLAIM_WAIT_MS,
          intervalMs: 20,
          onTimeout: () => new Error('not a controlled tab'),
        })
          .catch(() => false)
          .then((isOurs) => {
            if (!isOurs) {
              suggest();
              return;
            }
            ours.add(item.id);
            suggest({ filename: `${ARTIFACT_FOLDER}/${safeFileName(item.filename)}`, conflictAction: 'uniquify' });
          });
        return true;
      };
      const onChanged = (delta: chrome.downloads.DownloadDelta): void => {
        const state = delta.state?.current;
        if (!ours.has(delta.id) || (state !== 'complete' && state !== 'interrupted')) {
          return;
        }
        ours.delete(delta.id);
        void downloads.search({ id: delta.id }).then(
          ([item]) => {
            if (item === undefined) {
              return;
            }
            if (state === 'complete') {
              hooks.finished({
                url: item.url,
                path: item.filename,
                size: item.fileSize,
                mime_type: item.mime === '' ? null : item.mime,
              });
            } else {
              hooks.failed(item.url, item.error ?? 'interrupted');
            }
          },
          (error: unknown) => log.warn('could not read a finished download', { error: errorMessageOf(error) }),
        );
      };
      downloads.onDeterminingFilename.addListener(onDetermining);
      downloads.onChanged.addListener(onChanged);
      return () => {
        active = false;
        downloads.onDeterminingFilename.removeListener(onDetermining);
        downloads.onChanged.removeListener(onChanged);
      };
    },
  };
}
