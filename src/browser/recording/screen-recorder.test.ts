import { describe, expect, it } from 'vitest';
import type { TimedFrame, VideoSink } from '../host';
import { ScreenRecorder } from './screen-recorder';

const T0 = 1_764_600_000;

function fakeSink(options: { failOn?: string; slow?: boolean } = {}): VideoSink & {
  frames: TimedFrame[];
  finished: boolean;
  discarded: boolean;
} {
  const sink = {
    frames: [] as TimedFrame[],
    finished: false,
    discarded: false,
    async add(frame: TimedFrame) {
      if (options.slow === true) {
        await new Promise((resolve) => setTimeout(resolve, 1));
      }
      if (frame.data === options.failOn) {
        throw new Error(`cannot encode ${frame.data}`);
      }
      sink.frames.push(frame);
    },
    finish() {
      sink.finished = true;
      return Promise.resolve('/videos/x.webm');
    },
    discard() {
      sink.discarded = true;
      return Promise.resolve();
    },
  };
  return sink;
}

describe('ScreenRecorder', () => {
  it('hands frames on in order, without waiting, and sums up the file', async () => {
    const sink = fakeSink({ slow: true });
    const recorder = new ScreenRecorder(sink, { width: 640, height: 360 }, T0);
    for (let i = 0; i < 5; i++) {
      recorder.add(`f${i}`, T0 + i * 0.1);
    }
    const summary = await recorder.finish(T0 + 4);
    expect(sink.frames.map((frame) => frame.data)).toEqual(['f0', 'f1', 'f2', 'f3', 'f4', 'f4']);
    expect(summary).toEqual({ path: '/videos/x.webm', frames: 6, duration_seconds: 4, width: 640, height: 360 });
    expect(sink.finished).toBe(true);
  });

  it('stops at the first frame that fails, writes no file, and says why', async () => {
    const sink = fakeSink({ failOn: 'bad' });
    const recorder = new ScreenRecorder(sink, { width: 640, height: 360 }, T0);
    recorder.add('good', T0);
    recorder.add('bad', T0 + 1);
    recorder.add('after', T0 + 2);
    await expect(recorder.finish(T0 + 3)).rejects.toThrow('cannot encode bad');
    expect(sink.frames.map((frame) => frame.data)).toEqual(['good']);
    expect(sink.finished).toBe(false);
    expect(sink.discarded).toBe(true);
  });

  it('refuses to write a video without a frame', async () => {
    const sink = fakeSink();
    const recorder = new ScreenRecorder(sink, { width: 640, height: 360 }, T0);
    await expect(recorder.finish(T0 + 1)).rejects.toMatchObject({ code: 'INTERNAL' });
    expect(sink.discarded).toBe(true);
  });
});
