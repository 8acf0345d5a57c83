import type { CdpEventMessage, CdpEventName, CdpEventParams, Protocol } from '../protocol/cdp';
import { TabpilotError } from '../shared/errors';
import type { Logger } from '../shared/logger';
import { bestEffort, silentLogger } from '../shared/logger';
import { pollUntil } from '../shared/time';
import type { CdpConnection } from './connection';
import { CdpTargetClosedError } from './errors';
import { LifecycleBuffer, type LifecycleEntry } from './lifecycle';
import { CdpSession } from './session';
import { CHILD_TARGET_TYPES, isPageType, type TargetRecord } from './target';

export type { TargetRecord } from './target';

/** What the SessionManager reports to its owner (BrowserSession turns these into bus events). */
export type SessionManagerEvent =
  | { type: 'targetAdded'; target: TargetRecord; restored: boolean }
  | { type: 'targetRemoved'; target: TargetRecord }
  | { type: 'targetChanged'; target: TargetRecord }
  | { type: 'targetCrashed'; target: TargetRecord }
  | { type: 'childAttached'; target: TargetRecord; session: CdpSession }
  | { type: 'focusChanged'; previous: string | undefined; current: string | undefined };

export interface EventSource {
  session: CdpSession;
  /** Undefined for browser-level events. */
  target: TargetRecord | undefined;
}

/** Per-session setup run on every attached session, again after every reconnect (subscriptions). */
export type SessionSetup = (session: CdpSession, target: TargetRecord) => Promise<void>;

interface SessionEntry {
  readonly session: CdpSession;
  readonly targetId: string;
  ready: boolean;
}

export interface SessionManagerOptions {
  logger?: Logger;
  /** How long a new target may take to get a ready session. */
  attachTimeoutMs?: number;
}

const ROOT_AUTO_ATTACH_FILTER = [{ type: 'page', exclude: false }];
const CHILD_AUTO_ATTACH_FILTER = CHILD_TARGET_TYPES.map((type) => ({ type, exclude: false }));

/**
 * The single owner of targets, sessions and focus (DESIGN §4). Auto-attaches with `flatten: true` at
 * the browser and inside every page and OOPIF, maps targets and sessions both ways, keeps a lifecycle
 * buffer per page, and recovers focus when the focused page goes away.
 *
 * Subscriptions made through `on` and `addSessionSetup` belong to the manager, not to a connection, so
 * they survive a reconnect by construction (browser-use loses them: reference §5.4).
 */
export class SessionManager {
  readonly #log: Logger;
  readonly #attachTimeoutMs: number;
  readonly #targets = new Map<string, TargetRecord>();
  readonly #sessions = new Map<string, SessionEntry>();
  readonly #targetSessions = new Map<string, Set<string>>();
  readonly #lifecycle = new Map<string, LifecycleBuffer>();
  readonly #listeners = new Map<string, Set<(params: unknown, source: EventSource) => void>>();
  readonly #setups = new Set<SessionSetup>();
  readonly #observers = new Set<(event: SessionManagerEvent) => void>();
  /** Page targets seen on an earlier connection, so a reconnect restores rather than announces them. */
  readonly #known = new Map<string, TargetRecord>();
  /** Pages reported as targetAdded on this connection and not removed since. */
  readonly #announced = new Set<string>();
  #connection: CdpConnection | undefined;
  #root: CdpSession | undefined;
  #disposeConnection: Array<() => void> = [];
  #focus: string | undefined;
  #recovery: Promise<void> | undefined;
  #seq = 0;

  constructor(options: SessionManagerOptions = {}) {
    this.#log = options.logger ?? silentLogger;
    this.#attachTimeoutMs = options.attachTimeoutMs ?? 10_000;
  }

  get connection(): CdpConnection | undefined {
    return this.#connection;
  }

  get connected(): boolean {
    return this.#connection !== undefined && !this.#connection.closed;
  }

  /** The browser-level session. Throws DISCONNECTED when there is no live connection. */
  get root(): CdpSession {
    if (this.#root === undefined || this.#root.detached) {
      throw new TabpilotError('DISCONNECTED', 'Not connected to a browser');
    }
    return this.#root;
  }

  get ownsBrowser(): boolean {
    return this.#connection?.capabilities.ownsBrowser ?? true;
  }

