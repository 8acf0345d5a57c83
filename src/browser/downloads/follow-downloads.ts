import type { SessionManager } from '../../cdp/session-manager';
import { disposeOnAbort } from '../../shared/dispose';
import type { DownloadTracker } from './download-tracker';
import type { PdfAutoSave } from './pdf-auto-save';

/**
 * Feeds the tracker from the CDP download events (Page's on both transports, Browser's on Node) and the
 * PDF saver from main-frame navigations to a PDF, until `signal` aborts; then the placement stops.
 * The listeners live in the SessionManager, so a reconnect keeps them.
 */
export function followDownloads(
  targets: SessionManager,
  tracker: DownloadTracker,
  pdfs: PdfAutoSave,
  signal: AbortSignal,
): void {
  disposeOnAbort(signal, [
    () => tracker.stop(),
    targets.on('Page.downloadWillBegin', (params, source) =>
      tracker.began(
        params,
        source.target === undefined ? null : (source.target.pageTargetId ?? source.target.targetId),
      ),
    ),
    targets.on('Page.downloadProgress', (params) => tracker.progressed(params)),
    targets.on('Browser.downloadProgress', (params) => tracker.browserProgressed(params)),
    targets.on('Page.frameNavigated', (params, source) => {
      // A main frame: no parent (chrome.debugger sends null where the Browser's CDP leaves it out).
      if (
        (params.frame.parentId ?? null) === null &&
        params.frame.mimeType === 'application/pdf' &&
        source.target?.type === 'page'
      ) {
        pdfs.shown(params.frame.url, source.target.targetId);
      }
    }),
  ]);
}
