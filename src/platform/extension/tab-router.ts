import { cdpErrorKind } from '../../cdp/errors';
import type { CdpIncoming, CdpRequest, Protocol } from '../../protocol/cdp';
import { errorMessageOf } from '../../shared/errors';
import type { Logger } from '../../shared/logger';
import { silentLogger } from '../../shared/logger';
import { BrowserLevel, PROTOCOL_VERSION } from './browser-level';
import type { ChromeApi, ChromeTab, DetachReason, NavigationTarget } from './chrome-api';
import { CANCEL_HOLD } from './client-hold';
import { assertAttachable, RouterError, SERVER_ERROR, toRouterError } from './router-errors';
import { fieldOf } from '../../shared/narrow';

export { RouterError, toRouterError } from './router-errors';

export interface ControlledTab {
  readonly tabId: number;
  readonly targetId: string;
  /** Synthetic: chrome.debugger addresses a tab by tabId, the SessionManager by session id. */
  sessionId: string;
  /** Child sessions (OOPIFs, workers) of this tab, by their real CDP session id. */
  readonly children: Map<string, { targetId: string; parentSessionId: string }>;
  info: Protocol.Target.TargetInfo;
}

/** What survives a service-worker restart (chrome.storage.session). */
export interface PersistedTabs {
  tabs: Array<{ tabId: number; targetId: string }>;
}

export interface TabRouterHooks {
  /** The person pressed Cancel on the debugging infobar: every tab was detached; never re-attach. */
  onUserCancel?(): void;
  /** The person's hold on the clients was put on or lifted (persist it, show it). */
  onHoldChange?(): void;
  /** The controlled set changed (persist it). */
  onChange?(): void;
}

const REVERIFY_DELAY_MS = 300;

/**
 * The browser-level CDP facade over chrome.debugger, pure logic over ChromeApi. It controls
 * only the tabs it was given (attach), the tabs it opens and the tabs those open; it emulates
 * `Target.*` at the browser level with chrome.tabs (which chrome.debugger refuses), gives each tab a
 * synthetic session id, routes child sessions as {tabId, sessionId}, answers Browser.getVersion itself
 * and refuses the rest of the Browser domain as unsupported.
 */
export class TabRouter {
  readonly #chrome: ChromeApi;
  readonly #log: Logger;
  readonly #hooks: TabRouterHooks;
  readonly #tabs = new Map<number, ControlledTab>();
  readonly #sessionToTab = new Map<string, number>();
  readonly #reverify = new Map<number, ReturnType<typeof setTimeout>>();
  readonly #attaching = new Map<number, Promise<string>>();
  readonly #browser: BrowserLevel;
  #sink: ((message: CdpIncoming) => void) | undefined;
  /** Set by the infobar's Cancel: nothing is attached again until someone asks (attach). */
  #userCancelled = false;
  /**
   * Why the person holds every client back (their Stop, their Cancel on the debugging bar), or undefined.
   * Unlike `#userCancelled`, no attach lifts it: only the person's Resume (`liftHold`).
   */
  #hold: string | undefined;
  #sessionCounter = 0;

