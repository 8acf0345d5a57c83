import { describe, expect, it } from 'vitest';
import { FrameTimeline, MAX_FRAMES_PER_SECOND } from './frame-timeline';

const T0 = 1_764_600_000;
const interval = 1 / MAX_FRAMES_PER_SECOND;

describe('FrameTimeline', () => {
  it('gives each frame the time until the next, from the browser timestamps', () => {
    const timeline = new FrameTimeline(T0);
    expect(timeline.add('a', T0 + 0.2)).toBeUndefined();
    const a = timeline.add('b', T0 + 0.7);
    const b = timeline.add('c', T0 + 2.7);
    // The first frame is shown from the start: there is nothing before it.
    expect(a).toMatchObject({ data: 'a', timestamp: 0 });
    expect(a?.duration).toBeCloseTo(0.7, 6);
    expect(b?.data).toBe('b');
    expect(b?.timestamp).toBeCloseTo(0.7, 6);
    expect(b?.duration).toBeCloseTo(2, 6);
  });

  it('keeps an idle stretch at its wall-clock length: the last frame stays until the end', () => {
    const timeline = new FrameTimeline(T0);
    timeline.add('only', T0 + 0.05);
    const frames = timeline.finish(T0 + 10);
    // A single frame over ten seconds: the video is ten seconds long, not one frame long.
    expect(frames.map((frame) => frame.data)).toEqual(['only', 'only']);
    const [held, closing] = frames;
    expect(held?.timestamp).toBe(0);
    expect(closing?.timestamp).toBeCloseTo(10 - interval, 6);
    expect((closing?.timestamp ?? 0) + (closing?.duration ?? 0)).toBeCloseTo(10, 6);
    expect((held?.duration ?? 0) + (closing?.duration ?? 0)).toBeCloseTo(10, 6);
    expect(timeline.duration).toBeCloseTo(10, 6);
    expect(timeline.frames).toBe(2);
  });

  it('lets a later frame within the frame interval take the held frame’s place', () => {
    const timeline = new FrameTimeline(T0);
    timeline.add('a', T0);
    timeline.add('b', T0 + 1);
    expect(timeline.add('b2', T0 + 1 + interval / 2)).toBeUndefined();
    const [b] = timeline.finish(T0 + 1 + interval * 1.5);
    expect(b?.data).toBe('b2');
    expect(b?.timestamp).toBeCloseTo(1, 6);
    expect(timeline.replaced).toBe(1);
  });

  it('never goes back in time: a frame stamped before the held one replaces it', () => {
    const timeline = new FrameTimeline(T0);
    timeline.add('a', T0);
    timeline.add('b', T0 + 2);
    // Another tab's first frame, stamped a little before the last frame of the tab left behind.
    expect(timeline.add('other-tab', T0 + 1.9)).toBeUndefined();
    const frames = timeline.finish(T0 + 3);
    expect(frames[0]?.data).toBe('other-tab');
    for (let i = 1; i < frames.length; i++) {
      expect(frames[i]?.timestamp ?? 0).toBeGreaterThan(frames[i - 1]?.timestamp ?? 0);
    }
  });

  it('gives a short last frame one interval and no closing copy', () => {
    const timeline = new FrameTimeline(T0);
    timeline.add('a', T0);
    expect(timeline.finish(T0)).toEqual([{ data: 'a', timestamp: 0, duration: interval }]);
  });

  it('shows frames that come after the end was asked for in its last interval, never after it', () => {
    const timeline = new FrameTimeline(T0, 5);
    timeline.add('old tab', T0 + 3.9);
    timeline.endBy(T0 + 4);
    // Taken at the stop, seconds later on a loaded machine: still shown before the end.
    timeline.add('focused tab', T0 + 7.5);
    const frames = timeline.finish(T0 + 4);
    expect(timeline.duration).toBeCloseTo(4, 6);
    expect(frames.at(-1)?.data).toBe('focused tab');
    const last = frames.at(-1);
    expect((last?.timestamp ?? 0) + (last?.duration ?? 0)).toBeCloseTo(4, 6);
  });

  it('puts a frame after the end behind a held frame well before it', () => {
    const timeline = new FrameTimeline(T0, 5);
    timeline.add('a', T0);
    timeline.add('b', T0 + 1);
    timeline.endBy(T0 + 4);
    const held = timeline.add('c', T0 + 9);
    expect(held).toMatchObject({ data: 'b' });
    expect(held?.duration).toBeCloseTo(2.8, 6);
    expect(timeline.finish(T0 + 4).map((frame) => frame.data)).toEqual(['c']);
    expect(timeline.duration).toBeCloseTo(4, 6);
  });

  it('finishes empty without frames, and refuses frames after finishing', () => {
    const timeline = new FrameTimeline(T0);
    expect(timeline.finish(T0 + 5)).toEqual([]);
    expect(timeline.frames).toBe(0);
    expect(() => timeline.add('late', T0 + 6)).toThrow(/finished/);
  });

  it('keeps at most the configured frames a second, each showing the latest picture of its interval', () => {
    const timeline = new FrameTimeline(T0, 10);
    const kept = [];
    // A page repainting at 60 frames a second for one second.
    for (let i = 0; i < 60; i++) {
      const frame = timeline.add(`f${i}`, T0 + i / 60);
      if (frame !== undefined) {
        kept.push(frame);
      }
    }
    kept.push(...timeline.finish(T0 + 1));
    expect(kept.length).toBeLessThanOrEqual(12);
    expect(kept.at(-1)?.data).toBe('f59');
    expect(timeline.replaced).toBeGreaterThan(45);
    for (const frame of kept.slice(0, -2)) {
      expect(frame.duration).toBeGreaterThanOrEqual(0.1 - 1e-6);
    }
  });
});
