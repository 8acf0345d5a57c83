import { describe, expect, it } from 'vitest';
import { ALL_EVENTS } from './index';

describe('event catalog', () => {
  it('names every event with a literal ending in Event, no name a substring of another', () => {
    const names = ALL_EVENTS.map((definition) => definition.type);
    expect(new Set(names).size).toBe(names.length);
    for (const name of names) {
      expect(name).toMatch(/^[A-Z][A-Za-z]+Event$/);
      for (const other of names) {
        if (other !== name) {
          expect(other.includes(name), `${name} is inside ${other}`).toBe(false);
        }
      }
    }
  });

  it('gives every event a positive timeout', () => {
    for (const definition of ALL_EVENTS) {
      expect(definition.timeoutMs).toBeGreaterThan(0);
    }
  });
});