  /**
   * Takes a (new) connection: subscribes to Target events, enables discovery and auto-attach, waits
   * until the existing pages have ready sessions, and restores focus (the previous focus when it still
   * exists, else the most recent page, else, when tabpilot owns the browser, a new blank page).
   */
  async start(connection: CdpConnection): Promise<void> {
    const previousFocus = this.#focus;
    this.#detachFromConnection('replaced by a new connection');
    this.#connection = connection;
    this.#root = new CdpSession(connection, '', 'browser');
    this.#disposeConnection = [
      connection.onAnyEvent((event) => this.#onEvent(event)),
      connection.onClose((reason) => this.#onConnectionClosed(connection, reason)),
    ];
    const root = this.#root;
    await root.send('Target.setDiscoverTargets', { discover: true, filter: [{ type: 'page' }] });
    await root.send('Target.setAutoAttach', {
      autoAttach: true,
      waitForDebuggerOnStart: true,
      flatten: true,
      filter: ROOT_AUTO_ATTACH_FILTER,
    });
    await this.#waitForDiscoveredPages();
    // Pages that were there before a drop and did not come back closed while we were away.
    for (const [targetId, record] of [...this.#known]) {
      if (!this.#targets.has(targetId)) {
        this.#known.delete(targetId);
        this.#notify({ type: 'targetRemoved', target: record });
      }
    }
    await this.#restoreFocus(previousFocus);
  }

  /** Forgets the connection (release, stop): sessions are dropped, targets forgotten, focus cleared. */
  stop(reason: string): void {
    this.#detachFromConnection(reason);
    // A deliberate stop forgets the pages: the next start announces what it finds as new.
    this.#known.clear();
    this.#setFocusValue(undefined);
  }

  // ---- queries -------------------------------------------------------------------------------

  targets(): TargetRecord[] {
    return [...this.#targets.values()].map((target) => ({ ...target }));
  }

  /** Page targets with a ready session, oldest first. */
  pages(): TargetRecord[] {
    return this.targets()
      .filter((target) => isPageType(target.type) && this.#readySessionOf(target.targetId) !== undefined)
      .sort((a, b) => a.seq - b.seq);
  }

  /**
   * Re-reads url and title of every target from the browser. Target.targetInfoChanged does not follow
   * every title change, so listings that show titles refresh first (one round trip).
   */
  async refreshTargetInfo(): Promise<void> {
    const { targetInfos } = await this.root.send('Target.getTargets');
    for (const info of targetInfos) {
      const target = this.#targets.get(info.targetId);
      if (target !== undefined) {
        target.url = info.url;
        target.title = info.title;
      }
    }
  }

  /** Child targets (OOPIFs, workers) of one page. */
  childrenOf(pageTargetId: string): TargetRecord[] {
    return this.targets().filter((target) => target.pageTargetId === pageTargetId);
  }

  target(targetId: string): TargetRecord | undefined {
    const target = this.#targets.get(targetId);
    return target === undefined ? undefined : { ...target };
  }

  /** The ready session of a target, or undefined. */
  sessionFor(targetId: string): CdpSession | undefined {
    return this.#readySessionOf(targetId)?.session;
  }

  /** The ready session of a target, or TAB_NOT_FOUND. */
  requireSession(targetId: string): CdpSession {
    const session = this.sessionFor(targetId);
    if (session === undefined) {
      throw new TabpilotError('TAB_NOT_FOUND', `No live session for target ${targetId}`, {
        details: { target_id: targetId },
      });
    }
    return session;
  }

  sessionById(sessionId: string): CdpSession | undefined {
    return this.#sessions.get(sessionId)?.session;
  }

  targetOfSession(sessionId: string): TargetRecord | undefined {
    const entry = this.#sessions.get(sessionId);
    return entry === undefined ? undefined : this.target(entry.targetId);
  }

  lifecycle(targetId: string): LifecycleBuffer | undefined {
    return this.#lifecycle.get(targetId);
  }

  // ---- focus ---------------------------------------------------------------------------------

  get focusedTargetId(): string | undefined {
    return this.#focus;
  }

  /** The focused page's session, or NOT_ATTACHED when there is none. Waits for a running recovery. */
  async focusedSession(): Promise<CdpSession> {
    await this.settled();
    const focus = this.#focus;
    if (focus === undefined) {
      throw new TabpilotError('NOT_ATTACHED', 'No tab is attached: attach a tab first');
    }
    return this.requireSession(focus);
  }

  setFocus(targetId: string): void {
    const target = this.#targets.get(targetId);
    if (target === undefined || !isPageType(target.type) || this.#readySessionOf(targetId) === undefined) {
      throw new TabpilotError('TAB_NOT_FOUND', `Tab ${targetId} is not a controlled page`, {
        details: { target_id: targetId },
      });
    }
    this.#setFocusValue(targetId);
  }

  /** Resolves once no focus recovery is running. */
  async settled(): Promise<void> {
    while (this.#recovery !== undefined) {
      await this.#recovery;
    }
  }

  // ---- targets -------------------------------------------------------------------------------

  /** Opens a page and waits until it has a ready session. */
  async createPage(url: string, options: { background?: boolean } = {}): Promise<TargetRecord> {
    const { targetId } = await this.root.send('Target.createTarget', {
      url,
      background: options.background ?? false,
    });
    return this.waitForPage(targetId);
  }

  waitForPage(targetId: string, timeoutMs = this.#attachTimeoutMs): Promise<TargetRecord> {
    return pollUntil(
      () => {
        const target = this.#targets.get(targetId);
        return target !== undefined && this.#readySessionOf(targetId) !== undefined ? { ...target } : undefined;
      },
      {
        timeoutMs,
        intervalMs: 20,
        onTimeout: () => new TabpilotError('TIMEOUT', `Target ${targetId} got no session within ${timeoutMs} ms`),
      },
    );
  }

  async closeTarget(targetId: string): Promise<void> {
    await this.root.send('Target.closeTarget', { targetId });
  }

  // ---- subscriptions -------------------------------------------------------------------------

  /** Listens to one CDP event on every session, now and after reconnects. Returns a disposer. */
  on<E extends CdpEventName>(event: E, listener: (params: CdpEventParams<E>, source: EventSource) => void): () => void {
    let set = this.#listeners.get(event);
    if (set === undefined) {
      set = new Set();
      this.#listeners.set(event, set);
    }
    const entry = listener as (params: unknown, source: EventSource) => void;
    set.add(entry);
    return () => set.delete(entry);
  }

  /**
   * Registers per-session setup (enabling a domain, say). It runs at once on every ready session and on
   * every session attached later, reconnects included.
   */
  addSessionSetup(setup: SessionSetup): () => void {
    this.#setups.add(setup);
    for (const entry of this.#sessions.values()) {
      const target = this.#targets.get(entry.targetId);
      if (entry.ready && target !== undefined) {
        void bestEffort(setup(entry.session, target), this.#log, 'session setup on an existing session');
      }
    }
    return () => this.#setups.delete(setup);
  }

  observe(observer: (event: SessionManagerEvent) => void): () => void {
    this.#observers.add(observer);
    return () => this.#observers.delete(observer);
  }

  // ---- internals -----------------------------------------------------------------------------

  #readySessionOf(targetId: string): SessionEntry | undefined {
    const ids = this.#targetSessions.get(targetId);
    if (ids === undefined) {
      return undefined;
    }
    for (const id of ids) {
      const entry = this.#sessions.get(id);
      if (entry !== undefined && entry.ready && !entry.session.detached) {
        return entry;
      }
    }
    return undefined;
  }

  #notify(event: SessionManagerEvent): void {
    for (const observer of this.#observers) {
      try {
        observer(event);
      } catch (error) {
        this.#log.warn('session manager observer threw', {
          error: error instanceof Error ? error.message : String(error),
        });
      }
    }
  }

  #setFocusValue(targetId: string | undefined): void {
    if (this.#focus === targetId) {
      return;
    }
    const previous = this.#focus;
    this.#focus = targetId;
    this.#notify({ type: 'focusChanged', previous, current: targetId });
  }

