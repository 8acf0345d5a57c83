import type { CdpEventMessage, CdpEventName, CdpEventParams } from '../protocol/cdp';
import { TabpilotError, errorMessageOf } from '../shared/errors';
import type { Logger } from '../shared/logger';
import { bestEffort, silentLogger } from '../shared/logger';
import { pollUntil } from '../shared/time';
import type { CdpConnection, Suspension } from './connection';
import { FocusKeeper } from './focus';
import { trackLifecycle, type LifecycleBuffer } from './lifecycle';
import { CdpSession } from './session';
import { CdpSubscriptions, type EventSource, type SessionSetup } from './subscriptions';
import { isPageType, type TargetRecord } from './target';
import { TargetRegistry } from './target-registry';
import { TargetTracker } from './target-tracker';

/** How long a look into a page's frames waits for one still attaching. */
const FRAMES_READY_MS = 2_000;

export type { TargetRecord } from './target';
export type { EventSource, SessionSetup } from './subscriptions';
export { tabOf } from './subscriptions';

/** What the SessionManager reports to its owner (BrowserSession turns these into bus events). */
export type SessionManagerEvent =
  | { type: 'targetAdded'; target: TargetRecord; restored: boolean }
  | { type: 'targetRemoved'; target: TargetRecord }
  | { type: 'targetChanged'; target: TargetRecord }
  | { type: 'targetCrashed'; target: TargetRecord }
  | { type: 'childAttached'; target: TargetRecord; session: CdpSession }
  | { type: 'focusChanged'; previous: string | undefined; current: string | undefined };

export interface SessionManagerOptions {
  logger?: Logger;
  /** How long a new target may take to get a ready session. */
  attachTimeoutMs?: number;
}

const ROOT_AUTO_ATTACH_FILTER = [{ type: 'page', exclude: false }];

/**
 * The single owner of targets, sessions and focus. Auto-attaches with `flatten: true` at
 * the browser and inside every page and OOPIF, maps targets and sessions both ways, keeps a lifecycle
 * buffer per page, and recovers focus when the focused page goes away.
 *
 * Subscriptions made through `on` and `addSessionSetup` belong to the manager, not to a connection, so
 * they survive a reconnect by construction (browser-use loses them).
 */
export class SessionManager {
  readonly #log: Logger;
  /** Targets attached on purpose beside the driven ones (attachAside). */
  readonly #aside = new Set<string>();
  readonly #attachTimeoutMs: number;
  readonly #registry = new TargetRegistry();
  readonly #subscriptions: CdpSubscriptions;
  readonly #tracker: TargetTracker;
  readonly #observers = new Set<(event: SessionManagerEvent) => void>();
  #connection: CdpConnection | undefined;
  #root: CdpSession | undefined;
  #disposeConnection: Array<() => void> = [];
  readonly #focus: FocusKeeper;

