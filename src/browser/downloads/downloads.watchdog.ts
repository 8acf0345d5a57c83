import { errorMessageOf } from '../../shared/errors';
import { bestEffort } from '../../shared/logger';
import { pollUntil } from '../../shared/time';
import type { DownloadedFile } from '../artifacts/downloaded-files';
import { defineWatchdog } from '../define-watchdog';
import { baseName, fileTypeOf, mimeTypeOf, pdfNameOf } from './mime';
import { fetchPdfInPage } from './pdf-saver';
import {
  DownloadProgressEvent,
  DownloadStartedEvent,
  FileDownloadedEvent,
} from '../../protocol/events/artifacts.events';
import { ConfigChangedEvent } from '../../protocol/events/config.events';
import {
  BrowserConnectedEvent,
  BrowserReconnectedEvent,
  BrowserStopEvent,
  BrowserStoppedEvent,
} from '../../protocol/events/lifecycle.events';
import { requireArtifacts } from '../host';

const FIELD = 'downloads_path';

/**
 * DownloadsWatchdog: every download a controlled tab starts (a click, a link with `download`, a blob: or
 * data: URL, a navigation to a file) is tracked from start to finish (DownloadStartedEvent,
 * DownloadProgressEvent, FileDownloadedEvent with path, size and MIME type) and listed in the session's
 * downloads. The start and the progress come from the page (Page.downloadWillBegin/downloadProgress, on
 * both transports); where the file goes is the platform's: Node tells the browser (Browser domain) to
 * save into `downloads_path`, the extension places them with chrome.downloads into Downloads/tabpilot.
 * With `auto_download_pdfs`, a PDF a tab shows in the viewer is saved too. Unlike browser-use, nothing
 * polls the folder, a remote browser's download reports its real path and size, and the listeners live
 * in the SessionManager, so a reconnect keeps them.
 */
