import type { KeyValueStore } from '../../src/platform/extension/timeline-recorder';

/**
 * chrome.storage in memory, for unit tests: values are copied in and out (structured clone), as the real
 * store serializes them, so a test cannot pass by mutating what it stored. `data` shows what is kept.
 */
export function memoryStore(initial: Record<string, unknown> = {}): KeyValueStore & { data: Record<string, unknown> } {
  const data: Record<string, unknown> = structuredClone(initial);
  return {
    data,
    get: (key) => Promise.resolve(structuredClone(data[key])),
    set: (key, value) => {
      data[key] = structuredClone(value);
      return Promise.resolve();
    },
  };
}
