import type { Protocol } from '../protocol/cdp';
import type { CdpSession } from './session';
import { isPageType, type TargetRecord } from './target';

export interface SessionEntry {
  readonly session: CdpSession;
  readonly targetId: string;
  /** Set once the session's setup ran; only ready sessions are handed out. */
  ready: boolean;
}

/**
 * The SessionManager's bookkeeping: targets, sessions, and the maps between them both ways. Plain data,
 * no CDP: the manager decides when entries come and go.
 */
export class TargetRegistry {
  readonly #targets = new Map<string, TargetRecord>();
  readonly #sessions = new Map<string, SessionEntry>();
  readonly #targetSessions = new Map<string, Set<string>>();
  #seq = 0;

  target(targetId: string): TargetRecord | undefined {
    return this.#targets.get(targetId);
  }

  has(targetId: string): boolean {
    return this.#targets.has(targetId);
  }

  all(): TargetRecord[] {
    return [...this.#targets.values()];
  }

  session(sessionId: string): SessionEntry | undefined {
    return this.#sessions.get(sessionId);
  }

  sessions(): SessionEntry[] {
    return [...this.#sessions.values()];
  }

  sessionIdsOf(targetId: string): string[] {
    return [...(this.#targetSessions.get(targetId) ?? [])];
  }

  readySessionOf(targetId: string): SessionEntry | undefined {
    for (const id of this.#targetSessions.get(targetId) ?? []) {
      const entry = this.#sessions.get(id);
      if (entry !== undefined && entry.ready && !entry.session.detached) {
        return entry;
      }
    }
    return undefined;
  }

  /** Page targets with a ready session, oldest first. */
  readyPages(): TargetRecord[] {
    return this.all()
      .filter((target) => isPageType(target.type) && this.readySessionOf(target.targetId) !== undefined)
      .sort((a, b) => a.seq - b.seq);
  }

  /** Adds a target or refreshes what is known of it (the record object is kept). */
  upsert(info: Protocol.Target.TargetInfo, pageTargetId: string | undefined): TargetRecord {
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

  addSession(session: CdpSession, targetId: string): void {
    this.#sessions.set(session.sessionId, { session, targetId, ready: false });
    let ids = this.#targetSessions.get(targetId);
    if (ids === undefined) {
      ids = new Set();
      this.#targetSessions.set(targetId, ids);
    }
    ids.add(session.sessionId);
  }

  /** Drops a session; returns its entry and whether its target has no session left. */
  removeSession(sessionId: string): { entry: SessionEntry; targetOrphaned: boolean } | undefined {
    const entry = this.#sessions.get(sessionId);
    if (entry === undefined) {
      return undefined;
    }
    this.#sessions.delete(sessionId);
    const ids = this.#targetSessions.get(entry.targetId);
    ids?.delete(sessionId);
    return { entry, targetOrphaned: ids === undefined || ids.size === 0 };
  }

  /** Drops a target and, for a page, its child targets; returns every record removed, the target first. */
  removeTarget(targetId: string): TargetRecord[] {
    const target = this.#targets.get(targetId);
    if (target === undefined) {
      return [];
    }
    this.#targets.delete(targetId);
    this.#targetSessions.delete(targetId);
    const removed = [target];
    for (const child of this.all()) {
      if (child.pageTargetId === targetId) {
        removed.push(...this.removeTarget(child.targetId));
      }
    }
    return removed;
  }

  /** Forgets everything (the connection went away); the sessions are marked detached. */
  clear(reason: string): void {
    for (const entry of this.#sessions.values()) {
      entry.session.markDetached(reason);
    }
    this.#sessions.clear();
    this.#targetSessions.clear();
    this.#targets.clear();
  }
}