export const downloadsWatchdog = defineWatchdog({
  name: 'downloads',
  listensTo: [
    BrowserConnectedEvent,
    BrowserReconnectedEvent,
    ConfigChangedEvent,
    BrowserStopEvent,
    BrowserStoppedEvent,
  ],
  emits: [DownloadStartedEvent, DownloadProgressEvent, FileDownloadedEvent],
  setup: (ctx) => {
    const targets = ctx.session.targets;
    const registry = ctx.session.downloads;
    /** Guids by URL, oldest first, for the extension's placement (chrome.downloads knows no guid). */
    const byUrl = new Map<string, string[]>();
    const savedPdfs = new Set<string>();
    let stopPlacement: (() => void) | undefined;
    let browserFolder: string | undefined;

    const browserDomain = (): boolean => targets.connection?.capabilities.browserDomain ?? false;

    const finish = (file: DownloadedFile, autoDownload: boolean): void => {
      registry.finished(file);
      if (file.guid !== null) {
        byUrl.set(
          file.url,
          (byUrl.get(file.url) ?? []).filter((guid) => guid !== file.guid),
        );
      }
      ctx.emit(FileDownloadedEvent, {
        guid: file.guid,
        url: file.url,
        path: file.path,
        file_name: file.file_name,
        file_size: file.file_size,
        file_type: fileTypeOf(file.file_name),
        mime_type: file.mime_type,
        auto_download: autoDownload,
      });
    };

    const place = async (): Promise<void> => {
      stopPlacement?.();
      stopPlacement = undefined;
      if (browserDomain()) {
        if (ctx.session.host.artifacts === undefined) {
          ctx.log.warn('this host keeps no files: downloads go where the browser puts them');
          return;
        }
        browserFolder = await requireArtifacts(ctx.session.host).folder(
          ctx.session.config.downloads_path ?? 'downloads',
          FIELD,
        );
        await targets.root.send('Browser.setDownloadBehavior', {
          behavior: 'allow',
          downloadPath: browserFolder,
          eventsEnabled: true,
        });
        return;
      }
      const host = ctx.session.host.downloads;
      if (host === undefined) {
        ctx.log.warn('downloads cannot be placed on this platform; they go where the browser puts them');
        return;
      }
      stopPlacement = host.watch({
        isOurs: (url) => (byUrl.get(url) ?? []).length > 0,
        finished: (download) => {
          const guid = byUrl.get(download.url)?.[0] ?? null;
          const inFlight = guid === null ? undefined : registry.inFlight(guid);
          finish(
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
          const guid = byUrl.get(url)?.shift();
          if (guid !== undefined) {
            registry.failed(guid, reason);
          }
        },
      });
    };

    const disposers = [
      targets.on('Page.downloadWillBegin', (params, source) => {
        const targetId = source.target === undefined ? null : (source.target.pageTargetId ?? source.target.targetId);
        registry.began({
          guid: params.guid,
          url: params.url,
          suggested_filename: params.suggestedFilename,
          target_id: targetId,
          received_bytes: 0,
          total_bytes: 0,
        });
        byUrl.set(params.url, [...(byUrl.get(params.url) ?? []), params.guid]);
        ctx.emit(DownloadStartedEvent, {
          guid: params.guid,
          url: params.url,
          suggested_filename: params.suggestedFilename,
          target_id: targetId,
        });
      }),
      targets.on('Page.downloadProgress', (params) => {
        registry.progressed(params.guid, params.receivedBytes, params.totalBytes);
        ctx.emit(DownloadProgressEvent, {
          guid: params.guid,
          received_bytes: params.receivedBytes,
          total_bytes: params.totalBytes,
          state: params.state,
        });
        if (params.state === 'canceled') {
          registry.failed(params.guid, 'canceled');
        }
      }),
      // Node: the browser itself says where the file went once it is complete.
      targets.on('Browser.downloadProgress', (params) => {
        if (params.state !== 'completed') {
          return;
        }
        const inFlight = registry.inFlight(params.guid);
        const path = params.filePath ?? `${browserFolder ?? ''}/${inFlight?.suggested_filename ?? params.guid}`;
        finish(
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
      }),
      targets.on('Page.frameNavigated', (params, source) => {
        if (
          // A main frame: no parent (chrome.debugger sends null where the Browser's CDP leaves it out).
          (params.frame.parentId ?? null) !== null ||
          params.frame.mimeType !== 'application/pdf' ||
          source.target?.type !== 'page' ||
          !ctx.session.config.auto_download_pdfs ||
          savedPdfs.has(params.frame.url)
        ) {
          return;
        }
        savedPdfs.add(params.frame.url);
        const url = params.frame.url;
        const targetId = source.target.targetId;
        const save = async (): Promise<void> => {
          // The viewer replaces the document's session as it loads: chrome.debugger lets go of the tab as
          // the viewer's frame starts (the first answer can be "Detached") and takes it back a moment
          // later, so the tab may have no session at all for a while (a loaded machine's first try often
          // falls in that gap). Ask the tab's current session, once it has one, a few times.
          const bytes = await pollUntil(
            () => {
              const session = targets.sessionFor(targetId);
              return session === undefined ? undefined : fetchPdfInPage(session, url).catch(() => undefined);
            },
            {
              timeoutMs: 10_000,
              intervalMs: 250,
              onTimeout: () => new Error(`the PDF at ${url} could not be read from its tab`),
            },
          );
          const name = uniqueName(pdfNameOf(url), registry.list());
          const folder = browserDomain() ? `${ctx.session.config.downloads_path ?? 'downloads'}/` : '';
          const path = await requireArtifacts(ctx.session.host).writeFile(`${folder}${name}`, bytes, {
            field: FIELD,
            atomic: true,
            mimeType: 'application/pdf',
          });
          finish(
            {
              guid: null,
              url,
              path,
              file_name: baseName(path),
              file_size: bytes.length,
              mime_type: 'application/pdf',
              target_id: targetId,
            },
            true,
          );
        };
        void save().catch((error: unknown) => {
          savedPdfs.delete(url);
          ctx.log.warn('could not save the PDF the tab shows', { url, error: errorMessageOf(error) });
        });
      }),
    ];
    ctx.signal.addEventListener(
      'abort',
      () => {
        stopPlacement?.();
        for (const dispose of disposers) {
          dispose();
        }
      },
      { once: true },
    );

    const stop = (): void => {
      stopPlacement?.();
      stopPlacement = undefined;
    };
    return {
      BrowserConnectedEvent: place,
      // A new connection to the same browser: its download behaviour is per connection.
      BrowserReconnectedEvent: () => bestEffort(place(), ctx.log, 'placing downloads after a reconnect'),
      ConfigChangedEvent: async (event) => {
        if (event.payload.changed.includes(FIELD) && ctx.session.connectionState === 'connected') {
          await place();
        }
      },
      BrowserStopEvent: stop,
      BrowserStoppedEvent: stop,
    };
  },
});

/** `name`, or `name (1).ext`, ... when the session already has a file of that name. */
function uniqueName(name: string, files: readonly DownloadedFile[]): string {
  const taken = new Set(files.map((file) => file.file_name));
  if (!taken.has(name)) {
    return name;
  }
  const dot = name.lastIndexOf('.');
  const [stem, extension] = dot > 0 ? [name.slice(0, dot), name.slice(dot)] : [name, ''];
  for (let n = 1; ; n += 1) {
    const candidate = `${stem} (${n})${extension}`;
    if (!taken.has(candidate)) {
      return candidate;
    }
  }
}
