import browser from 'webextension-polyfill';
import type { ShotArea } from './storage-step-shots';

/** chrome.storage.local as the steps' picture store uses it. */
export function localShotArea(): ShotArea {
  const storage = browser.storage.local;
  return {
    get: async (key) => (await storage.get(key))[key],
    set: (items) => storage.set(items),
    remove: (keys) => storage.remove(keys),
  };
}
