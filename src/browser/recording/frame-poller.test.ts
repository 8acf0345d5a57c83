import { afterEach, describe, expect, it, vi } from 'vitest';
import { TabpilotError } from '../../shared/errors';
import { BUSY_MAX_GAP_MS, BUSY_SHARE, FramePoller, QUIET_MS, type ScreenshotSession } from './frame-poller';

interface FakeTab extends ScreenshotSession {
  readonly asked: Array<{ params: unknown; options: unknown }>;
  detached: boolean;
}

/** A tab whose screenshots answer after `delayMs` (fake time) with `<name><n>`, or fail when told. */
function fakeTab(name: string, options: { delayMs?: number; fail?: boolean } = {}): FakeTab {
  const asked: FakeTab['asked'] = [];
  const tab = {
    asked,
    detached: false,
    call: (
      _method: string,
      params: unknown,
      callOptions: { timeoutMs: number; signal: AbortSignal; background: boolean },
    ) => {
      asked.push({ params, options: { timeoutMs: callOptions.timeoutMs, background: callOptions.background } });
      return new Promise((resolve, reject) => {
        callOptions.signal.addEventListener('abort', () => reject(new TabpilotError('CANCELLED', 'aborted')));
        setTimeout(() => {
          if (options.fail === true) {
            reject(new TabpilotError('TIMEOUT', `${name} did not answer`));
          } else {
            resolve({ data: `${name}${asked.length}` });
          }
        }, options.delayMs ?? 0);
      });
    },
  };
  return tab as unknown as FakeTab;
}

const START_MS = 1_000_000;
/** Frame times are epoch seconds; the tests compare whole milliseconds since the fake clock's start. */
const msAfterStart = (at: number): number => Math.round(at * 1000 - START_MS);

/** `idleMs`: how long the session's commands have paused (by default they never run). */
function pollerOver(
  current: () => ScreenshotSession | undefined,
  framesPerSecond = 5,
  idleMs: () => number = () => Number.POSITIVE_INFINITY,
) {
  const frames: Array<{ data: string; at: number }> = [];
  const missed: string[] = [];
  const poller = new FramePoller({
    framesPerSecond,
    quality: 80,
    timeoutMs: 5_000,
    current,
    idleMs,
    onFrame: (data, at) => frames.push({ data, at }),
    onMissed: (reason) => missed.push(reason),
    now: () => Date.now() / 1000,
  });
  return { poller, frames, missed };
}

