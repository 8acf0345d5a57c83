import type { CdpEventName, CdpEventParams } from '../protocol/cdp';
import { errorMessageOf } from '../shared/errors';
import type { Logger } from '../shared/logger';
import type { CdpSession } from './session';
import type { TargetRecord } from './target';

export interface EventSource {
  session: CdpSession;
  /** Undefined for browser-level events. */
  target: TargetRecord | undefined;
}

/** The tab (page target) an event came from: the page itself, or the page an iframe or worker is in. */
export function tabOf(source: EventSource): string | undefined {
  return source.target?.pageTargetId ?? source.target?.targetId;
}

/** Per-session setup run on every attached session, again after every reconnect (subscriptions). */
export type SessionSetup = (session: CdpSession, target: TargetRecord) => Promise<void>;

type AnyListener = (params: unknown, source: EventSource) => void;

/**
 * The SessionManager's own CDP subscriptions: any number of listeners per event method, and per-session
 * setups. They belong to the manager, not to a connection, so they outlive a reconnect (cdp-use keeps
 * one callback per method, on the connection).
 */
export class CdpSubscriptions {
  readonly #listeners = new Map<string, Set<AnyListener>>();
  readonly #setups = new Set<SessionSetup>();
  readonly #log: Logger;

  constructor(log: Logger) {
    this.#log = log;
  }

  on<E extends CdpEventName>(event: E, listener: (params: CdpEventParams<E>, source: EventSource) => void): () => void {
    let set = this.#listeners.get(event);
    if (set === undefined) {
      set = new Set();
      this.#listeners.set(event, set);
    }
    const entry = listener as AnyListener;
    set.add(entry);
    return () => set.delete(entry);
  }

  hasListeners(method: string): boolean {
    return (this.#listeners.get(method)?.size ?? 0) > 0;
  }

  dispatch(method: string, params: unknown, source: EventSource): void {
    const listeners = this.#listeners.get(method);
    if (listeners === undefined) {
      return;
    }
    for (const listener of [...listeners]) {
      try {
        listener(params, source);
      } catch (error) {
        this.#log.warn('CDP subscriber threw', { method, error: errorMessageOf(error) });
      }
    }
  }

  addSetup(setup: SessionSetup): () => void {
    this.#setups.add(setup);
    return () => this.#setups.delete(setup);
  }

  get setups(): readonly SessionSetup[] {
    return [...this.#setups];
  }
}
