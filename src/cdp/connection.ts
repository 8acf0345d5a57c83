import { errorMessageOf } from '../shared/errors';
import type { Logger } from '../shared/logger';
import { silentLogger } from '../shared/logger';
import { abortReason } from '../shared/time';
import { isCdpResponse, type CdpEventMessage, type CdpIncoming } from '../protocol/cdp';
import { CdpConnectionClosedError, CdpTargetClosedError, CdpTimeoutError, errorFromPayload } from './errors';
import type { CdpTransport, TransportCapabilities } from './transport';

export interface CallOptions {
  timeoutMs?: number;
  signal?: AbortSignal;
  /** Sent even while the session is suspended (a health check that must reach a stuck page). */
  ignoreSuspension?: boolean;
  /** Work of its own that is not the session's commands (a recording's frames): not counted in `idleMs`. */
  background?: boolean;
}

/**
 * A session whose page cannot answer (crashed, stuck): its commands fail at once with `error` instead
 * of hanging, except the few the browser itself answers (`allows`), which are how it comes back.
 */
export interface Suspension {
  error(method: string): Error;
  allows(method: string): boolean;
}

interface PendingCall {
  method: string;
  sessionId: string;
  resolve: (value: unknown) => void;
  reject: (error: Error) => void;
  timer: ReturnType<typeof setTimeout> | undefined;
  /** Created at send time so a failure carries the caller's stack, not the socket handler's. */
  origin: Error;
  onAbort: (() => void) | undefined;
  signal: AbortSignal | undefined;
  background: boolean;
}

export type CdpEventListener = (event: CdpEventMessage) => void;

/** The root (browser-level) session has no session id; it is keyed as ''. */
const ROOT = '';

/**
 * Owns one transport: allocates ids, applies a per-call timeout, routes responses by id and events to
 * listeners by (session, method). When the transport closes every pending call is rejected with
 * CdpConnectionClosedError, so nothing waits forever.
 */
export class CdpConnection {
  readonly #transport: CdpTransport;
  readonly #log: Logger;
  readonly #defaultTimeoutMs: number;
  readonly #pending = new Map<number, PendingCall>();
  readonly #listeners = new Map<string, Map<string, Set<CdpEventListener>>>();
  readonly #anyListeners = new Set<CdpEventListener>();
  readonly #closeListeners = new Set<(reason: string) => void>();
  readonly #suspended = new Map<string, Suspension>();
  #nextId = 1;
  #closedReason: string | undefined;
  /** Calls in flight that are not `background`, and when the last of them was answered (epoch ms). */
  #foreground = 0;
  #foregroundEndedAt = Number.NEGATIVE_INFINITY;

  constructor(transport: CdpTransport, options: { timeoutMs?: number; logger?: Logger } = {}) {
    this.#transport = transport;
    this.#log = options.logger ?? silentLogger;
    this.#defaultTimeoutMs = options.timeoutMs ?? 30_000;
    transport.onmessage = (message) => this.#onMessage(message);
    transport.onclose = (reason) => this.#onClose(reason);
  }

  get capabilities(): TransportCapabilities {
    return this.#transport.capabilities;
  }

  get closed(): boolean {
    return this.#closedReason !== undefined;
  }

  get closedReason(): string | undefined {
    return this.#closedReason;
  }

  get pendingCount(): number {
    return this.#pending.size;
  }

  /** Milliseconds since the last call that was not `background` was answered; 0 while one is in flight. */
  get idleMs(): number {
    return this.#foreground > 0 ? 0 : Date.now() - this.#foregroundEndedAt;
  }