  constructor(options: SessionManagerOptions = {}) {
    this.#log = options.logger ?? silentLogger;
    this.#subscriptions = new CdpSubscriptions(this.#log);
    this.#tracker = new TargetTracker(
      {
        connection: () => this.#connection,
        root: () => this.#root,
        notify: (event) => this.#notify(event),
        pageRemoved: (targetId) => this.#focus.lost(targetId),
        keptAside: (targetId) => this.#aside.has(targetId),
      },
      this.#registry,
      this.#subscriptions,
      this.#log,
    );
    this.#focus = new FocusKeeper(
      {
        readyPages: () => this.#registry.readyPages(),
        hasReadyPage: (targetId) => this.#registry.readySessionOf(targetId) !== undefined,
        ownsBrowser: () => this.ownsBrowser,
        connected: () => this.connected,
        createPage: (url) => this.createPage(url),
        focusChanged: (previous, current) => this.#notify({ type: 'focusChanged', previous, current }),
      },
      this.#log,
    );
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

  /** Whether the transport can drive the browser's own pages (TransportCapabilities.browserPages). */
  get drivesBrowserPages(): boolean {
    return this.#connection?.capabilities.browserPages ?? true;
  }

  /**
   * Takes a (new) connection: subscribes to Target events, enables discovery and auto-attach, waits
   * until the existing pages have ready sessions, and restores focus (the previous focus when it still
   * exists, else the most recent page, else, when tabpilot owns the browser, a new blank page).
   */
  async start(connection: CdpConnection): Promise<void> {
    const previousFocus = this.#focus.current;
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
    this.#tracker.removeVanishedPages();
    await this.#focus.restore(previousFocus);
  }

  /** Forgets the connection (release, stop): sessions are dropped, targets forgotten, focus cleared. */
  stop(reason: string): void {
    this.#detachFromConnection(reason);
    // A deliberate stop forgets the pages: the next start announces what it finds as new.
    this.#tracker.forgetKnownPages();
    this.#focus.set(undefined);
  }

  // ---- queries -------------------------------------------------------------------------------

  targets(): TargetRecord[] {
    return this.#registry.all().map((target) => ({ ...target }));
  }

  /** Page targets with a ready session, oldest first. */
  pages(): TargetRecord[] {
    return this.#registry.readyPages().map((target) => ({ ...target }));
  }

  /**
   * Re-reads url and title of every target from the browser. Target.targetInfoChanged does not follow
   * every title change, so listings that show titles refresh first (one round trip).
   */
  async refreshTargetInfo(): Promise<void> {
    const { targetInfos } = await this.root.send('Target.getTargets');
    for (const info of targetInfos) {
      const target = this.#registry.target(info.targetId);
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

  /** The ready sessions of one page's out-of-process frames (a frame still attaching has none yet). */
  frameSessionsOf(pageTargetId: string): CdpSession[] {
    return this.childrenOf(pageTargetId)
      .filter((child) => child.type === 'iframe')
      .map((child) => this.sessionFor(child.targetId))
      .filter((session): session is CdpSession => session !== undefined);
  }

  /**
   * Waits (at most `timeoutMs`) until every out-of-process frame known in a page has a ready session. A
   * frame target is known before it runs (auto-attach holds it), but its session is ready only once the
   * setup's commands answered, which under load can be after the frame and its page loaded: a look into
   * the page's frames right after a navigation would miss it. Past the bound, what is ready is used.
   */
  async framesReady(pageTargetId: string, timeoutMs = FRAMES_READY_MS): Promise<void> {
    const waiting = (): boolean =>
      this.childrenOf(pageTargetId).some(
        (child) => child.type === 'iframe' && this.#registry.readySessionOf(child.targetId) === undefined,
      );
    if (!waiting()) {
      return;
    }
    await bestEffort(
      pollUntil(() => (waiting() ? undefined : true), {
        timeoutMs,
        intervalMs: 20,
        onTimeout: () => new TabpilotError('TIMEOUT', 'a frame of the page did not finish attaching'),
      }),
      this.#log,
      'waiting for the frames of a page to attach',
    );
  }

  target(targetId: string): TargetRecord | undefined {
    const target = this.#registry.target(targetId);
    return target === undefined ? undefined : { ...target };
  }

  /** The ready session of a target, or undefined. */
  sessionFor(targetId: string): CdpSession | undefined {
    return this.#registry.readySessionOf(targetId)?.session;
  }

  /** A ready session by its id (an element remembers the session of its frame). */
  sessionForId(sessionId: string): CdpSession | undefined {
    const entry = this.#registry.session(sessionId);
    return entry !== undefined && entry.ready && !entry.session.detached ? entry.session : undefined;
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

  targetOfSession(sessionId: string): TargetRecord | undefined {
    const entry = this.#registry.session(sessionId);
    return entry === undefined ? undefined : this.target(entry.targetId);
  }

  lifecycle(targetId: string): LifecycleBuffer | undefined {
    return this.#tracker.lifecycle(targetId);
  }

  // ---- focus ---------------------------------------------------------------------------------

  get focusedTargetId(): string | undefined {
    return this.#focus.current;
  }

  /** The focused page's session, or NOT_ATTACHED when there is none. Waits for a running recovery. */
  async focusedSession(): Promise<CdpSession> {
    await this.settled();
    const focus = this.#focus.current;
    if (focus === undefined) {
      throw new TabpilotError('NOT_ATTACHED', 'No tab is attached: attach a tab first');
    }
    return this.requireSession(focus);
  }

  setFocus(targetId: string): void {
    const target = this.#registry.target(targetId);
    if (target === undefined || !isPageType(target.type) || this.#registry.readySessionOf(targetId) === undefined) {
      throw new TabpilotError('TAB_NOT_FOUND', `Tab ${targetId} is not a controlled page`, {
        details: { target_id: targetId },
      });
    }
    this.#focus.set(targetId);
  }

  /** Resolves once no focus recovery is running. */
  async settled(): Promise<void> {
    await this.#focus.settled();
  }

  // ---- targets -------------------------------------------------------------------------------

  /** Opens a page (in a window of its own with `newWindow`) and waits until it has a ready session. */
  async createPage(url: string, options: { background?: boolean; newWindow?: boolean } = {}): Promise<TargetRecord> {
    const { targetId } = await this.root.send('Target.createTarget', {
      url,
      background: options.background ?? false,
      ...(options.newWindow === true ? { newWindow: true } : {}),
    });
    return this.waitForPage(targetId);
  }

  waitForPage(targetId: string, timeoutMs = this.#attachTimeoutMs): Promise<TargetRecord> {
    return pollUntil(
      () => {
        const target = this.#registry.target(targetId);
        return target !== undefined && this.#registry.readySessionOf(targetId) !== undefined
          ? { ...target }
          : undefined;
      },
      {
        timeoutMs,
        intervalMs: 20,
        onTimeout: () => new TabpilotError('TIMEOUT', `Target ${targetId} got no session within ${timeoutMs} ms`),
      },
    );
  }

  /**
   * A session of its own with a target the manager does not drive (a service worker, say), attached from
   * the browser session and kept: the manager neither sets it up nor lets it go. It ends with the connection.
   */
  async attachAside(targetId: string): Promise<CdpSession> {
    const root = this.root;
    this.#aside.add(targetId);
    try {
      const { sessionId } = await root.send('Target.attachToTarget', { targetId, flatten: true });
      return new CdpSession(root.connection, sessionId, targetId);
    } catch (error) {
      this.#aside.delete(targetId);
      throw error;
    }
  }

  async closeTarget(targetId: string): Promise<void> {
    await this.root.send('Target.closeTarget', { targetId });
  }

  /**
   * Suspends every session of a page (see Suspension): its pending commands fail now, later ones at
   * once, until `resumeTarget`. A session attached later (a reconnect) starts unsuspended.
   */
  suspendTarget(targetId: string, suspension: Suspension): void {
    for (const sessionId of this.#registry.sessionIdsOf(targetId)) {
      this.#connection?.suspend(sessionId, suspension);
    }
  }

  resumeTarget(targetId: string): void {
    for (const sessionId of this.#registry.sessionIdsOf(targetId)) {
      this.#connection?.resume(sessionId);
    }
  }

  // ---- subscriptions -------------------------------------------------------------------------

  /** Listens to one CDP event on every session, now and after reconnects. Returns a disposer. */
  on<E extends CdpEventName>(event: E, listener: (params: CdpEventParams<E>, source: EventSource) => void): () => void {
    return this.#subscriptions.on(event, listener);
  }

  /**
   * Registers per-session setup (enabling a domain, say). It runs at once on every ready session and on
   * every session attached later, reconnects included.
   */
  addSessionSetup(setup: SessionSetup): () => void {
    const dispose = this.#subscriptions.addSetup(setup);
    for (const entry of this.#registry.sessions()) {
      const target = this.#registry.target(entry.targetId);
      if (entry.ready && target !== undefined) {
        void bestEffort(setup(entry.session, target), this.#log, 'session setup on an existing session');
      }
    }
    return dispose;
  }

  observe(observer: (event: SessionManagerEvent) => void): () => void {
    this.#observers.add(observer);
    return () => this.#observers.delete(observer);
  }

  // ---- internals -----------------------------------------------------------------------------

  #notify(event: SessionManagerEvent): void {
    for (const observer of this.#observers) {
      try {
        observer(event);
      } catch (error) {
        this.#log.warn('session manager observer threw', {
          error: errorMessageOf(error),
        });
      }
    }
  }

  #detachFromConnection(reason: string): void {
    for (const dispose of this.#disposeConnection) {
      dispose();
    }
    this.#disposeConnection = [];
    this.#tracker.connectionLost(reason);
    this.#root?.markDetached(reason);
    this.#root = undefined;
    this.#connection = undefined;
  }

  #onConnectionClosed(connection: CdpConnection, reason: string): void {
    if (this.#connection !== connection) {
      return;
    }
    // Its sessions need no marking: a session of a closed connection reports itself detached.
    this.#log.info('CDP connection closed', { reason });
  }

  async #waitForDiscoveredPages(): Promise<void> {
    // Auto-attach answers existing pages asynchronously; give them a bounded moment (browser-use: 2 s).
    await bestEffort(
      pollUntil(
        () => {
          // A connection that closed meanwhile will attach nothing more: the caller's next call fails.
          if (!this.connected) {
            return true;
          }
          const pending = this.#registry
            .all()
            .filter(
              (target) => isPageType(target.type) && this.#registry.readySessionOf(target.targetId) === undefined,
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

  #onEvent(event: CdpEventMessage): void {
    this.#tracker.handle(event);
    const sourceEntry = event.sessionId === undefined ? undefined : this.#registry.session(event.sessionId);
    if (sourceEntry !== undefined) {
      const buffer = this.#tracker.lifecycle(sourceEntry.targetId);
      if (buffer !== undefined) {
        trackLifecycle(buffer, event, sourceEntry.targetId);
      }
      if (event.method === 'Inspector.targetCrashed') {
        this.#tracker.crashed(sourceEntry.targetId);
      }
    }
    if (!this.#subscriptions.hasListeners(event.method)) {
      return;
    }
    if (event.sessionId === undefined) {
      if (this.#root !== undefined) {
        this.#subscriptions.dispatch(event.method, event.params, { session: this.#root, target: undefined });
      }
    } else if (sourceEntry !== undefined) {
      this.#subscriptions.dispatch(event.method, event.params, {
        session: sourceEntry.session,
        target: this.#registry.target(sourceEntry.targetId),
      });
    }
  }

  /** For tests and diagnostics: the session ids a target has. */
  sessionIdsOf(targetId: string): string[] {
    return this.#registry.sessionIdsOf(targetId);
  }
}
