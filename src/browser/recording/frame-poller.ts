import type { CdpSession } from '../../cdp/session';
import { errorMessageOf } from '../../shared/errors';

/** The one command the poller sends; a CdpSession has it (and a fake in a unit test can). */
export type ScreenshotSession = Pick<CdpSession, 'call' | 'detached'>;

export interface FramePollerOptions {
  /** Frames a second to take (at most: a slow screenshot delays the next one, it never piles up). */
  framesPerSecond: number;
  /** JPEG quality of each frame. */
  quality: number;
  /** A page that answers no screenshot in this long is skipped for that frame. */
  timeoutMs: number;
  /** The session to take the next frame of (the focused tab's), or undefined: none now. */
  current(): ScreenshotSession | undefined;
  /** How long (ms) the session has had none of its commands in flight; 0 while one is. */
  idleMs(): number;
  /** A JPEG (base64) and when it was taken (epoch seconds). */
  onFrame(data: string, takenAt: number, from: ScreenshotSession): void;
  /** A frame that could not be taken: reported, and the next is tried on time. */
  onMissed(reason: string): void;
  now(): number;
}

/** Commands that paused this long are over for now: a frame that waited for them is taken. */
export const QUIET_MS = 100;
/** While commands run back to back, taking frames holds the browser for at most this share of the time. */
export const BUSY_SHARE = 0.05;
/** A frame still comes at least this often while they run, so a long burst is in the video too. */
export const BUSY_MAX_GAP_MS = 2_000;

/**
 * Takes a screenshot of the focused tab a fixed number of times a second. The browser's screencast
 * was measured against this on 2 cores: its capturer copies every frame the page draws (up to 60 a
 * second, before acknowledgement, everyNthFrame or quality are looked at), which alone made a
 * click-and-state step on a repainting page 1.5 to 1.9 times slower; a screenshot costs one copy per
 * frame kept, whatever the page does, and at 5 a second kept Node's step within about 10%.
 * Screenshots are taken one at a time; the next starts a frame interval after the last one started,
 * or at once when the last took longer.
 *
 * A frame also yields to the session's commands. A screenshot costs the browser about 70 ms of CPU
 * (measured on 2 cores); in the extension, whose commands already keep both cores busy, frames at 5 a
 * second slowed back-to-back click-and-state steps by 15 to 20%. So while commands run, the next frame
 * waits until they pause (QUIET_MS), or until capturing has held the browser for only BUSY_SHARE of the
 * time since the last frame (a 45 ms screenshot: one frame in 900 ms). Between an agent's steps, while
 * its model thinks, frames come at the full rate, and the first of them shows what the step did. Each
 * frame keeps the time it was taken, so the video's timing stays true whatever the rate.
 */
export class FramePoller {
  readonly #options: FramePollerOptions;
  readonly #intervalMs: number;
  #running = false;
  #loop: Promise<void> = Promise.resolve();
  #timer: ReturnType<typeof setTimeout> | undefined;
  #wake: (() => void) | undefined;
  /** The screenshot being taken: abandoned when focus leaves its tab, or when the poller stops. */
  #inFlight: { session: ScreenshotSession; controller: AbortController } | undefined;
  /** wake() came while a screenshot was in flight: the next one starts as soon as that one is done. */
  #due = false;
  /** The session the last frame kept was taken of. */
  #lastFrom: ScreenshotSession | undefined;

  constructor(options: FramePollerOptions) {
    this.#options = options;
    this.#intervalMs = 1000 / options.framesPerSecond;
  }

  get running(): boolean {
    return this.#running;
  }

  start(): void {
    if (this.#running) {
      return;
    }
    this.#running = true;
    this.#loop = this.#run();
  }

  /**
   * Takes the next frame now instead of at its time (focus moved: the new tab's picture is due). A
   * screenshot still in flight of a tab that lost focus is abandoned: a tab sent to the background
   * can leave it unanswered until its timeout, which would hold up the new tab's frames.
   */
  wake(): void {
    this.#due = true;
    const inFlight = this.#inFlight;
    if (inFlight !== undefined && inFlight.session !== this.#options.current()) {
      inFlight.controller.abort();
    }
    this.#wake?.();
  }

  /**
   * Stops taking frames; no frame comes after. `abandon`: the screenshot in flight (if any) is dropped
   * at once; otherwise it is waited for (up to its timeout) and handed on, for a recording that has no
   * frame yet.
   */
  async stop(options: { abandon: boolean } = { abandon: true }): Promise<void> {
    this.#running = false;
    // A video whose last frame is of a tab that has since lost focus (or that has none) ends on the
    // focused tab's picture: its frame in flight is waited for, or one more is taken (bounded).
    const stale = this.#lastFrom === undefined || this.#lastFrom !== this.#options.current();
    if (options.abandon && !stale) {
      this.#inFlight?.controller.abort();
    }
    this.#wake?.();
    await this.#loop;
    if (stale && this.#lastFrom !== this.#options.current()) {
      await this.#take(this.#options.now());
    }
  }

  async #run(): Promise<void> {
    while (this.#running) {
      const startedAt = this.#options.now();
      await this.#take(startedAt);
      // Whole milliseconds: the clock has no finer grain, and a fraction below would start the next
      // frame a millisecond before its interval is up.
      const tookMs = Math.round((this.#options.now() - startedAt) * 1000);
      if (!(await this.#pause(this.#intervalMs - tookMs))) {
        await this.#yieldToCommands(startedAt, tookMs);
      }
    }
  }

  /** Waits while the session's commands run, up to the frame's share of the time (see the class). */
  async #yieldToCommands(startedAt: number, tookMs: number): Promise<void> {
    const latestAt = startedAt * 1000 + Math.min(tookMs / BUSY_SHARE, BUSY_MAX_GAP_MS);
    while (this.#running) {
      const idleMs = this.#options.idleMs();
      const leftMs = Math.round(latestAt - this.#options.now() * 1000);
      if (idleMs >= QUIET_MS || leftMs <= 0 || (await this.#pause(Math.min(QUIET_MS - idleMs, leftMs)))) {
        return;
      }
    }
  }

  async #take(startedAt: number): Promise<void> {
    const session = this.#options.current();
    if (session === undefined || session.detached) {
      return;
    }
    const controller = new AbortController();
    this.#inFlight = { session, controller };
    try {
      const shot = await session.call(
        'Page.captureScreenshot',
        { format: 'jpeg', quality: this.#options.quality, optimizeForSpeed: true },
        { timeoutMs: this.#options.timeoutMs, signal: controller.signal, background: true },
      );
      if (!controller.signal.aborted) {
        // The picture is of the page as it was when asked for: the browser draws it on request.
        this.#lastFrom = session;
        this.#options.onFrame(shot.data, startedAt, session);
      }
    } catch (error) {
      if (!controller.signal.aborted) {
        this.#options.onMissed(errorMessageOf(error));
      }
    } finally {
      this.#inFlight = undefined;
    }
  }

  /** Waits `ms`; true when woken before (a frame is due at once, or the poller stopped). */
  #pause(ms: number): Promise<boolean> {
    if (!this.#running || this.#due) {
      this.#due = false;
      return Promise.resolve(true);
    }
    if (ms <= 0) {
      return Promise.resolve(false);
    }
    return new Promise((resolve) => {
      const done = (woken: boolean): void => {
        this.#due = false;
        clearTimeout(this.#timer);
        this.#timer = undefined;
        this.#wake = undefined;
        resolve(woken);
      };
      this.#wake = () => done(true);
      this.#timer = setTimeout(() => done(false), ms);
    });
  }
}
