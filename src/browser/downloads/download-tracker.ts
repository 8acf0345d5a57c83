import type { CdpEventParams } from '../../protocol/cdp';
import type { DownloadedFile } from '../artifacts/downloaded-files';
import type { WatchdogContext } from '../define-watchdog';
import { requireArtifacts } from '../host';
import { baseName, fileTypeOf, mimeTypeOf } from './mime';
import {
  DownloadProgressEvent,
  DownloadStartedEvent,
  FileDownloadedEvent,
} from '../../protocol/events/artifacts.events';

/** The config field downloads are placed by. */
export const DOWNLOADS_FIELD = 'downloads_path';

/** The events the downloads watchdog emits, all of them from here. */
export const DOWNLOAD_EVENTS = [DownloadStartedEvent, DownloadProgressEvent, FileDownloadedEvent] as const;

export type DownloadsContext = WatchdogContext<typeof DOWNLOAD_EVENTS>;

/**
 * Every download of the controlled tabs from start to finish, in the session's downloads and as events;
 * and where the files go: Node tells the browser (Browser domain) to save into `downloads_path`, the
 * extension places them with the host's chrome.downloads watch, matched to their guid by URL.
 */
export class DownloadTracker {
  readonly #ctx: DownloadsContext;
  /** Guids by URL, oldest first, for the extension's placement (chrome.downloads knows no guid). */
  readonly #byUrl = new Map<string, string[]>();
  #stopPlacement: (() => void) | undefined;
  #browserFolder: string | undefined;

  constructor(ctx: DownloadsContext) {
    this.#ctx = ctx;
  }

  /** Whether the browser itself saves the files (Node's Browser domain), not the host's placement. */
  get browserSaves(): boolean {
    return this.#ctx.session.targets.connection?.capabilities.browserDomain ?? false;
  }

  /** Tells the browser where to save, or starts the host's placement; again after a reconnect or a new folder. */
  async place(): Promise<void> {
    const { session, log } = this.#ctx;
    this.stop();
    if (this.browserSaves) {
      if (session.host.artifacts === undefined) {
        log.warn('this host keeps no files: downloads go where the browser puts them');
        return;
      }
      this.#browserFolder = await requireArtifacts(session.host).folder(
        session.config.downloads_path ?? 'downloads',
        DOWNLOADS_FIELD,
      );
      await session.targets.root.send('Browser.setDownloadBehavior', {
        behavior: 'allow',
        downloadPath: this.#browserFolder,
        eventsEnabled: true,
      });
      return;
    }
    const host = session.host.downloads;
    if (host === undefined) {
      log.warn('downloads cannot be placed on this platform; they go where the browser puts them');
      return;
    }
    this.#stopPlacement = host.watch({
      isOurs: (url) => (this.#byUrl.get(url) ?? []).length > 0,
      finished: (download) => {
        const guid = this.#byUrl.get(download.url)?.[0] ?? null;
        const inFlight = guid === null ? undefined : session.downloads.inFlight(guid);
        this.finish(
          {
            guid,
            url: download.url,
            path: download.path,
            file_name: baseName(download.path),
            file_size: download.size,
            mime_type: download.mime_type,
            target_id: inFlight?.target_id ?? null,
          },
          false,
        );
      },
      failed: (url, reason) => {
        const guid = this.#byUrl.get(url)?.shift();
        if (guid !== undefined) {
          session.downloads.failed(guid, reason);
        }
      },
    });
  }

  stop(): void {
    this.#stopPlacement?.();
    this.#stopPlacement = undefined;
  }

  began(params: CdpEventParams<'Page.downloadWillBegin'>, targetId: string | null): void {
    this.#ctx.session.downloads.began({
      guid: params.guid,
      url: params.url,
      suggested_filename: params.suggestedFilename,
      target_id: targetId,
      received_bytes: 0,
      total_bytes: 0,
    });
    this.#byUrl.set(params.url, [...(this.#byUrl.get(params.url) ?? []), params.guid]);
    this.#ctx.emit(DownloadStartedEvent, {
      guid: params.guid,
      url: params.url,
      suggested_filename: params.suggestedFilename,
      target_id: targetId,
    });
  }

  progressed(params: CdpEventParams<'Page.downloadProgress'>): void {
    const registry = this.#ctx.session.downloads;
    registry.progressed(params.guid, params.receivedBytes, params.totalBytes);
    this.#ctx.emit(DownloadProgressEvent, {
      guid: params.guid,
      received_bytes: params.receivedBytes,
      total_bytes: params.totalBytes,
      state: params.state,
    });
    if (params.state === 'canceled') {
      registry.failed(params.guid, 'canceled');
    }
  }

  /** Node: the browser itself says where the file went once it is complete. */
  browserProgressed(params: CdpEventParams<'Browser.downloadProgress'>): void {
    if (params.state !== 'completed') {
      return;
    }
    const inFlight = this.#ctx.session.downloads.inFlight(params.guid);
    const path = params.filePath ?? `${this.#browserFolder ?? ''}/${inFlight?.suggested_filename ?? params.guid}`;
    this.finish(
      {
        guid: params.guid,
        url: inFlight?.url ?? '',
        path,
        file_name: baseName(path),
        file_size: params.receivedBytes,
        mime_type: mimeTypeOf(path),
        target_id: inFlight?.target_id ?? null,
      },
      false,
    );
  }

  /** Lists a finished file and announces it; `autoDownload`: saved by tabpilot, not by the page. */
  finish(file: DownloadedFile, autoDownload: boolean): void {
    this.#ctx.session.downloads.finished(file);
    if (file.guid !== null) {
      this.#byUrl.set(
        file.url,
        (this.#byUrl.get(file.url) ?? []).filter((guid) => guid !== file.guid),
      );
    }
    this.#ctx.emit(FileDownloadedEvent, {
      guid: file.guid,
      url: file.url,
      path: file.path,
      file_name: file.file_name,
      file_size: file.file_size,
      file_type: fileTypeOf(file.file_name),
      mime_type: file.mime_type,
      auto_download: autoDownload,
    });
  }
}
