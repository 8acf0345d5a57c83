import { describe, expect, it } from 'vitest';
import type { CdpSession } from '../../cdp/session';
import { boundedScale, captureScreenshot } from './screenshot';

describe('boundedScale', () => {
  it('leaves an image within its bounds alone', () => {
    expect(boundedScale(1280, 800, 1568, 1_150_000)).toBe(1);
    expect(boundedScale(4000, 3000, null, null)).toBe(1);
  });

  it('fits the long side, then the pixel count, never past either', () => {
    for (const [width, height] of [
      [2560, 1600],
      [1280, 12_000],
      [3000, 3000],
      [1569, 10],
    ] as const) {
      const scale = boundedScale(width, height, 1568, 1_150_000);
      const [w, h] = [Math.round(width * scale), Math.round(height * scale)];
      expect(Math.max(w, h)).toBeLessThanOrEqual(1568);
      expect(w * h).toBeLessThanOrEqual(1_150_000);
      // Not scaled further than a bound asks: within 1 % of the tightest one.
      const tight = Math.min(1568 / Math.max(width, height), Math.sqrt(1_150_000 / (width * height)));
      expect(scale).toBeGreaterThan(tight * 0.99);
    }
  });

  it('keeps the browser-rounded image within both bounds for every viewport size', () => {
    for (let width = 200; width <= 2000; width += 7) {
      for (let height = 150; height <= 1500; height += 11) {
        const scale = boundedScale(width, height, 400, 60_000);
        const [w, h] = [Math.round(width * scale), Math.round(height * scale)];
        expect(Math.max(w, h), `${width}×${height}`).toBeLessThanOrEqual(400);
        expect(w * h, `${width}×${height}`).toBeLessThanOrEqual(60_000);
      }
    }
  });
});

describe('captureScreenshot of a hidden page', () => {
  /**
   * A page that is `state`; hidden, a capture answers only when a later capture asks for a frame (as a
   * background tab does in Chromium 156 after a navigation).
   */
  function fakePage(state: 'visible' | 'hidden'): { session: CdpSession; captures: unknown[] } {
    const captures: unknown[] = [];
    const waiting: (() => void)[] = [];
    const session = {
      send: (method: string, params: unknown) => {
        switch (method) {
          case 'Page.getLayoutMetrics':
            return Promise.resolve({
              cssVisualViewport: { clientWidth: 800, clientHeight: 600, pageX: 0, pageY: 0 },
              visualViewport: { clientWidth: 800, clientHeight: 600 },
              cssContentSize: { width: 800, height: 600 },
            });
          case 'Runtime.evaluate':
            return Promise.resolve({ result: { value: state } });
          case 'Page.captureScreenshot': {
            captures.push(params);
            for (const answer of waiting.splice(0)) {
              answer();
            }
            if (state === 'visible') {
              return Promise.resolve({ data: 'aGk=' });
            }
            return new Promise((resolve) => waiting.push(() => resolve({ data: 'aGk=' })));
          }
          default:
            throw new Error(`unexpected ${method}`);
        }
      },
    } as unknown as CdpSession;
    return { session, captures };
  }

  const request = { fullPage: false, clip: null, format: 'png', quality: null } as const;

  it('nudges a hidden page with a capture of its viewport, no clip, until its capture answers', async () => {
    const { session, captures } = fakePage('hidden');
    expect(await captureScreenshot(session, request)).toMatchObject({ data: 'aGk=', width: 800, height: 600 });
    expect(captures).toHaveLength(2);
    // A clip is drawn by emulating a viewport of its size, which the capture under way could answer with.
    expect(captures[1]).not.toHaveProperty('clip');
    expect(captures[1]).toMatchObject({ format: 'jpeg', quality: 1 });
  });

  it('leaves a visible page to its one capture', async () => {
    const { session, captures } = fakePage('visible');
    await captureScreenshot(session, request);
    expect(captures).toHaveLength(1);
  });
});
