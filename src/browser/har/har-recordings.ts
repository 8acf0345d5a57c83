import type { PayloadOf } from '../../protocol/define-event';
import type { StartHarRecordingEvent } from '../../protocol/events/artifacts.events';
import { TabpilotError } from '../../shared/errors';
import type { Logger } from '../../shared/logger';
import { requireArtifacts } from '../host';
import type { BrowserSessionView } from '../session-view';
import { HarFile, harSettingsOf } from './har-file';

const HAR_FIELDS = [
  'record_har_path',
  'record_har_content',
  'record_har_mode',
  'record_har_max_body_bytes',
  'record_har_redact_headers',
];

/**
 * The session's two HAR recordings: the configured one (record_har_path), started on connect and again
 * when its settings change, and the one a client asked for (start_har, stop_har).
 */
export class HarRecordings {
  readonly #session: BrowserSessionView;
  readonly #log: Logger;
  readonly #signal: AbortSignal;
  readonly #files: { configured: HarFile | undefined; requested: HarFile | undefined } = {
    configured: undefined,
    requested: undefined,
  };

  /** `signal`: once it aborts, the configured recording does not start again. */
  constructor(session: BrowserSessionView, log: Logger, signal: AbortSignal) {
    this.#session = session;
    this.#log = log;
    this.#signal = signal;
  }

  async startConfigured(): Promise<void> {
    const session = this.#session;
    if (this.#files.configured !== undefined || session.config.record_har_path === null || this.#signal.aborted) {
      return;
    }
    this.#files.configured = await HarFile.open(
      session,
      requireArtifacts(session.host),
      harSettingsOf(session.config),
      this.#log,
    );
  }

  /** The config changed: a change to the HAR's fields restarts the configured recording with them. */
  async configChanged(changed: readonly string[]): Promise<void> {
    if (!changed.some((field) => HAR_FIELDS.includes(field))) {
      return;
    }
    await this.#close('configured');
    if (this.#session.connectionState === 'connected') {
      await this.startConfigured();
    }
  }

  async stopBoth(): Promise<void> {
    await Promise.all([this.#close('configured'), this.#close('requested')]);
  }

  /** start_har: FORBIDDEN while one is being recorded on request, NOT_ATTACHED with no browser. */
  async startRequested(payload: PayloadOf<typeof StartHarRecordingEvent>): Promise<{ path: string }> {
    const session = this.#session;
    if (this.#files.requested !== undefined) {
      throw new TabpilotError(
        'FORBIDDEN',
        `a HAR is being recorded already, to ${this.#files.requested.location}: stop_har ends it before another starts`,
      );
    }
    if (session.connectionState !== 'connected') {
      throw new TabpilotError('NOT_ATTACHED', 'no browser is connected: there is no traffic to record');
    }
    const { file_name, content, mode } = payload;
    const config = harSettingsOf(session.config);
    const requested = await HarFile.open(
      session,
      requireArtifacts(session.host),
      {
        ...config,
        path: /\.har$/i.test(file_name) ? file_name : `${file_name}.har`,
        field: 'file_name',
        content: content ?? config.content,
        mode: mode ?? config.mode,
      },
      this.#log,
    );
    this.#files.requested = requested;
    return { path: requested.location };
  }

  /** stop_har: ELEMENT_NOT_FOUND when none is being recorded on request. */
  async stopRequested(): Promise<{ path: string; entries: number }> {
    const closed = await this.#close('requested');
    if (closed === undefined) {
      throw new TabpilotError('ELEMENT_NOT_FOUND', 'no HAR is being recorded on request: start_har begins one');
    }
    return { path: closed.location, entries: closed.entryCount };
  }

  /** Closes one recording; it is taken out first, so a second close (a stop, then the detach) has none. */
  async #close(which: 'configured' | 'requested'): Promise<HarFile | undefined> {
    const current = this.#files[which];
    this.#files[which] = undefined;
    await current?.close();
    return current;
  }
}
