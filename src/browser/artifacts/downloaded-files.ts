import { pollUntil } from '../../shared/time';

/** One file the session downloaded (FileDownloadedEvent's facts). */
export interface DownloadedFile {
  guid: string | null;
  url: string;
  path: string;
  file_name: string;
  file_size: number;
  mime_type: string | null;
  /** The tab it came from, when known. */
  target_id: string | null;
}

/** A download that began and has not finished (or failed) yet. */
export interface DownloadInFlight {
  guid: string;
  url: string;
  suggested_filename: string;
  target_id: string | null;
  received_bytes: number;
  total_bytes: number;
}

/**
 * The session's downloads. Owned by the Downloads watchdog (the only writer); read by the state (the
 * files the model may use), by upload_file (a downloaded file may be uploaded again without its folder
 * in upload_paths) and by a click that started one.
 */
export class DownloadedFiles {
  readonly #files: DownloadedFile[] = [];
  readonly #inFlight = new Map<string, DownloadInFlight>();
  readonly #failed = new Map<string, string>();

  list(): readonly DownloadedFile[] {
    return this.#files;
  }

  paths(): string[] {
    return this.#files.map((file) => file.path);
  }

  has(path: string): boolean {
    return this.#files.some((file) => file.path === path);
  }

  began(download: DownloadInFlight): void {
    this.#inFlight.set(download.guid, download);
  }

  progressed(guid: string, received: number, total: number): void {
    const download = this.#inFlight.get(guid);
    if (download !== undefined) {
      download.received_bytes = received;
      download.total_bytes = total;
    }
  }

  finished(file: DownloadedFile): void {
    if (file.guid !== null) {
      this.#inFlight.delete(file.guid);
    }
    // The same name downloaded again lands at the same path: the file there is the newer download's now,
    // and its guid must find it (one entry per path, where the first one was).
    const at = this.#files.findIndex((known) => known.path === file.path);
    if (at >= 0) {
      this.#files[at] = file;
    } else {
      this.#files.push(file);
    }
  }

  failed(guid: string, reason: string): void {
    this.#inFlight.delete(guid);
    this.#failed.set(guid, reason);
  }

  inFlight(guid: string): DownloadInFlight | undefined {
    return this.#inFlight.get(guid);
  }

  /** Waits (bounded) for a download to finish; undefined when it is still going or failed. */
  async waitFor(guid: string, timeoutMs: number, signal?: AbortSignal): Promise<DownloadedFile | undefined> {
    try {
      return await pollUntil(
        () =>
          this.#files.find((file) => file.guid === guid) ??
          (this.#failed.has(guid) || !this.#inFlight.has(guid) ? null : undefined),
        {
          timeoutMs,
          intervalMs: 25,
          ...(signal === undefined ? {} : { signal }),
          onTimeout: () => new Error('still downloading'),
        },
      ).then((file) => file ?? undefined);
    } catch (error) {
      if (signal?.aborted === true) {
        throw error;
      }
      // Still downloading when the wait ended: the caller reports it as in progress.
      return undefined;
    }
  }
}
