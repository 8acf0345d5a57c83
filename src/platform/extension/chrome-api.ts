/**
 * The narrow slice of `chrome.*` the extension platform uses, typed here so the router and host can be
 * unit-tested against a fake (test/fakes/fake-chrome.ts). `realChromeApi()` binds it to the browser.
 */
export interface DebuggerTarget {
  tabId: number;
  /** A child CDP session (OOPIF, worker) inside the tab's debugger session. */
  sessionId?: string;
}

export interface DebuggerTargetInfo {
  type: string;
  id: string;
  tabId?: number;
  attached: boolean;
  title: string;
  url: string;
}

export interface ChromeTab {
  id?: number;
  windowId: number;
  url?: string;
  pendingUrl?: string;
  title?: string;
  active: boolean;
}

export interface ChromeEvent<F extends (...args: never[]) => void> {
  addListener(listener: F): void;
}

/** A tab created to host a navigation a page started (window.open, a target=_blank link). */
export interface NavigationTarget {
  sourceTabId: number;
  tabId: number;
  url: string;
}

export type DetachReason = 'canceled_by_user' | 'target_closed';

export interface ChromeApi {
  readonly debugger: {
    attach(target: { tabId: number }, version: string): Promise<void>;
    detach(target: { tabId: number }): Promise<void>;
    sendCommand(target: DebuggerTarget, method: string, params?: object): Promise<unknown>;
    getTargets(): Promise<DebuggerTargetInfo[]>;
    readonly onEvent: ChromeEvent<
      (source: { tabId?: number; sessionId?: string }, method: string, params?: object) => void
    >;
    readonly onDetach: ChromeEvent<(source: { tabId?: number }, reason: DetachReason) => void>;
  };
  readonly tabs: {
    get(tabId: number): Promise<ChromeTab>;
    query(query: { active?: boolean; lastFocusedWindow?: boolean; windowId?: number }): Promise<ChromeTab[]>;
    create(properties: { url: string; active: boolean }): Promise<ChromeTab>;
    remove(tabId: number): Promise<void>;
    update(tabId: number, properties: { active: boolean }): Promise<ChromeTab | undefined>;
    readonly onRemoved: ChromeEvent<(tabId: number) => void>;
    readonly onUpdated: ChromeEvent<
      (tabId: number, change: { url?: string; title?: string; status?: string }, tab: ChromeTab) => void
    >;
  };
  readonly webNavigation: {
    /**
     * Unlike a tab's openerTabId, which Chrome also sets on tabs the person opens with Ctrl+T or another
     * client creates while a controlled tab is active, this fires only for tabs a page opened.
     */
    readonly onCreatedNavigationTarget: ChromeEvent<(details: NavigationTarget) => void>;
  };
  readonly windows: {
    update(windowId: number, properties: { focused: boolean }): Promise<unknown>;
  };
  readonly storage: {
    get(key: string): Promise<unknown>;
    set(key: string, value: unknown): Promise<void>;
  };
  /** The browser's user agent, for the locally answered Browser.getVersion. */
  readonly userAgent: string;
  /** This extension's own page origin, chrome-extension://<id>/ (its pages may be attached). */
  readonly extensionOrigin: string;
}
