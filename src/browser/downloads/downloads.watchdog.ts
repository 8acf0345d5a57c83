import { bestEffort } from '../../shared/logger';
import { defineWatchdog } from '../define-watchdog';
import { DOWNLOAD_EVENTS, DOWNLOADS_FIELD, DownloadTracker } from './download-tracker';
import { followDownloads } from './follow-downloads';
import { PdfAutoSave } from './pdf-auto-save';
import { ConfigChangedEvent } from '../../protocol/events/config.events';
import {
  BrowserConnectedEvent,
  BrowserReconnectedEvent,
  BrowserStopEvent,
  BrowserStoppedEvent,
} from '../../protocol/events/lifecycle.events';

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
  emits: DOWNLOAD_EVENTS,
  setup: (ctx) => {
    const tracker = new DownloadTracker(ctx);
    followDownloads(ctx.session.targets, tracker, new PdfAutoSave(ctx, tracker), ctx.signal);
    return {
      BrowserConnectedEvent: () => tracker.place(),
      // A new connection to the same browser: its download behaviour is per connection.
      BrowserReconnectedEvent: () => bestEffort(tracker.place(), ctx.log, 'placing downloads after a reconnect'),
      ConfigChangedEvent: async (event) => {
        if (event.payload.changed.includes(DOWNLOADS_FIELD) && ctx.session.connectionState === 'connected') {
          await tracker.place();
        }
      },
      BrowserStopEvent: () => tracker.stop(),
      BrowserStoppedEvent: () => tracker.stop(),
    };
  },
});
