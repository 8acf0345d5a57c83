import type { TimedFrame } from '../host';

/**
 * Unless told otherwise, at most this many frames a second are encoded (a later frame within the
 * interval replaces the earlier one).
 */
export const MAX_FRAMES_PER_SECOND = 30;

/** Frames paced by a timer on a millisecond clock come up to this much (seconds) sooner than asked. */
const CLOCK_SLACK = 0.001;

/**
 * Turns screencast frames, each stamped with when the browser drew it (epoch seconds), into frames with
 * a timestamp and a duration in seconds of video. A frame's duration is known only when the next one
 * arrives, so one frame is held back; the last is held until the recording ends, so an idle page that
 * sends no frames still gives a video as long as the wall-clock span recorded.
 */
export class FrameTimeline {
  readonly #origin: number;
  /** The shortest time a frame is shown; a frame that comes sooner takes the held one's place. */
  readonly #interval: number;
  #pending: { data: string; timestamp: number } | undefined;
  #frames = 0;
  #replaced = 0;
  #end: number | undefined;
  /** When the recording was asked to end (seconds of video), once it was: later frames go before it. */
  #endBy: number | undefined;

  /** `origin`: when recording began (epoch seconds); video time 0. */
  constructor(origin: number, maxFramesPerSecond = MAX_FRAMES_PER_SECOND) {
    this.#origin = origin;
    this.#interval = 1 / maxFramesPerSecond;
  }

  /** Frames handed out so far. */
  get frames(): number {
    return this.#frames;
  }

  /** True until the first frame comes. */
  get empty(): boolean {
    return this.#frames === 0 && this.#pending === undefined;
  }

  /** Frames that arrived within the minimum interval of the one before and took its place. */
  get replaced(): number {
    return this.#replaced;
  }

  /** The video's length once finished, in seconds. */
  get duration(): number | undefined {
    return this.#end;
  }

  /**
   * Adds a frame drawn at `drawnAt` (epoch seconds) and returns the previous one, now that its
   * duration is known. The first frame is shown from time 0: there is nothing to show before it. A
   * frame drawn out of order or too soon after the held one replaces it.
   */
  add(data: string, drawnAt: number): TimedFrame | undefined {
    if (this.#end !== undefined) {
      throw new Error('the timeline has finished');
    }
    const at = this.#endBy === undefined ? drawnAt - this.#origin : Math.min(drawnAt - this.#origin, this.#endBy);
    const pending = this.#pending;
    if (pending === undefined) {
      this.#pending = { data, timestamp: 0 };
      return undefined;
    }
    if (at - pending.timestamp < this.#interval - CLOCK_SLACK) {
      pending.data = data;
      this.#replaced++;
      return undefined;
    }
    this.#pending = { data, timestamp: at };
    return this.#emit(pending.data, pending.timestamp, at - pending.timestamp);
  }

  /**
   * The recording was asked to end at `endAt` (epoch seconds), and frames may still come (one that was
   * in flight, or the focused tab's picture taken at the stop). Each is shown in the last frame
   * interval before the end instead of after it, so the video stays as long as the span recorded.
   */
  endBy(endAt: number): void {
    this.#endBy ??= endAt - this.#origin - this.#interval;
  }

  /**
   * Ends the video at `endAt` (epoch seconds): the last frame stays on screen until then. It is handed
   * out twice, the second time one frame interval before the end, so the file has a frame at its end
   * as well as a duration (tools that step through frames, ffmpeg's fps filter among them, stop at the
   * last frame's timestamp and would cut a long last frame short).
   */
  finish(endAt: number): TimedFrame[] {
    if (this.#end !== undefined) {
      throw new Error('the timeline has finished');
    }
    const pending = this.#pending;
    this.#pending = undefined;
    if (pending === undefined) {
      this.#end = 0;
      return [];
    }
    const duration = Math.max(this.#interval, endAt - this.#origin - pending.timestamp);
    this.#end = pending.timestamp + duration;
    if (duration < 2 * this.#interval) {
      return [this.#emit(pending.data, pending.timestamp, duration)];
    }
    const closing = this.#end - this.#interval;
    return [
      this.#emit(pending.data, pending.timestamp, closing - pending.timestamp),
      this.#emit(pending.data, closing, this.#interval),
    ];
  }

  #emit(data: string, timestamp: number, duration: number): TimedFrame {
    this.#frames++;
    return { data, timestamp, duration };
  }
}