  #detachFromConnection(reason: string): void {
    for (const dispose of this.#disposeConnection) {
      dispose();
    }
    this.#disposeConnection = [];
    for (const entry of this.#sessions.values()) {
      entry.session.markDetached(reason);
    }
    for (const target of this.#targets.values()) {
      if (isPageType(target.type)) {
        this.#known.set(target.targetId, { ...target });
      }
    }
    this.#sessions.clear();
    this.#targetSessions.clear();
    this.#targets.clear();
    this.#announced.clear();
    this.#root?.markDetached(reason);
    this.#root = undefined;
    this.#connection = undefined;
  }

  #onConnectionClosed(connection: CdpConnection, reason: string): void {
    if (this.#connection !== connection) {
      return;
    }
    this.#log.info('CDP connection closed', { reason });
    for (const entry of this.#sessions.values()) {
      entry.session.markDetached(reason);
    }
  }

  async #waitForDiscoveredPages(): Promise<void> {
    // Auto-attach answers existing pages asynchronously; give them a bounded moment (browser-use: 2 s).
    await bestEffort(
      pollUntil(
        () => {
          const pending = [...this.#targets.values()].filter(
            (target) => isPageType(target.type) && this.#readySessionOf(target.targetId) === undefined,
          );
          return pending.length === 0 ? true : undefined;
        },
        {
          timeoutMs: 3000,
          intervalMs: 20,
          onTimeout: () => new TabpilotError('TIMEOUT', 'existing pages did not attach'),
        },
      ),
      this.#log,
      'waiting for existing pages to attach',
    );
  }

  async #restoreFocus(previous: string | undefined): Promise<void> {
    if (previous !== undefined && this.#readySessionOf(previous) !== undefined) {
      this.#setFocusValue(previous);
      return;
    }
    await this.#focusFallback();
  }

  /** Most recent ready page; else, when tabpilot owns the browser, a new blank page; else nothing. */
  async #focusFallback(excluded?: string): Promise<void> {
    const candidates = this.pages().filter((page) => page.targetId !== excluded);
    const last = candidates[candidates.length - 1];
    if (last !== undefined) {
      this.#setFocusValue(last.targetId);
      return;
    }
    if (this.ownsBrowser && this.connected) {
      const page = await this.createPage('about:blank');
      this.#setFocusValue(page.targetId);
      return;
    }
    this.#setFocusValue(undefined);
  }

  #recoverFocus(lostTargetId: string): void {
    if (this.#recovery !== undefined) {
      return;
    }
    this.#recovery = (async () => {
      try {
        await this.#focusFallback(lostTargetId);
      } catch (error) {
        this.#log.error('focus recovery failed', { error: error instanceof Error ? error.message : String(error) });
        this.#setFocusValue(undefined);
      } finally {
        this.#recovery = undefined;
      }
    })();
  }

  #onEvent(event: CdpEventMessage): void {
    switch (event.method) {
      case 'Target.attachedToTarget':
        this.#onAttached(event.params as Protocol.Target.AttachedToTargetEvent, event.sessionId);
        break;
      case 'Target.detachedFromTarget':
        this.#onDetached(event.params as Protocol.Target.DetachedFromTargetEvent);
        break;
      case 'Target.targetCreated':
        this.#onTargetInfo((event.params as Protocol.Target.TargetCreatedEvent).targetInfo, false);
        break;
      case 'Target.targetInfoChanged':
        this.#onTargetInfo((event.params as Protocol.Target.TargetInfoChangedEvent).targetInfo, true);
        break;
      case 'Target.targetDestroyed':
        this.#onTargetDestroyed((event.params as Protocol.Target.TargetDestroyedEvent).targetId);
        break;
      case 'Target.targetCrashed':
        this.#onCrashed((event.params as Protocol.Target.TargetCrashedEvent).targetId);
        break;
      default:
        break;
    }
    const sourceEntry = event.sessionId === undefined ? undefined : this.#sessions.get(event.sessionId);
    if (sourceEntry !== undefined) {
      this.#trackLifecycle(event, sourceEntry.targetId);
    }
    const listeners = this.#listeners.get(event.method);
    if (listeners === undefined || listeners.size === 0) {
      return;
    }
    let source: EventSource | undefined;
    if (event.sessionId === undefined) {
      source = this.#root === undefined ? undefined : { session: this.#root, target: undefined };
    } else if (sourceEntry !== undefined) {
      source = { session: sourceEntry.session, target: this.#targets.get(sourceEntry.targetId) };
    }
    if (source === undefined) {
      return;
    }
    for (const listener of [...listeners]) {
      try {
        listener(event.params, source);
      } catch (error) {
        this.#log.warn('CDP subscriber threw', {
          method: event.method,
          error: error instanceof Error ? error.message : String(error),
        });
      }
    }
  }

  #trackLifecycle(event: CdpEventMessage, targetId: string): void {
    const buffer = this.#lifecycle.get(targetId);
    if (buffer === undefined) {
      return;
    }
    if (event.method === 'Page.lifecycleEvent') {
      const params = event.params as Protocol.Page.LifecycleEventEvent;
      // The main frame of a page target has the target's id.
      if (params.frameId === targetId) {
        buffer.push({ name: params.name, loaderId: params.loaderId, receivedAt: performance.now() });
      }
    } else if (event.method === 'Page.frameNavigated') {
      const { frame } = event.params as Protocol.Page.FrameNavigatedEvent;
      if (frame.parentId === undefined) {
        buffer.setMainFrame(frame.loaderId, frame.url);
      }
    } else if (event.method === 'Inspector.targetCrashed') {
      this.#onCrashed(targetId);
    }
  }

  #upsertTarget(info: Protocol.Target.TargetInfo, pageTargetId: string | undefined): TargetRecord {
    const existing = this.#targets.get(info.targetId);
    if (existing !== undefined) {
      existing.url = info.url;
      existing.title = info.title;
      existing.type = info.type;
      existing.pageTargetId ??= pageTargetId;
      return existing;
    }
    const record: TargetRecord = {
      targetId: info.targetId,
      type: info.type,
      url: info.url,
      title: info.title,
      openerId: info.openerId,
      pageTargetId,
      seq: ++this.#seq,
    };
    this.#targets.set(info.targetId, record);
    return record;
  }

  #onTargetInfo(info: Protocol.Target.TargetInfo, changed: boolean): void {
    const existing = this.#targets.get(info.targetId);
    if (existing === undefined) {
      if (isPageType(info.type) && !changed) {
        this.#upsertTarget(info, undefined);
      }
      return;
    }
    const urlOrTitleChanged = existing.url !== info.url || existing.title !== info.title;
    this.#upsertTarget(info, existing.pageTargetId);
    if (urlOrTitleChanged && this.#readySessionOf(info.targetId) !== undefined) {
      this.#notify({ type: 'targetChanged', target: { ...existing } });
    }
  }

  #onTargetDestroyed(targetId: string): void {
    if (this.#targetSessions.get(targetId)?.size) {
      return;
    }
    this.#removeTarget(targetId);
  }

  #onCrashed(targetId: string): void {
    const target = this.#targets.get(targetId);
    if (target !== undefined) {
      this.#notify({ type: 'targetCrashed', target: { ...target } });
    }
  }

  #onAttached(params: Protocol.Target.AttachedToTargetEvent, parentSessionId: string | undefined): void {
    const connection = this.#connection;
    if (connection === undefined) {
      return;
    }
    const info = params.targetInfo;
    const session = new CdpSession(connection, params.sessionId, info.targetId);
    const parentTarget = parentSessionId === undefined ? undefined : this.#sessions.get(parentSessionId)?.targetId;
    const isPage = isPageType(info.type) && parentSessionId === undefined;
    const isChild = parentTarget !== undefined && (CHILD_TARGET_TYPES as readonly string[]).includes(info.type);
    if (!isPage && !isChild) {
      // Not ours to drive (a service worker, a portal...): let it run and let go of it.
      const owner = parentSessionId === undefined ? this.#root : this.#sessions.get(parentSessionId)?.session;
      void bestEffort(
        this.#release(session, owner, params.waitingForDebugger),
        this.#log,
        `releasing ${info.type} target`,
      );
      return;
    }
    const pageTargetId = isChild ? (this.#targets.get(parentTarget)?.pageTargetId ?? parentTarget) : undefined;
    const target = this.#upsertTarget(info, pageTargetId);
    this.#sessions.set(params.sessionId, { session, targetId: info.targetId, ready: false });
    let ids = this.#targetSessions.get(info.targetId);
    if (ids === undefined) {
      ids = new Set();
      this.#targetSessions.set(info.targetId, ids);
    }
    ids.add(params.sessionId);
    if (isPage && !this.#lifecycle.has(info.targetId)) {
      this.#lifecycle.set(info.targetId, new LifecycleBuffer());
    }
    void this.#setUpSession(session, target, isPage, params.waitingForDebugger);
  }

  async #release(session: CdpSession, owner: CdpSession | undefined, waiting: boolean): Promise<void> {
    if (waiting) {
      await session.send('Runtime.runIfWaitingForDebugger');
    }
    await owner?.send('Target.detachFromTarget', { sessionId: session.sessionId });
  }

  async #setUpSession(session: CdpSession, target: TargetRecord, isPage: boolean, waiting: boolean): Promise<void> {
    const steps: Array<Promise<unknown>> = [
      session.send('Target.setAutoAttach', {
        autoAttach: true,
        waitForDebuggerOnStart: true,
        flatten: true,
        filter: CHILD_AUTO_ATTACH_FILTER,
      }),
    ];
    if (isPage || target.type === 'iframe') {
      steps.push(session.send('Page.enable'), session.send('Page.setLifecycleEventsEnabled', { enabled: true }));
    }
    if (isPage) {
      steps.push(
        session.send('Inspector.enable'),
        session.send('Page.getFrameTree').then(({ frameTree }) => {
          const buffer = this.#lifecycle.get(target.targetId);
          if (buffer !== undefined && buffer.mainFrame === undefined) {
            buffer.setMainFrame(frameTree.frame.loaderId, frameTree.frame.url);
          }
        }),
      );
    }
    for (const setup of this.#setups) {
      steps.push(setup(session, target));
    }
    if (waiting) {
      // Resume without waiting for the setup answers: the session handles commands in order, so the
      // setup is in place before the target runs, and some setup commands (Page.getFrameTree in a new
      // renderer) do not answer until it runs. A missed resume would hang the target for good.
      steps.push(session.send('Runtime.runIfWaitingForDebugger'));
    }
    const results = await Promise.allSettled(steps);
    for (const result of results) {
      if (result.status === 'rejected') {
        this.#log.debug('session setup step failed', {
          target: target.targetId,
          type: target.type,
          error: result.reason instanceof Error ? result.reason.message : String(result.reason),
        });
      }
    }
    const entry = this.#sessions.get(session.sessionId);
    if (entry === undefined || session.detached) {
      return;
    }
    entry.ready = true;
    // A second session of a page already announced (a re-attach) is not a new tab.
    if (isPage && this.#announced.has(target.targetId)) {
      return;
    }
    if (isPage) {
      this.#announced.add(target.targetId);
      const restored = this.#known.delete(target.targetId);
      this.#notify({ type: 'targetAdded', target: { ...target }, restored });
    } else {
      this.#notify({ type: 'childAttached', target: { ...target }, session });
    }
  }

  #onDetached(params: Protocol.Target.DetachedFromTargetEvent): void {
    const entry = this.#sessions.get(params.sessionId);
    if (entry === undefined) {
      return;
    }
    this.#sessions.delete(params.sessionId);
    entry.session.markDetached('target detached');
    this.#connection?.disposeSession(params.sessionId, 'target detached');
    const ids = this.#targetSessions.get(entry.targetId);
    ids?.delete(params.sessionId);
    if (ids !== undefined && ids.size > 0) {
      return;
    }
    this.#removeTarget(entry.targetId);
  }

  #removeTarget(targetId: string): void {
    const target = this.#targets.get(targetId);
    if (target === undefined) {
      return;
    }
    this.#targets.delete(targetId);
    this.#announced.delete(targetId);
    this.#targetSessions.delete(targetId);
    this.#lifecycle.delete(targetId);
    this.#known.delete(targetId);
    // Children of a page go with it.
    for (const child of [...this.#targets.values()]) {
      if (child.pageTargetId === targetId) {
        this.#removeTarget(child.targetId);
      }
    }
    if (!isPageType(target.type)) {
      return;
    }
    this.#notify({ type: 'targetRemoved', target: { ...target } });
    if (this.#focus === targetId) {
      this.#setFocusValue(undefined);
      this.#recoverFocus(targetId);
    }
  }

  /** For tests and diagnostics: the session ids a target has. */
  sessionIdsOf(targetId: string): string[] {
    return [...(this.#targetSessions.get(targetId) ?? [])];
  }

  /** Raises TAB_NOT_FOUND as a CdpTargetClosedError-compatible check for callers holding a stale id. */
  assertTarget(targetId: string): TargetRecord {
    const target = this.#targets.get(targetId);
    if (target === undefined) {
      throw new CdpTargetClosedError(`Target ${targetId} is gone`);
    }
    return { ...target };
  }

  /** The lifecycle entries of a page since `since` (performance.now() time). */
  lifecycleSince(targetId: string, since: number): LifecycleEntry[] {
    return (this.#lifecycle.get(targetId)?.entries ?? []).filter((entry) => entry.receivedAt >= since);
  }
}
