import type { NativeRuntime } from './native-link';
import type { TabGroupApi } from './tab-grouper';

/** NativeLink's runtime bound to the browser. */
export function chromeNativeRuntime(): NativeRuntime {
  return {
    connectNative: (name) => chrome.runtime.connectNative(name),
    lastErrorMessage: () => chrome.runtime.lastError?.message,
  };
}

/** The tab-group calls bound to the browser (tabs.group and tabGroups need the tabGroups permission). */
export function chromeTabGroupApi(): TabGroupApi {
  return {
    group: (options) => chrome.tabs.group(options),
    ungroup: async (tabIds) => {
      const [first, ...rest] = tabIds;
      if (first !== undefined) {
        await chrome.tabs.ungroup([first, ...rest]);
      }
    },
    update: (groupId, properties) => chrome.tabGroups.update(groupId, properties),
    windowOf: async (tabId) => (await chrome.tabs.get(tabId)).windowId,
    groupWindow: async (groupId) => {
      try {
        return (await chrome.tabGroups.get(groupId)).windowId;
      } catch {
        // The group is gone (its last tab left it): a new one is made.
        return undefined;
      }
    },
  };
}