  send(
    method: string,
    params: object | undefined,
    sessionId: string | undefined,
    options: CallOptions = {},
  ): Promise<unknown> {
    const origin = new Error(method);
    if (this.#closedReason !== undefined) {
      return Promise.reject(withStack(new CdpConnectionClosedError(this.#closedReason, method), origin));
    }
    if (options.signal?.aborted === true) {
      return Promise.reject(abortReason(options.signal));
    }
    const suspension = this.#suspended.get(sessionId ?? ROOT);
    if (suspension !== undefined && options.ignoreSuspension !== true && !suspension.allows(method)) {
      return Promise.reject(withStack(suspension.error(method), origin));
    }
    const id = this.#nextId++;
    const timeoutMs = options.timeoutMs ?? this.#defaultTimeoutMs;
    return new Promise((resolve, reject) => {
      const call: PendingCall = {
        method,
        sessionId: sessionId ?? ROOT,
        resolve,
        reject,
        timer: undefined,
        origin,
        onAbort: undefined,
        signal: options.signal,
        background: options.background === true,
      };
      if (Number.isFinite(timeoutMs)) {
        call.timer = setTimeout(() => {
          this.#settle(id)?.reject(withStack(new CdpTimeoutError(method, timeoutMs), origin));
        }, timeoutMs);
      }
      if (options.signal !== undefined) {
        const signal = options.signal;
        call.onAbort = () => this.#settle(id)?.reject(abortReason(signal));
        signal.addEventListener('abort', call.onAbort, { once: true });
      }
      this.#pending.set(id, call);
      if (!call.background) {
        this.#foreground++;
      }
      try {
        this.#transport.send(
          sessionId === undefined || sessionId === ROOT
            ? { id, method, params: params ?? {} }
            : { id, method, params: params ?? {}, sessionId },
        );
      } catch (error) {
        this.#settle(id)?.reject(error instanceof Error ? error : new Error(String(error)));
      }
    });
  }

  /** Subscribes to one method on one session ('' = browser level). Returns a disposer. */
  on(sessionId: string, method: string, listener: CdpEventListener): () => void {
    let byMethod = this.#listeners.get(sessionId);
    if (byMethod === undefined) {
      byMethod = new Map();
      this.#listeners.set(sessionId, byMethod);
    }
    let set = byMethod.get(method);
    if (set === undefined) {
      set = new Set();
      byMethod.set(method, set);
    }
    set.add(listener);
    return () => {
      set.delete(listener);
    };
  }

  /** Every event from every session, before per-session listeners (the SessionManager's tap). */
  onAnyEvent(listener: CdpEventListener): () => void {
    this.#anyListeners.add(listener);
    return () => this.#anyListeners.delete(listener);
  }

  onClose(listener: (reason: string) => void): () => void {
    if (this.#closedReason !== undefined) {
      const reason = this.#closedReason;
      queueMicrotask(() => listener(reason));
    }
    this.#closeListeners.add(listener);
    return () => this.#closeListeners.delete(listener);
  }

  /** Rejects the calls still pending on a session that went away, and drops its listeners. */
  disposeSession(sessionId: string, reason: string): void {
    for (const [id, call] of this.#pending) {
      if (call.sessionId === sessionId) {
        this.#settle(id)?.reject(withStack(new CdpTargetClosedError(reason, call.method), call.origin));
      }
    }
    this.#listeners.delete(sessionId);
    this.#suspended.delete(sessionId);
  }

  /** Fails the session's pending commands (but those `suspension` allows) and every later one at once. */
  suspend(sessionId: string, suspension: Suspension): void {
    this.#suspended.set(sessionId, suspension);
    for (const [id, call] of this.#pending) {
      if (call.sessionId === sessionId && !suspension.allows(call.method)) {
        this.#settle(id)?.reject(withStack(suspension.error(call.method), call.origin));
      }
    }
  }

  resume(sessionId: string): void {
    this.#suspended.delete(sessionId);
  }

  close(reason = 'closed by client'): void {
    if (this.#closedReason !== undefined) {
      return;
    }
    this.#transport.close(reason);
    // Transports call onclose themselves; this covers one that does not, and is idempotent.
    this.#onClose(reason);
  }

  #settle(id: number): PendingCall | undefined {
    const call = this.#pending.get(id);
    if (call === undefined) {
      return undefined;
    }
    this.#pending.delete(id);
    if (!call.background) {
      this.#foreground--;
      this.#foregroundEndedAt = Date.now();
    }
    if (call.timer !== undefined) {
      clearTimeout(call.timer);
    }
    if (call.onAbort !== undefined) {
      call.signal?.removeEventListener('abort', call.onAbort);
    }
    return call;
  }

  #onMessage(message: CdpIncoming): void {
    if (isCdpResponse(message)) {
      const call = this.#settle(message.id);
      if (call === undefined) {
        return;
      }
      if (message.error !== undefined) {
        call.reject(withStack(errorFromPayload(call.method, message.error), call.origin));
      } else {
        call.resolve(message.result ?? {});
      }
      return;
    }
    this.#dispatchEvent(message);
  }

  #dispatchEvent(event: CdpEventMessage): void {
    for (const listener of this.#anyListeners) {
      this.#safely(listener, event);
    }
    const listeners = this.#listeners.get(event.sessionId ?? ROOT)?.get(event.method);
    if (listeners !== undefined) {
      for (const listener of [...listeners]) {
        this.#safely(listener, event);
      }
    }
  }

  #safely(listener: CdpEventListener, event: CdpEventMessage): void {
    try {
      listener(event);
    } catch (error) {
      this.#log.warn('CDP event listener threw', {
        method: event.method,
        error: errorMessageOf(error),
      });
    }
  }

  #onClose(reason: string): void {
    if (this.#closedReason !== undefined) {
      return;
    }
    this.#closedReason = reason;
    for (const [id, call] of [...this.#pending]) {
      this.#settle(id)?.reject(withStack(new CdpConnectionClosedError(reason, call.method), call.origin));
    }
    this.#listeners.clear();
    for (const listener of this.#closeListeners) {
      listener(reason);
    }
  }
}

function withStack<E extends Error>(error: E, origin: Error): E {
  if (origin.stack !== undefined) {
    const callerFrames = origin.stack.split('\n').slice(1).join('\n');
    error.stack = `${error.name}: ${error.message}\n${callerFrames}`;
  }
  return error;
}
