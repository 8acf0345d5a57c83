import type { CdpSession } from '../../cdp/session';
import type { PayloadInputOf } from '../../protocol/define-event';
import type { BrowserErrorEvent } from '../../protocol/events/lifecycle.events';
import { TabpilotError, errorMessageOf } from '../../shared/errors';
import type { Logger } from '../../shared/logger';
import type { BrowserSessionView } from '../session-view';
import { FramePoller, type ScreenshotSession } from './frame-poller';
import { ScreenRecorder, type RecordingSummary } from './screen-recorder';
import { videoSize } from './video-size';

/** JPEG is several times cheaper for the browser to encode than PNG, and the video is lossy anyway. */
const FRAME_QUALITY = 80;
/** A stuck page answers no screenshot; that frame is skipped and the last one stays on screen. */
const FRAME_TIMEOUT_MS = 5_000;

const nowSeconds = (): number => Date.now() / 1000;

/**
 * The recording of the focused controlled tab to one WebM file: started once there is a focused tab,
 * its frames polled from whichever tab has focus, written by `finish`. Starting and following run
 * behind the bus events that ask for them (a navigation or a tab switch does not wait for the recording
 * to start), one at a time, in order; a failure is reported through `reportFailure`.
 */
export class TabRecording {
  readonly #session: BrowserSessionView;
  readonly #log: Logger;
  readonly #reportFailure: (error: PayloadInputOf<typeof BrowserErrorEvent>) => void;
  #recorder: ScreenRecorder | undefined;
  #poller: FramePoller | undefined;
  /** The session the last frame came from: a focus change to another one takes a frame at once. */
  #filmed: ScreenshotSession | undefined;
  #work: Promise<void> = Promise.resolve();

  constructor(
    session: BrowserSessionView,
    log: Logger,
    reportFailure: (error: PayloadInputOf<typeof BrowserErrorEvent>) => void,
  ) {
    this.#session = session;
    this.#log = log;
    this.#reportFailure = reportFailure;
  }

  /** Starts recording when there is a focused tab (once), and keeps the frames coming from it. */
  schedule(): void {
    this.#work = this.#work
      .then(() => this.#ensure())
      .catch((error: unknown) => this.#reportFailure(failureOf(this.#session, error)));
  }

  /** Ends the recording and writes its file; undefined when nothing was recording. */
  async finish(): Promise<RecordingSummary | undefined> {
    // The video ends when recording was asked to end, not when the last frame in flight settled.
    const endAt = nowSeconds();
    this.#recorder?.endBy(endAt);
    await this.#work;
    this.#recorder?.endBy(endAt);
    await this.#stopPolling();
    const active = this.#recorder;
    this.#recorder = undefined;
    if (active === undefined) {
      return undefined;
    }
    const summary = await active.finish(endAt);
    this.#log.info('recording saved', { ...summary });
    return summary;
  }

  #focusedSession(): CdpSession | undefined {
    const { targets } = this.#session;
    const targetId = targets.focusedTargetId;
    return targetId === undefined ? undefined : targets.sessionFor(targetId);
  }

  async #ensure(): Promise<void> {
    if (this.#recorder === undefined) {
      await this.#begin();
    }
    if (this.#recorder !== undefined) {
      this.#follow(this.#recorder);
    }
  }

  async #begin(): Promise<void> {
    const { host, config, targets } = this.#session;
    const dir = config.record_video_dir;
    if (host.video === undefined) {
      throw new TabpilotError('UNSUPPORTED', 'Recording video is not available here');
    }
    const targetId = targets.focusedTargetId;
    if (dir === null || targetId === undefined || this.#session.connectionState !== 'connected') {
      return;
    }
    const size = await videoSize(config.record_video_size, targets.sessionFor(targetId));
    const origin = nowSeconds();
    const sink = await host.video.open({ dir, fileName: videoFileName(new Date(origin * 1000)), ...size });
    this.#recorder = new ScreenRecorder(sink, size, origin, this.#session.config.record_video_framerate);
    this.#log.info('recording started', { ...size });
  }

  /** Keeps the frames coming from the focused tab: a new tab is filmed at once, not at the next tick. */
  #follow(active: ScreenRecorder): void {
    if (this.#poller === undefined) {
      this.#poller = new FramePoller({
        framesPerSecond: this.#session.config.record_video_framerate,
        quality: FRAME_QUALITY,
        timeoutMs: FRAME_TIMEOUT_MS,
        current: () => this.#focusedSession(),
        idleMs: () => this.#focusedSession()?.connection.idleMs ?? Number.POSITIVE_INFINITY,
        onFrame: (data, takenAt, from) => {
          if (this.#recorder === active) {
            this.#filmed = from;
            active.add(data, takenAt);
          }
        },
        onMissed: (reason) => this.#log.debug('a recording frame was missed', { reason }),
        now: nowSeconds,
      });
      this.#poller.start();
      return;
    }
    const focused = this.#focusedSession();
    if (focused !== undefined && focused !== this.#filmed) {
      this.#poller.wake();
    }
  }

  // A recording turned off before its first screenshot came back waits for it: a video needs a frame.
  async #stopPolling(): Promise<void> {
    const active = this.#poller;
    this.#poller = undefined;
    await active?.stop({ abandon: this.#recorder?.empty !== true });
  }
}

/** The BrowserErrorEvent payload of a recording that could not start, follow or be written. */
export function failureOf(session: BrowserSessionView, error: unknown): PayloadInputOf<typeof BrowserErrorEvent> {
  return {
    error_type: 'RecordingFailed',
    message: errorMessageOf(error),
    details: { record_video_dir: session.config.record_video_dir },
  };
}

/** tabpilot-2026-12-01T13-45-00-123Z.webm: sortable, and legal on every file system. */
export function videoFileName(at: Date): string {
  return `tabpilot-${at.toISOString().replace(/:/g, '-').replace('.', '-')}.webm`;
}
