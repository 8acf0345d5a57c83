import type { CdpEventName, CdpEventParams, CdpMethod, CdpParams, CdpParamsTuple, CdpResult } from '../protocol/cdp';
import { TabpilotError } from '../shared/errors';
import { abortReason } from '../shared/time';
import type { CallOptions, CdpConnection } from './connection';

/**
 * A typed handle on one CDP session ('' = the browser). Commands are typed from devtools-protocol with
 * the params as a rest tuple; any number of listeners per event. A session handle is only valid for its
 * connection: after a reconnect, ask the SessionManager for a fresh one.
 */
export class CdpSession {
  readonly connection: CdpConnection;
  readonly sessionId: string;
  readonly targetId: string;
  #detachedReason: string | undefined;
  /** What layers above keep for this session alone (the page bridge's world), one of each kind. */
  readonly #owned = new Map<abstract new (session: CdpSession) => object, object>();

  constructor(connection: CdpConnection, sessionId: string, targetId: string) {
    this.connection = connection;
    this.sessionId = sessionId;
    this.targetId = targetId;
  }

  get detached(): boolean {
    return this.#detachedReason !== undefined || this.connection.closed;
  }

  markDetached(reason: string): void {
    this.#detachedReason ??= reason;
  }

  /**
   * The session's own instance of `kind`, made on first use: state a layer above keeps per session (the
   * page bridge's world of this frame) lives and goes with the session, not in a module's map.
   */
  own<T extends object>(kind: new (session: CdpSession) => T): T {
    const held = this.#owned.get(kind);
    if (held instanceof kind) {
      return held;
    }
    const made = new kind(this);
    this.#owned.set(kind, made);
    return made;
  }

  send<M extends CdpMethod>(method: M, ...params: CdpParamsTuple<M>): Promise<CdpResult<M>> {
    return this.call(method, params[0] as CdpParams<M>);
  }

  /** `send` with a per-call timeout or an abort signal. */
  call<M extends CdpMethod>(method: M, params: CdpParams<M>, options: CallOptions = {}): Promise<CdpResult<M>> {
    return this.connection.send(method, params, this.sessionId, options) as Promise<CdpResult<M>>;
  }

  on<E extends CdpEventName>(event: E, listener: (params: CdpEventParams<E>) => void): () => void {
    return this.connection.on(this.sessionId, event, (message) => listener(message.params as CdpEventParams<E>));
  }

  /** The next event of a kind that matches, or a TIMEOUT error; cleans up its listener either way. */
  waitFor<E extends CdpEventName>(
    event: E,
    options: { predicate?: (params: CdpEventParams<E>) => boolean; timeoutMs: number; signal?: AbortSignal },
  ): Promise<CdpEventParams<E>> {
    return new Promise((resolve, reject) => {
      const cleanup = (): void => {
        dispose();
        clearTimeout(timer);
        options.signal?.removeEventListener('abort', onAbort);
      };
      const dispose = this.on(event, (params) => {
        if (options.predicate === undefined || options.predicate(params)) {
          cleanup();
          resolve(params);
        }
      });
      const timer = setTimeout(() => {
        cleanup();
        reject(new TabpilotError('TIMEOUT', `No ${event} within ${options.timeoutMs} ms`));
      }, options.timeoutMs);
      const onAbort = (): void => {
        cleanup();
        reject(abortReason(options.signal));
      };
      options.signal?.addEventListener('abort', onAbort, { once: true });
    });
  }
}
