import { TabpilotError } from '../../shared/errors';
import type { TimedFrame, VideoSink } from '../host';
import { FrameTimeline } from './frame-timeline';

export interface RecordingSummary {
  path: string;
  frames: number;
  duration_seconds: number;
  width: number;
  height: number;
}

/**
 * One recording: screencast frames in, through the timeline, to the platform's encoder. Frames are
 * handed on in order without waiting (the CDP listener must not block); the first write that fails
 * stops the rest and makes `finish` fail with it, leaving no half-written file.
 */
export class ScreenRecorder {
  readonly width: number;
  readonly height: number;
  readonly #sink: VideoSink;
  readonly #timeline: FrameTimeline;
  #writes: Promise<void> = Promise.resolve();
  #failure: unknown;

  constructor(sink: VideoSink, size: { width: number; height: number }, origin: number, maxFramesPerSecond?: number) {
    this.#sink = sink;
    this.width = size.width;
    this.height = size.height;
    this.#timeline = new FrameTimeline(origin, maxFramesPerSecond);
  }

  /** No frame has come yet. */
  get empty(): boolean {
    return this.#timeline.empty;
  }

  /** A frame the browser drew at `drawnAt` (epoch seconds). */
  add(data: string, drawnAt: number): void {
    const frame = this.#timeline.add(data, drawnAt);
    if (frame !== undefined) {
      this.#write(frame);
    }
  }

  /** The recording was asked to end at `endAt` (epoch seconds): frames still coming are shown before it. */
  endBy(endAt: number): void {
    this.#timeline.endBy(endAt);
  }

  /** Ends the video at `endAt` (epoch seconds) and writes the file. */
  async finish(endAt: number): Promise<RecordingSummary> {
    for (const frame of this.#timeline.finish(endAt)) {
      this.#write(frame);
    }
    await this.#writes;
    if (this.#failure !== undefined || this.#timeline.frames === 0) {
      await this.#sink.discard();
      throw this.#failure instanceof Error
        ? this.#failure
        : new TabpilotError('INTERNAL', 'The recording got no frame from the browser');
    }
    const path = await this.#sink.finish();
    return {
      path,
      frames: this.#timeline.frames,
      duration_seconds: this.#timeline.duration ?? 0,
      width: this.width,
      height: this.height,
    };
  }

  /** Drops the recording (the session ended before it could be written). */
  async discard(): Promise<void> {
    await this.#writes;
    await this.#sink.discard();
  }

  #write(frame: TimedFrame): void {
    this.#writes = this.#writes
      .then(() => (this.#failure === undefined ? this.#sink.add(frame) : undefined))
      .catch((error: unknown) => {
        this.#failure ??= error;
      });
  }
}
