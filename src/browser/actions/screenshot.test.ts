import { describe, expect, it } from 'vitest';
import { boundedScale } from './screenshot';

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
