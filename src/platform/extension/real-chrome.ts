import browser from 'webextension-polyfill';
import type { ChromeApi, ChromeTab } from './chrome-api';
import type { KeyValueStore } from './timeline-recorder';

function toTab(tab: browser.Tabs.Tab): ChromeTab {
  return {
    ...(tab.id === undefined ? {} : { id: tab.id }),
    windowId: tab.windowId ?? -1,
    ...(tab.url === undefined ? {} : { url: tab.url }),
    ...(tab.title === undefined ? {} : { title: tab.title }),
    // Chromium's pendingUrl, which the polyfill's types do not have.
    ...('pendingUrl' in tab && typeof tab.pendingUrl === 'string' ? { pendingUrl: tab.pendingUrl } : {}),
    active: tab.active,
  };
}

/**
 * ChromeApi bound to the browser: `browser.*` (webextension-polyfill; native on Chromium 156) where its
 * types cover the API, `chrome.debugger` for the Chrome-only part.
 */
export function realChromeApi(): ChromeApi {
  return {
    debugger: {
      attach: (target, version) => chrome.debugger.attach(target, version),
      detach: (target) => chrome.debugger.detach(target),
      sendCommand: (target, method, params) => chrome.debugger.sendCommand(target, method, params),
      getTargets: () => chrome.debugger.getTargets(),
      onEvent: chrome.debugger.onEvent,
      onDetach: chrome.debugger.onDetach,
    },
    tabs: {
      get: async (tabId) => toTab(await browser.tabs.get(tabId)),
      query: async (query) => (await browser.tabs.query(query)).map(toTab),
      create: async (properties) => toTab(await browser.tabs.create(properties)),
      remove: (tabId) => browser.tabs.remove(tabId),
      update: async (tabId, properties) => toTab(await browser.tabs.update(tabId, properties)),
      onRemoved: {
        addListener: (listener) => browser.tabs.onRemoved.addListener((tabId) => listener(tabId)),
      },
      onUpdated: {
        addListener: (listener) =>
          browser.tabs.onUpdated.addListener((tabId, change, tab) =>
            listener(
              tabId,
              {
                ...(change.url === undefined ? {} : { url: change.url }),
                ...(change.title === undefined ? {} : { title: change.title }),
                ...(change.status === undefined ? {} : { status: change.status }),
              },
              toTab(tab),
            ),
          ),
      },
    },
    webNavigation: {
      onCreatedNavigationTarget: {
        addListener: (listener) =>
          browser.webNavigation.onCreatedNavigationTarget.addListener(({ sourceTabId, tabId, url }) =>
            listener({ sourceTabId, tabId, url }),
          ),
      },
    },
    windows: {
      update: (windowId, properties) => browser.windows.update(windowId, properties),
    },
    storage: {
      get: async (key) => (await browser.storage.session.get(key))[key],
      set: (key, value) => browser.storage.session.set({ [key]: value }),
    },
    userAgent: navigator.userAgent,
    extensionOrigin: browser.runtime.getURL(''),
  };
}

/** A chrome.storage area as a key-value store: `session` dies with the browser, `local` stays. */
export function storageArea(area: 'session' | 'local'): KeyValueStore {
  const storage = browser.storage[area];
  return {
    get: async (key) => (await storage.get(key))[key],
    set: (key, value) => storage.set({ [key]: value }),
  };
}
