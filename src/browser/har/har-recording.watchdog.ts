import { errorMessageOf } from '../../shared/errors';
import { defineWatchdog } from '../define-watchdog';
import { StartHarRecordingEvent, StopHarRecordingEvent } from '../../protocol/events/artifacts.events';
import { ConfigChangedEvent } from '../../protocol/events/config.events';
import { BrowserConnectedEvent, BrowserStopEvent, BrowserStoppedEvent } from '../../protocol/events/lifecycle.events';
import { HarRecordings } from './har-recordings';
import { followRequests } from './request-log';
import { RequestQueries } from './request-queries';
import { NetworkRequestEvent, NetworkRequestsEvent } from '../../protocol/actions/content.actions';
import { TabClosedEvent } from '../../protocol/events/tabs.events';

/**
 * HarRecordingWatchdog: while `record_har_path` is set, the network traffic of every controlled tab goes
 * to a HAR 1.2 file that is complete after every write (see HarFileLayout), so a session that ends
 * abruptly still leaves a readable HAR; a stop writes the requests still open and closes it. A bad path
 * fails the start (or the settings change) naming the field. Unlike browser-use, plain http is recorded
 * too, the file is written as the session goes rather than only at stop, and its CDP listeners sit beside
 * everyone else's instead of replacing the lifecycle callback. A client may also record one on request
 * (start_har, stop_har), beside the configured one: an agent that wants the traffic of a few steps gets
 * a file it can open, not a HAR in its context window. Each tab's requests since its page loaded are kept
 * too, bounded, for network_requests.
 */
export const harRecordingWatchdog = defineWatchdog({
  name: 'har-recording',
  listensTo: [
    BrowserConnectedEvent,
    ConfigChangedEvent,
    BrowserStopEvent,
    BrowserStoppedEvent,
    StartHarRecordingEvent,
    StopHarRecordingEvent,
    NetworkRequestsEvent,
    NetworkRequestEvent,
    TabClosedEvent,
  ],
  emits: [],
  setup: (ctx) => {
    const hars = new HarRecordings(ctx.session, ctx.log, ctx.signal);
    const requests = new RequestQueries(ctx.session, followRequests(ctx.session.targets, ctx.signal));
    ctx.signal.addEventListener(
      'abort',
      () =>
        void hars.stopBoth().catch((error: unknown) =>
          ctx.log.warn('closing the HAR failed', {
            error: errorMessageOf(error),
          }),
        ),
      { once: true },
    );
    return {
      BrowserConnectedEvent: () => hars.startConfigured(),
      ConfigChangedEvent: (event) => hars.configChanged(event.payload.changed),
      BrowserStopEvent: () => hars.stopBoth(),
      BrowserStoppedEvent: () => hars.stopBoth(),
      StartHarRecordingEvent: (event) => hars.startRequested(event.payload),
      StopHarRecordingEvent: () => hars.stopRequested(),
      NetworkRequestsEvent: (event) => requests.list(event.payload),
      NetworkRequestEvent: (event) => requests.detail(event.payload),
      TabClosedEvent: (event) => requests.forget(event.payload.target_id),
    };
  },
});