  constructor(chrome: ChromeApi, hooks: TabRouterHooks = {}, logger: Logger = silentLogger) {
    this.#chrome = chrome;
    this.#hooks = hooks;
    this.#log = logger;
    this.#browser = new BrowserLevel(chrome, {
      tabs: () => this.#tabs.values(),
      tab: (tabId) => this.#tabs.get(tabId),
      tabOfSession: (sessionId) => this.#tabOfSession(sessionId),
      attachTab: (tabId) => this.attachTab(tabId),
      detachTab: (tabId, reason) => this.detachTab(tabId, reason),
      send: (target, method, params) => this.#send(target, method, params),
      emit: (message) => this.#emit(message),
    });
  }

  /** Registers the chrome listeners; call synchronously at worker start-up so events wake the worker. */
  install(): void {
    this.#chrome.debugger.onEvent.addListener((source, method, params) =>
      this.#onDebuggerEvent(source, method, params),
    );
    this.#chrome.debugger.onDetach.addListener((source, reason) => this.#onDebuggerDetach(source.tabId, reason));
    this.#chrome.webNavigation.onCreatedNavigationTarget.addListener((opened) => this.#onNavigationTarget(opened));
    this.#chrome.tabs.onRemoved.addListener((tabId) => this.#dropTab(tabId, 'tab closed'));
    this.#chrome.tabs.onUpdated.addListener((tabId, change, tab) => this.#onTabUpdated(tabId, change, tab));
  }

  /** The transport that receives responses' events; a new transport (after stop and attach) replaces it. */
  setSink(sink: ((message: CdpIncoming) => void) | undefined): void {
    this.#sink = sink;
    if (sink === undefined) {
      this.#browser.reset();
    }
  }

  get userCancelled(): boolean {
    return this.#userCancelled;
  }

  /** Why clients may not attach, navigate or open tabs now (the person's Stop or Cancel), or undefined. */
  get hold(): string | undefined {
    return this.#hold;
  }

  /** The person's Stop (or a hold restored after a worker restart): clients are held until `liftHold`. */
  holdClients(reason: string): void {
    if (this.#hold !== reason) {
      this.#hold = reason;
      this.#hooks.onHoldChange?.();
    }
  }

  /** The person's Resume: clients may attach and open tabs again, a Cancel's refusal to re-attach ends too. */
  liftHold(): void {
    this.#userCancelled = false;
    if (this.#hold !== undefined) {
      this.#hold = undefined;
      this.#hooks.onHoldChange?.();
    }
  }

  controlled(): Array<{ tabId: number; targetId: string }> {
    return [...this.#tabs.values()].map((tab) => ({ tabId: tab.tabId, targetId: tab.targetId }));
  }

  snapshot(): PersistedTabs {
    return { tabs: this.controlled() };
  }

  tabIdOfTarget(targetId: string): number | undefined {
    return [...this.#tabs.values()].find((tab) => tab.targetId === targetId)?.tabId;
  }

  /**
   * Takes tabs back after a worker restart. The debugger session outlives the worker: a
   * tab that still answers is adopted without attaching again; its child sessions are reset so
   * the new SessionManager is told about them afresh.
   */
  async resume(saved: PersistedTabs): Promise<void> {
    for (const { tabId } of saved.tabs) {
      try {
        await this.#chrome.tabs.get(tabId);
      } catch {
        // The tab closed while the worker was down: nothing to resume.
        continue;
      }
      try {
        const info = await this.#targetInfo(tabId);
        await this.#send({ tabId }, 'Target.setAutoAttach', {
          autoAttach: false,
          waitForDebuggerOnStart: false,
          flatten: true,
        });
        this.#register(tabId, info);
        this.#log.info('resumed tab after worker restart', { tabId });
      } catch (error) {
        this.#log.info('tab no longer attached after restart; attaching again', { tabId, error: String(error) });
        await this.attachTab(tabId).catch((attachError: unknown) =>
          this.#log.warn('could not resume tab', { tabId, error: String(attachError) }),
        );
      }
    }
    this.#hooks.onChange?.();
  }

  /** Puts a tab under control (chrome.debugger.attach) and announces it; returns its target id. */
  attachTab(tabId: number): Promise<string> {
    const existing = this.#tabs.get(tabId);
    if (existing !== undefined) {
      return Promise.resolve(existing.targetId);
    }
    this.#userCancelled = false;
    let pending = this.#attaching.get(tabId);
    if (pending === undefined) {
      pending = this.#attach(tabId).finally(() => this.#attaching.delete(tabId));
      this.#attaching.set(tabId, pending);
    }
    return pending;
  }

  async #attach(tabId: number): Promise<string> {
    const tab = await this.#chrome.tabs.get(tabId);
    assertAttachable(tab, this.#chrome.extensionOrigin);
    try {
      await this.#chrome.debugger.attach({ tabId }, PROTOCOL_VERSION);
    } catch (error) {
      const message = errorMessageOf(error);
      // Ours from before a worker restart (the debugger outlives the worker): adopt it.
      if (cdpErrorKind(message) !== 'already-attached' || !(await this.#answers(tabId))) {
        throw new RouterError(SERVER_ERROR, `Cannot attach to tab ${tabId}: ${message}`);
      }
    }
    const info = await this.#targetInfo(tabId);
    this.#register(tabId, info);
    this.#hooks.onChange?.();
    return info.targetId;
  }

  /** Lets a tab go: the debugger detaches and the tab leaves the controlled set. */
  async detachTab(tabId: number, reason: string): Promise<void> {
    const tab = this.#tabs.get(tabId);
    if (tab === undefined) {
      return;
    }
    this.#dropTab(tabId, reason);
    try {
      await this.#chrome.debugger.detach({ tabId });
    } catch (error) {
      this.#log.debug('detach failed (already detached?)', { tabId, error: errorMessageOf(error) });
    }
  }

  async detachAll(reason: string): Promise<void> {
    await Promise.all([...this.#tabs.keys()].map((tabId) => this.detachTab(tabId, reason)));
  }

  /** Answers one CDP command; throws RouterError with a CDP error payload. */
  async handle(request: CdpRequest): Promise<unknown> {
    const params: Record<string, unknown> = { ...request.params };
    if (request.sessionId === undefined || request.sessionId === '') {
      return this.#browser.handle(request.method, params);
    }
    const tab = this.#tabOfSession(request.sessionId);
    if (tab === undefined) {
      throw new RouterError(-32001, 'Session with given id not found.');
    }
    const target =
      request.sessionId === tab.sessionId ? { tabId: tab.tabId } : { tabId: tab.tabId, sessionId: request.sessionId };
    return this.#send(target, request.method, params);
  }

  #register(tabId: number, info: Protocol.Target.TargetInfo): void {
    const tab: ControlledTab = {
      tabId,
      targetId: info.targetId,
      sessionId: this.#newSessionId(tabId),
      children: new Map(),
      info: { ...info, attached: true },
    };
    this.#tabs.set(tabId, tab);
    this.#sessionToTab.set(tab.sessionId, tabId);
    this.#browser.tabAdded(tab);
  }

  #tabOfSession(sessionId: string): ControlledTab | undefined {
    const tabId = this.#sessionToTab.get(sessionId);
    return tabId === undefined ? undefined : this.#tabs.get(tabId);
  }

  #newSessionId(tabId: number): string {
    return `tabpilot-tab-${tabId}-${++this.#sessionCounter}`;
  }

  /** Forgets a tab and tells the SessionManager its sessions are gone. Idempotent. */
  #dropTab(tabId: number, reason: string): void {
    const tab = this.#tabs.get(tabId);
    if (tab === undefined) {
      return;
    }
    const timer = this.#reverify.get(tabId);
    if (timer !== undefined) {
      clearTimeout(timer);
      this.#reverify.delete(tabId);
    }
    this.#tabs.delete(tabId);
    this.#emitDetached(tab);
    this.#browser.tabRemoved(tab);
    this.#log.info('tab left control', { tabId, reason });
    this.#hooks.onChange?.();
  }

  #emitDetached(tab: ControlledTab): void {
    for (const [childSession, child] of tab.children) {
      this.#sessionToTab.delete(childSession);
      this.#emit({
        method: 'Target.detachedFromTarget',
        params: { sessionId: childSession, targetId: child.targetId },
        sessionId: child.parentSessionId,
      });
    }
    tab.children.clear();
    this.#sessionToTab.delete(tab.sessionId);
    this.#emit({ method: 'Target.detachedFromTarget', params: { sessionId: tab.sessionId, targetId: tab.targetId } });
  }

  #onDebuggerDetach(tabId: number | undefined, reason: DetachReason): void {
    if (tabId === undefined || !this.#tabs.has(tabId)) {
      return;
    }
    if (reason === 'canceled_by_user') {
      // Chrome detaches every tab of the extension with this reason. Respect it: no re-attach, and no
      // client brings tabpilot back until the person resumes.
      this.#userCancelled = true;
      this.holdClients(CANCEL_HOLD);
      for (const timer of this.#reverify.values()) {
        clearTimeout(timer);
      }
      this.#reverify.clear();
      this.#dropTab(tabId, 'canceled_by_user');
      if (this.#tabs.size === 0) {
        this.#hooks.onUserCancel?.();
      }
      return;
    }
    // target_closed: the tab may be gone, or it may still be there (a navigation to a page the debugger
    // may not touch, a transient detach). Look again shortly and take it back if it can be attached.
    if (this.#reverify.has(tabId)) {
      return;
    }
    this.#reverify.set(
      tabId,
      setTimeout(() => {
        this.#reverify.delete(tabId);
        void this.#reattachOrDrop(tabId);
      }, REVERIFY_DELAY_MS),
    );
  }

  async #reattachOrDrop(tabId: number): Promise<void> {
    const tab = this.#tabs.get(tabId);
    if (tab === undefined || this.#userCancelled) {
      this.#dropTab(tabId, 'detached');
      return;
    }
    try {
      const chromeTab = await this.#chrome.tabs.get(tabId);
      assertAttachable(chromeTab, this.#chrome.extensionOrigin);
      await this.#chrome.debugger.attach({ tabId }, PROTOCOL_VERSION);
      const info = await this.#targetInfo(tabId);
      // Announce the new session before retiring the old one, so the target never looks closed.
      const oldTab = { ...tab, children: new Map(tab.children) };
      tab.children.clear();
      tab.sessionId = this.#newSessionId(tabId);
      tab.info = { ...info, attached: true };
      this.#sessionToTab.set(tab.sessionId, tabId);
      this.#browser.sessionReplaced(tab);
      this.#emitDetached(oldTab);
      this.#log.info('re-attached tab after target_closed', { tabId });
    } catch (error) {
      this.#dropTab(tabId, `target_closed (${errorMessageOf(error)})`);
    }
  }

  #onDebuggerEvent(source: { tabId?: number; sessionId?: string }, method: string, params: object | undefined): void {
    const tab = source.tabId === undefined ? undefined : this.#tabs.get(source.tabId);
    if (tab === undefined) {
      return;
    }
    const sessionId = source.sessionId ?? tab.sessionId;
    if (method === 'Target.attachedToTarget') {
      const child = fieldOf(params, 'sessionId');
      const targetId = fieldOf(fieldOf(params, 'targetInfo'), 'targetId');
      if (typeof child === 'string' && typeof targetId === 'string') {
        tab.children.set(child, { targetId, parentSessionId: sessionId });
        this.#sessionToTab.set(child, tab.tabId);
      }
    } else if (method === 'Target.detachedFromTarget') {
      const child = fieldOf(params, 'sessionId');
      if (typeof child === 'string') {
        tab.children.delete(child);
        this.#sessionToTab.delete(child);
      }
    }
    this.#emit({ method, params, sessionId });
  }

  #onNavigationTarget(opened: NavigationTarget): void {
    if (this.#userCancelled || !this.#tabs.has(opened.sourceTabId)) {
      return;
    }
    // A popup or target=_blank tab of a controlled tab is ours too.
    const tabId = opened.tabId;
    this.attachTab(tabId).catch((error: unknown) =>
      this.#log.warn('could not attach an opened tab', { tabId, error: errorMessageOf(error) }),
    );
  }

  #onTabUpdated(tabId: number, change: { url?: string; title?: string }, chromeTab: ChromeTab): void {
    const tab = this.#tabs.get(tabId);
    if (tab === undefined || (change.url === undefined && change.title === undefined)) {
      return;
    }
    tab.info = { ...tab.info, url: chromeTab.url ?? tab.info.url, title: chromeTab.title ?? tab.info.title };
    this.#browser.tabChanged(tab);
  }

  async #targetInfo(tabId: number): Promise<Protocol.Target.TargetInfo> {
    const result = (await this.#send({ tabId }, 'Target.getTargetInfo', {})) as Protocol.Target.GetTargetInfoResponse;
    return result.targetInfo;
  }

  async #answers(tabId: number): Promise<boolean> {
    try {
      await this.#send({ tabId }, 'Runtime.evaluate', { expression: '1', returnByValue: true });
      return true;
    } catch {
      // Not attached by us, or not answering: it cannot be adopted.
      return false;
    }
  }

  async #send(target: { tabId: number; sessionId?: string }, method: string, params: object): Promise<unknown> {
    try {
      return (await this.#chrome.debugger.sendCommand(target, method, params)) ?? {};
    } catch (error) {
      throw toRouterError(error);
    }
  }

  #emit(message: CdpIncoming): void {
    this.#sink?.(message);
  }
}
