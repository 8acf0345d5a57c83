import { errorMessageOf } from '../../shared/errors';
import { defineWatchdog } from '../define-watchdog';
import { ConfigChangedEvent } from '../events/config.events';
import { BrowserConnectedEvent, BrowserStopEvent, BrowserStoppedEvent } from '../events/lifecycle.events';
import { HarFile } from '../har/har-file';
import { requireArtifacts } from '../host';

const HAR_FIELDS = [
  'record_har_path',
  'record_har_content',
  'record_har_mode',
  'record_har_max_body_bytes',
  'record_har_redact_headers',
];

/**
 * HarRecordingWatchdog: while `record_har_path` is set, the network traffic of every controlled tab goes
 * to a HAR 1.2 file that is complete after every write (see HarFileLayout), so a session that ends
 * abruptly still leaves a readable HAR; a stop writes the requests still open and closes it. A bad path
 * fails the start (or the settings change) naming the field. Unlike browser-use, plain http is recorded
 * too, the file is written as the session goes rather than only at stop, and its CDP listeners sit beside
 * everyone else's instead of replacing the lifecycle callback.
 */
export const harRecordingWatchdog = defineWatchdog({
  name: 'har-recording',
  listensTo: [BrowserConnectedEvent, ConfigChangedEvent, BrowserStopEvent, BrowserStoppedEvent],
  emits: [],
  setup: (ctx) => {
    let har: HarFile | undefined;
    const start = async (): Promise<void> => {
      if (har !== undefined || ctx.session.config.record_har_path === null || ctx.signal.aborted) {
        return;
      }
      har = await HarFile.open(ctx.session, requireArtifacts(ctx.session.host), ctx.log);
    };
    const stop = async (): Promise<void> => {
      const current = har;
      har = undefined;
      await current?.close();
    };
    ctx.signal.addEventListener(
      'abort',
      () =>
        void stop().catch((error: unknown) => ctx.log.warn('closing the HAR failed', { error: errorMessageOf(error) })),
      { once: true },
    );
    return {
      BrowserConnectedEvent: start,
      ConfigChangedEvent: async (event) => {
        if (!event.payload.changed.some((field) => HAR_FIELDS.includes(field))) {
          return;
        }
        await stop();
        if (ctx.session.connectionState === 'connected') {
          await start();
        }
      },
      BrowserStopEvent: stop,
      BrowserStoppedEvent: stop,
    };
  },
});
