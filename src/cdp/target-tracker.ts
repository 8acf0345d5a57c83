import type { CdpEventMessage, Protocol } from '../protocol/cdp';
import type { Logger } from '../shared/logger';
import { bestEffort } from '../shared/logger';
import type { CdpConnection } from './connection';
import { LifecycleBuffer } from './lifecycle';
import { CdpSession } from './session';
import type { SessionManagerEvent } from './session-manager';
import { setUpSession } from './session-setup';
import type { CdpSubscriptions } from './subscriptions';
import { CHILD_TARGET_TYPES, isPageType, type TargetRecord } from './target';
import type { TargetRegistry } from './target-registry';

/** What the target tracker needs of the SessionManager. */
export interface TrackerHost {
  /** The live connection, or undefined between connections. */
  connection(): CdpConnection | undefined;
  /** The browser-level session of the live connection. */
  root(): CdpSession | undefined;
  notify(event: SessionManagerEvent): void;
  /** A page target went away (focus recovers if it was the focused one). */
  pageRemoved(targetId: string): void;
  /** A target someone attached to on purpose (SessionManager.attachAside): not the tracker's to let go. */
  keptAside(targetId: string): boolean;
}

/**
 * Keeps the SessionManager's registry in step with the browser's Target events: takes each attached
 * session (a page, or an OOPIF or worker inside one), sets it up, lets go of targets that are not ours,
 * drops sessions and targets as they go, and keeps a lifecycle buffer per page. Reports each page once
 * per connection, as restored when it was there before a reconnect.
 */
export class TargetTracker {
  readonly #host: TrackerHost;
  readonly #registry: TargetRegistry;
  readonly #subscriptions: CdpSubscriptions;
  readonly #log: Logger;
  readonly #lifecycle = new Map<string, LifecycleBuffer>();
  /** Page targets seen on an earlier connection, so a reconnect restores rather than announces them. */
  readonly #known = new Map<string, TargetRecord>();
  /** Pages reported as targetAdded on this connection and not removed since. */
  readonly #announced = new Set<string>();

  constructor(host: TrackerHost, registry: TargetRegistry, subscriptions: CdpSubscriptions, log: Logger) {
    this.#host = host;
    this.#registry = registry;
    this.#subscriptions = subscriptions;
    this.#log = log;
  }

  lifecycle(targetId: string): LifecycleBuffer | undefined {
    return this.#lifecycle.get(targetId);
  }

  /** The connection went away: its pages are remembered for the next one, its targets and sessions dropped. */
  connectionLost(reason: string): void {
    for (const target of this.#registry.all()) {
      if (isPageType(target.type)) {
        this.#known.set(target.targetId, { ...target });
      }
    }
    this.#registry.clear(reason);
    this.#announced.clear();
  }

  /** Forgets the pages of earlier connections: the next start announces what it finds as new. */
  forgetKnownPages(): void {
    this.#known.clear();
  }

  /** After a reconnect found its pages: those known from before that did not come back are removed. */
  removeVanishedPages(): void {
    // Pages that were there before a drop and did not come back closed while we were away.
    for (const [targetId, record] of [...this.#known]) {
      if (!this.#registry.has(targetId)) {
        this.#known.delete(targetId);
        this.#host.notify({ type: 'targetRemoved', target: record });
      }
    }
  }

  /** Applies one Target.* event; other events are ignored. */
  handle(event: CdpEventMessage): void {
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
        this.crashed((event.params as Protocol.Target.TargetCrashedEvent).targetId);
        break;
      default:
        break;
    }
  }

  crashed(targetId: string): void {
    const target = this.#registry.target(targetId);
    if (target !== undefined) {
      this.#host.notify({ type: 'targetCrashed', target: { ...target } });
    }
  }

  #onTargetInfo(info: Protocol.Target.TargetInfo, changed: boolean): void {
    const existing = this.#registry.target(info.targetId);
    if (existing === undefined) {
      if (isPageType(info.type) && !changed) {
        this.#registry.upsert(info, undefined);
      }
      return;
    }
    const urlOrTitleChanged = existing.url !== info.url || existing.title !== info.title;
    this.#registry.upsert(info, existing.pageTargetId);
    if (urlOrTitleChanged && this.#registry.readySessionOf(info.targetId) !== undefined) {
      this.#host.notify({ type: 'targetChanged', target: { ...existing } });
    }
  }

  #onTargetDestroyed(targetId: string): void {
    if (this.#registry.sessionIdsOf(targetId).length > 0) {
      return;
    }
    this.#removeTarget(targetId);
  }

  #onAttached(params: Protocol.Target.AttachedToTargetEvent, parentSessionId: string | undefined): void {
    const connection = this.#host.connection();
    if (connection === undefined) {
      return;
    }
    const info = params.targetInfo;
    if (this.#host.keptAside(info.targetId)) {
      return;
    }
    const session = new CdpSession(connection, params.sessionId, info.targetId);
    const parentTarget = parentSessionId === undefined ? undefined : this.#registry.session(parentSessionId)?.targetId;
    const isPage = isPageType(info.type) && parentSessionId === undefined;
    const isChild = parentTarget !== undefined && (CHILD_TARGET_TYPES as readonly string[]).includes(info.type);
    if (!isPage && !isChild) {
      // Not ours to drive (a service worker, a portal...): let it run and let go of it.
      const owner =
        parentSessionId === undefined ? this.#host.root() : this.#registry.session(parentSessionId)?.session;
      void bestEffort(
        this.#release(session, owner, params.waitingForDebugger),
        this.#log,
        `releasing ${info.type} target`,
      );
      return;
    }
    const pageTargetId = isChild ? (this.#registry.target(parentTarget)?.pageTargetId ?? parentTarget) : undefined;
    const target = this.#registry.upsert(info, pageTargetId);
    this.#registry.addSession(session, info.targetId);
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
    await setUpSession({
      session,
      target,
      isPage,
      waitingForDebugger: waiting,
      lifecycle: this.#lifecycle.get(target.targetId),
      setups: this.#subscriptions.setups,
      log: this.#log,
    });
    const entry = this.#registry.session(session.sessionId);
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
      this.#host.notify({ type: 'targetAdded', target: { ...target }, restored });
    } else {
      this.#host.notify({ type: 'childAttached', target: { ...target }, session });
    }
  }

  #onDetached(params: Protocol.Target.DetachedFromTargetEvent): void {
    const removed = this.#registry.removeSession(params.sessionId);
    if (removed === undefined) {
      return;
    }
    removed.entry.session.markDetached('target detached');
    this.#host.connection()?.disposeSession(params.sessionId, 'target detached');
    if (removed.targetOrphaned) {
      this.#removeTarget(removed.entry.targetId);
    }
  }

  #removeTarget(targetId: string): void {
    const [target, ...children] = this.#registry.removeTarget(targetId);
    if (target === undefined) {
      return;
    }
    for (const gone of [target, ...children]) {
      this.#announced.delete(gone.targetId);
      this.#lifecycle.delete(gone.targetId);
      this.#known.delete(gone.targetId);
    }
    if (!isPageType(target.type)) {
      return;
    }
    this.#host.notify({ type: 'targetRemoved', target: { ...target } });
    this.#host.pageRemoved(targetId);
  }
}
