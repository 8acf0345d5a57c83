import { describe, expect, it } from 'vitest';
import { StopMemory } from './stop-memory';

describe('StopMemory', () => {
  it('says stopped after a stop until a tab is controlled again', () => {
    const stops = new StopMemory();
    expect(stops.stopped(0)).toBe(false);
    stops.noteStopped();
    expect(stops.stopped(0)).toBe(true);
    expect(stops.stopped(1)).toBe(false);
    expect(stops.stopped(0)).toBe(false);
  });
});
