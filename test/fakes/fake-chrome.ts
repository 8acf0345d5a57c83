import type {
  ChromeApi,
  ChromeEvent,
  ChromeTab,
  DebuggerTarget,
  DebuggerTargetInfo,
  DetachReason,
  NavigationTarget,
} from '../../src/platform/extension/chrome-api';

type Listener = (...args: never[]) => void;

class FakeEvent<F extends Listener> implements ChromeEvent<F> {
  readonly listeners = new Set<F>();
  addListener(listener: F): void {
    this.listeners.add(listener);
  }
  fire(...args: Parameters<F>): void {
    for (const listener of this.listeners) {
      (listener as (...a: Parameters<F>) => void)(...args);
    }
  }
}

interface FakeTab extends ChromeTab {
  id: number;
  targetId: string;
}

/** An in-memory chrome.debugger / tabs / windows / storage, enough to unit-test the TabRouter and host. */
export class FakeChrome implements ChromeApi {
  readonly tabsById = new Map<number, FakeTab>();
  readonly attachedTabs = new Set<number>();
  readonly sentCommands: Array<{ target: DebuggerTarget; method: string; params?: object }> = [];
  /** Per-method answers for sendCommand; default answers {} (Target.getTargetInfo is built in). */
  readonly responders = new Map<string, (target: DebuggerTarget, params?: object) => unknown>();
  readonly store = new Map<string, unknown>();
  readonly userAgent = 'Mozilla/5.0 HeadlessChrome/156.0.8078.108 Safari/537.36';
  readonly extensionOrigin = 'chrome-extension://fakeid/';
  #nextTabId = 100;

  readonly onEvent = new FakeEvent<
    (source: { tabId?: number; sessionId?: string }, method: string, params?: object) => void
  >();
  readonly onDetach = new FakeEvent<(source: { tabId?: number }, reason: DetachReason) => void>();
  readonly onCreatedNavigationTarget = new FakeEvent<(details: NavigationTarget) => void>();
  readonly onRemoved = new FakeEvent<(tabId: number) => void>();
  readonly onUpdated = new FakeEvent<
    (tabId: number, change: { url?: string; title?: string }, tab: ChromeTab) => void
  >();

  readonly debugger: ChromeApi['debugger'] = {
    attach: async (target) => {
      const tab = this.tabsById.get(target.tabId);
      if (tab === undefined) {
        throw new Error(`No tab with id: ${target.tabId}.`);
      }
      if (tab.url?.startsWith('chrome://')) {
        throw new Error('Cannot access a chrome:// URL');
      }
      if (this.attachedTabs.has(target.tabId)) {
        throw new Error(`Another debugger is already attached to the tab with id: ${target.tabId}.`);
      }
      this.attachedTabs.add(target.tabId);
    },
    detach: async (target) => {
      if (!this.attachedTabs.delete(target.tabId)) {
        throw new Error(`Debugger is not attached to the tab with id: ${target.tabId}.`);
      }
    },
    sendCommand: async (target, method, params) => {
      this.sentCommands.push({ target, method, ...(params === undefined ? {} : { params }) });
      if (!this.attachedTabs.has(target.tabId)) {
        throw new Error(`Debugger is not attached to the tab with id: ${target.tabId}.`);
      }
      const responder = this.responders.get(method);
      if (responder !== undefined) {
        return responder(target, params);
      }
      if (method === 'Target.getTargetInfo') {
        const tab = this.tabsById.get(target.tabId);
        return {
          targetInfo: {
            targetId: tab?.targetId,
            type: 'page',
            title: tab?.title ?? '',
            url: tab?.url ?? '',
            attached: true,
            canAccessOpener: false,
          },
        };
      }
      return {};
    },
    getTargets: async () =>
      [...this.tabsById.values()].map((tab): DebuggerTargetInfo => ({
        type: 'page',
        id: tab.targetId,
        tabId: tab.id,
        attached: this.attachedTabs.has(tab.id),
        title: tab.title ?? '',
        url: tab.url ?? '',
      })),
    onEvent: this.onEvent,
    onDetach: this.onDetach,
  };

  readonly tabs: ChromeApi['tabs'] = {
    get: async (tabId) => {
      const tab = this.tabsById.get(tabId);
      if (tab === undefined) {
        throw new Error(`No tab with id: ${tabId}.`);
      }
      return { ...tab };
    },
    query: async (query) =>
      [...this.tabsById.values()].filter((tab) => query.active === undefined || tab.active === query.active),
    create: async (properties) => this.addTab(properties.url, { active: properties.active }),
    remove: async (tabId) => {
      this.closeTab(tabId);
    },
    update: async (tabId, properties) => {
      const tab = this.tabsById.get(tabId);
      if (tab !== undefined && properties.active) {
        for (const other of this.tabsById.values()) {
          other.active = other.id === tabId;
        }
      }
      return tab;
    },
    onRemoved: this.onRemoved,
    onUpdated: this.onUpdated,
  };

  readonly webNavigation: ChromeApi['webNavigation'] = {
    onCreatedNavigationTarget: this.onCreatedNavigationTarget,
  };

  readonly windows: ChromeApi['windows'] = { update: async () => ({}) };

  readonly storage: ChromeApi['storage'] = {
    get: async (key) => this.store.get(key),
    set: async (key, value) => {
      this.store.set(key, structuredClone(value));
    },
  };

  /** A new tab; `openedBy`: a page in that tab opened it (window.open, a target=_blank link). */
  addTab(url: string, options: { active?: boolean; openedBy?: number } = {}): FakeTab {
    const id = this.#nextTabId++;
    const tab: FakeTab = {
      id,
      windowId: 1,
      url,
      title: url,
      active: options.active ?? false,
      targetId: `TARGET${String(id).padStart(26, '0')}`,
    };
    this.tabsById.set(id, tab);
    if (options.openedBy !== undefined) {
      this.onCreatedNavigationTarget.fire({ sourceTabId: options.openedBy, tabId: id, url });
    }
    return tab;
  }

  /** The tab closes: Chrome reports target_closed to the debugger and onRemoved to tabs listeners. */
  closeTab(tabId: number): void {
    if (!this.tabsById.delete(tabId)) {
      throw new Error(`No tab with id: ${tabId}.`);
    }
    if (this.attachedTabs.delete(tabId)) {
      this.onDetach.fire({ tabId }, 'target_closed');
    }
    this.onRemoved.fire(tabId);
  }

  /** The person presses Cancel on the infobar: every attached tab detaches with canceled_by_user. */
  cancelInfobar(): void {
    for (const tabId of [...this.attachedTabs]) {
      this.attachedTabs.delete(tabId);
      this.onDetach.fire({ tabId }, 'canceled_by_user');
    }
  }

  /** A CDP event from a tab (or one of its child sessions). */
  event(tabId: number, method: string, params: object, sessionId?: string): void {
    this.onEvent.fire(sessionId === undefined ? { tabId } : { tabId, sessionId }, method, params);
  }
}
