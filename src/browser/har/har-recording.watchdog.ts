import { errorMessageOf, TabpilotError } from '../../shared/errors';
import { defineWatchdog } from '../define-watchdog';
import { StartHarRecordingEvent, StopHarRecordingEvent } from '../../protocol/events/artifacts.events';
import { ConfigChangedEvent } from '../../protocol/events/config.events';
import { BrowserConnectedEvent, BrowserStopEvent, BrowserStoppedEvent } from '../../protocol/events/lifecycle.events';
import { HarFile, harSettingsOf } from './har-file';
import { harSecrets } from './har-secrets';
import { requestDetail } from './request-detail';
import { followRequests, lineOf } from './request-log';
import { NetworkRequestEvent, NetworkRequestsEvent } from '../../protocol/actions/content.actions';
import { TabClosedEvent } from '../../protocol/events/tabs.events';
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
    // The configured recording (record_har_path) and the one a client asked for (start_har).
    const files: { configured: HarFile | undefined; requested: HarFile | undefined } = {
      configured: undefined,
      requested: undefined,
    };
    const start = async (): Promise<void> => {
      if (files.configured !== undefined || ctx.session.config.record_har_path === null || ctx.signal.aborted) {
        return;
      }
      files.configured = await HarFile.open(
        ctx.session,
        requireArtifacts(ctx.session.host),
        harSettingsOf(ctx.session.config),
        ctx.log,
      );
    };
    /** Closes one recording; it is taken out first, so a second close (a stop, then the detach) has none. */
    const close = async (which: keyof typeof files): Promise<HarFile | undefined> => {
      const current = files[which];
      files[which] = undefined;
      await current?.close();
      return current;
    };
    const requests = followRequests(ctx.session.targets, ctx.signal);
    const stopBoth = async (): Promise<void> => {
      await Promise.all([close('configured'), close('requested')]);
    };
    ctx.signal.addEventListener(
      'abort',
      () =>
        void stopBoth().catch((error: unknown) =>
          ctx.log.warn('closing the HAR failed', { error: errorMessageOf(error) }),
        ),
      { once: true },
    );
    return {
      BrowserConnectedEvent: start,
      ConfigChangedEvent: async (event) => {
        if (!event.payload.changed.some((field) => HAR_FIELDS.includes(field))) {
          return;
        }
        await close('configured');
        if (ctx.session.connectionState === 'connected') {
          await start();
        }
      },
      BrowserStopEvent: stopBoth,
      BrowserStoppedEvent: stopBoth,
      StartHarRecordingEvent: async (event) => {
        if (files.requested !== undefined) {
          throw new TabpilotError(
            'FORBIDDEN',
            `a HAR is being recorded already, to ${files.requested.location}: stop_har ends it before another starts`,
          );
        }
        if (ctx.session.connectionState !== 'connected') {
          throw new TabpilotError('NOT_ATTACHED', 'no browser is connected: there is no traffic to record');
        }
        const { file_name, content, mode } = event.payload;
        const config = harSettingsOf(ctx.session.config);
        const requested = await HarFile.open(
          ctx.session,
          requireArtifacts(ctx.session.host),
          {
            ...config,
            path: /\.har$/i.test(file_name) ? file_name : `${file_name}.har`,
            field: 'file_name',
            content: content ?? config.content,
            mode: mode ?? config.mode,
          },
          ctx.log,
        );
        files.requested = requested;
        return { path: requested.location };
      },
      StopHarRecordingEvent: async () => {
        const closed = await close('requested');
        if (closed === undefined) {
          throw new TabpilotError('ELEMENT_NOT_FOUND', 'no HAR is being recorded on request: start_har begins one');
        }
        return { path: closed.location, entries: closed.entryCount };
      },
      NetworkRequestsEvent: (event) => {
        const { target_id, url_contains, resource_types, only_failed, max_results } = event.payload;
        ctx.session.targets.requireSession(target_id);
        return requests.list(target_id, {
          urlContains: url_contains,
          resourceTypes: resource_types,
          onlyFailed: only_failed,
          max: max_results,
        });
      },
      NetworkRequestEvent: async (event) => {
        const { target_id, request_id, to_file, max_body_chars } = event.payload;
        ctx.session.targets.requireSession(target_id);
        const request = requests.request(target_id, request_id);
        if (request === undefined) {
          throw new TabpilotError(
            'ELEMENT_NOT_FOUND',
            `No request ${request_id} in this tab's page: network_requests lists the ones kept since it loaded`,
          );
        }
        const secrets = harSecrets(() => ctx.session.config.sensitive_data);
        const detail = await requestDetail(request, {
          redactHeaders: ctx.session.config.record_har_redact_headers,
          redactText: (text) => secrets.value(text),
          maxBodyChars: max_body_chars,
          toFile: to_file
            ? { files: ctx.session.host.files, baseName: `request-${request_id.replace(/\W/g, '-')}` }
            : undefined,
        });
        return { ...lineOf(request), ...detail };
      },
      TabClosedEvent: (event) => {
        requests.forget(event.payload.target_id);
      },
    };
  },
});