describe('FramePoller', () => {
  afterEach(() => {
    vi.useRealTimers();
  });

  it('takes a JPEG screenshot of the current tab at the frame rate, stamped when it was asked for', async () => {
    vi.useFakeTimers({ now: START_MS });
    const tab = fakeTab('red', { delayMs: 30 });
    const { poller, frames } = pollerOver(() => tab);
    poller.start();
    await vi.advanceTimersByTimeAsync(1_000);
    const stopped = poller.stop();
    await vi.advanceTimersByTimeAsync(100);
    await stopped;
    // At 5 a second: frames at 0, 200, ..., 800 ms; the one asked for at 1000 ms was in flight at stop.
    expect(frames.map((frame) => msAfterStart(frame.at))).toEqual([0, 200, 400, 600, 800]);
    expect(frames.map((frame) => frame.data)).toEqual(['red1', 'red2', 'red3', 'red4', 'red5']);
    expect(tab.asked).toHaveLength(6);
    expect(tab.asked[0]).toEqual({
      params: { format: 'jpeg', quality: 80, optimizeForSpeed: true },
      // A frame is not the session's command: it does not keep the session from counting as idle.
      options: { timeoutMs: 5_000, background: true },
    });
  });

  it('never piles screenshots up: a slow one delays the next, which then starts at once', async () => {
    vi.useFakeTimers({ now: START_MS });
    const tab = fakeTab('slow', { delayMs: 500 });
    const { poller, frames } = pollerOver(() => tab);
    poller.start();
    await vi.advanceTimersByTimeAsync(1_600);
    const stopped = poller.stop();
    await vi.advanceTimersByTimeAsync(500);
    await stopped;
    expect(frames.map((frame) => msAfterStart(frame.at))).toEqual([0, 500, 1000]);
    expect(tab.asked).toHaveLength(4);
  });

  it('films whichever tab is current, and takes the next frame at once when woken', async () => {
    vi.useFakeTimers({ now: START_MS });
    const red = fakeTab('red');
    const blue = fakeTab('blue');
    let current: FakeTab = red;
    const { poller, frames } = pollerOver(() => current);
    poller.start();
    await vi.advanceTimersByTimeAsync(250);
    current = blue;
    poller.wake();
    await vi.advanceTimersByTimeAsync(0);
    await poller.stop();
    expect(frames.map((frame) => [frame.data, msAfterStart(frame.at)])).toEqual([
      ['red1', 0],
      ['red2', 200],
      ['blue1', 250],
    ]);
  });

  it('reports a missed frame and goes on; takes none of a detached tab or when there is no tab', async () => {
    vi.useFakeTimers({ now: START_MS });
    const stuck = fakeTab('stuck', { fail: true });
    const gone = fakeTab('gone');
    gone.detached = true;
    const tabs: Array<FakeTab | undefined> = [stuck, undefined, gone, fakeTab('back')];
    let tick = 0;
    const { poller, frames, missed } = pollerOver(() => tabs[Math.min(tick++, tabs.length - 1)]);
    poller.start();
    await vi.advanceTimersByTimeAsync(700);
    await poller.stop();
    expect(missed).toEqual(['stuck did not answer']);
    expect(gone.asked).toHaveLength(0);
    expect(frames.map((frame) => [frame.data, msAfterStart(frame.at)])).toEqual([['back1', 600]]);
  });

  it('stops at once, abandoning the screenshot in flight, and takes no frame after', async () => {
    vi.useFakeTimers({ now: START_MS });
    const tab = fakeTab('tab', { delayMs: 100 });
    const { poller, frames, missed } = pollerOver(() => tab);
    poller.start();
    await vi.advanceTimersByTimeAsync(150);
    await poller.stop();
    expect(poller.running).toBe(false);
    await vi.advanceTimersByTimeAsync(1_000);
    expect(frames.map((frame) => frame.data)).toEqual(['tab1']);
    expect(tab.asked).toHaveLength(1);
    expect(missed).toEqual([]);
  });

  it('told not to abandon it, stops after handing on the screenshot in flight', async () => {
    vi.useFakeTimers({ now: START_MS });
    const tab = fakeTab('first', { delayMs: 400 });
    const { poller, frames } = pollerOver(() => tab);
    poller.start();
    await vi.advanceTimersByTimeAsync(100);
    const stopped = poller.stop({ abandon: false });
    await vi.advanceTimersByTimeAsync(300);
    await stopped;
    expect(frames.map((frame) => [frame.data, msAfterStart(frame.at)])).toEqual([['first1', 0]]);
    expect(tab.asked).toHaveLength(1);
  });

  it('abandons a screenshot of a tab that lost focus: the new tab is filmed at once', async () => {
    vi.useFakeTimers({ now: START_MS });
    // A tab sent to the background that leaves its screenshot unanswered until the timeout.
    const hidden = fakeTab('hidden', { delayMs: 5_000 });
    const shown = fakeTab('shown');
    let current: FakeTab = hidden;
    const { poller, frames, missed } = pollerOver(() => current);
    poller.start();
    await vi.advanceTimersByTimeAsync(300);
    current = shown;
    poller.wake();
    await vi.advanceTimersByTimeAsync(0);
    await poller.stop();
    expect(frames.map((frame) => [frame.data, msAfterStart(frame.at)])).toEqual([['shown1', 300]]);
    expect(missed).toEqual([]);
  });

  describe("yields to the session's commands", () => {
    const SHOT_MS = 45;
    /** Commands never pause. */
    const alwaysBusy = (): number => 0;

    it('while commands run back to back, takes a frame only as often as keeps capturing to its share', async () => {
      vi.useFakeTimers({ now: START_MS });
      const tab = fakeTab('busy', { delayMs: SHOT_MS });
      const { poller, frames } = pollerOver(() => tab, 5, alwaysBusy);
      poller.start();
      await vi.advanceTimersByTimeAsync(2_000);
      await poller.stop();
      // A 45 ms screenshot is 5% of 900 ms: at 0, 900 and 1800 ms instead of every 200.
      expect(SHOT_MS / BUSY_SHARE).toBe(900);
      expect(frames.map((frame) => msAfterStart(frame.at))).toEqual([0, 900, 1800]);
    });

    it('takes the waiting frame once the commands pause, then goes on at the full rate', async () => {
      vi.useFakeTimers({ now: START_MS });
      const tab = fakeTab('step', { delayMs: SHOT_MS });
      const busyUntil = START_MS + 500;
      const { poller, frames } = pollerOver(
        () => tab,
        5,
        () => Math.max(0, Date.now() - busyUntil),
      );
      poller.start();
      await vi.advanceTimersByTimeAsync(1_100);
      await poller.stop();
      // Commands ran until 500 ms: the frame due at 200 waits until they had paused for QUIET_MS.
      expect(frames.map((frame) => msAfterStart(frame.at))).toEqual([0, 500 + QUIET_MS, 800, 1000]);
    });

    it('still takes a frame every BUSY_MAX_GAP_MS during a long burst when screenshots are slow', async () => {
      vi.useFakeTimers({ now: START_MS });
      const tab = fakeTab('slow', { delayMs: 500 });
      const { poller, frames } = pollerOver(() => tab, 5, alwaysBusy);
      poller.start();
      // 500 ms is 5% of 10 s; the frames still come at 0, 2000 and 4000 ms (answered by 4500).
      await vi.advanceTimersByTimeAsync(4_600);
      await poller.stop();
      expect(frames.map((frame) => msAfterStart(frame.at))).toEqual([0, BUSY_MAX_GAP_MS, 2 * BUSY_MAX_GAP_MS]);
    });

    it("a focus change takes the new tab's frame at once, busy or not", async () => {
      vi.useFakeTimers({ now: START_MS });
      const red = fakeTab('red', { delayMs: SHOT_MS });
      const blue = fakeTab('blue', { delayMs: SHOT_MS });
      let current: FakeTab = red;
      const { poller, frames } = pollerOver(() => current, 5, alwaysBusy);
      poller.start();
      await vi.advanceTimersByTimeAsync(300);
      current = blue;
      poller.wake();
      await vi.advanceTimersByTimeAsync(SHOT_MS);
      await poller.stop();
      expect(frames.map((frame) => [frame.data, msAfterStart(frame.at)])).toEqual([
        ['red1', 0],
        ['blue1', 300],
      ]);
    });
  });
});
