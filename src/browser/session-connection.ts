import type { EventBus } from '../bus/event-bus';
import { readBrowserIdentity, type BrowserIdentity } from '../cdp/browser-identity';
import { connectWithinBudget } from '../cdp/connect-retry';
import { CdpConnection } from '../cdp/connection';
import { CdpConnectionClosedError } from '../cdp/errors';
import { ReconnectController, type ReconnectPolicy } from '../cdp/reconnect';
import type { SessionManager } from '../cdp/session-manager';
import type { CdpTransport } from '../cdp/transport';
import { TabpilotError, errorMessageOf } from '../shared/errors';
import type { Logger } from '../shared/logger';
import { redactUrl } from '../shared/redact-url';
import { abortReason } from '../shared/time';
import { refuseNonBrowserEndpoint, replacementOf } from './browser-change';
import type { BrowserConfig } from './config';
import { BrowserReplacedEvent } from '../protocol/events/connection.events';
import { BrowserReconnectedEvent, BrowserReconnectingEvent } from '../protocol/events/lifecycle.events';
import type { ConnectionState } from './session-view';

export interface OpenTransportOptions {
  /** Aborts when the connect budget or the reconnect attempt runs out: stop and close what was opened. */
  signal: AbortSignal;
}

export type OpenTransport = (endpoint: string, options: OpenTransportOptions) => Promise<CdpTransport>;

/** What the connection needs of its session: where to announce, whose targets to restore, the config. */
export interface SessionConnectionHost {
  readonly bus: EventBus;
  readonly targets: SessionManager;
  readonly log: Logger;
  config(): BrowserConfig;
  /** Records an error that has no awaiting caller. */
  reportError(errorType: string, error: unknown, details?: Record<string, unknown>): void;
}

/**
 * A session's one connection to its browser: connecting within the budget, reconnecting after a drop,
 * telling a replaced browser from the same one come back, and closing on purpose. It owns the connection
 * state every command is judged by (the circuit breaker, `resolveTab`).
 */
export class SessionConnection {
  readonly #host: SessionConnectionHost;
  readonly #openTransport: OpenTransport;
  readonly #reconnect: ReconnectController;
  /** Where no endpoint was given the session launches its browser, and launches a new one after a stop. */
  readonly #launchesBrowser: boolean;
  #state: ConnectionState = 'idle';
  #endpoint: string | undefined;
  #connection: CdpConnection | undefined;
  /**
   * The browser this session drives, as it said who it is; kept across a drop so the next connection can
   * tell whether it reached the same browser. Undefined before the first connect, after a deliberate stop,
   * and over transports that do not say (chrome.debugger).
   */
  #browser: BrowserIdentity | undefined;
  /**
   * Why the connection was lost (for the next BrowserReplacedEvent), and what a client can do about it
   * (with the reason, the DISCONNECTED answers). Cleared when connected again.
   */
  #lost: { reason: string; advice: string } | undefined;
  /** Whether the last open landed on another browser than the one lost (announced as replaced). */
  #lastOpenReplaced = false;
  #connectAbort: AbortController | undefined;

  constructor(host: SessionConnectionHost, openTransport: OpenTransport, endpoint: string | undefined) {
    this.#host = host;
    this.#openTransport = openTransport;
    this.#endpoint = endpoint;
    this.#launchesBrowser = endpoint === undefined;
    this.#reconnect = new ReconnectController(
      () => this.#reconnectPolicy(),
      {
        reopen: async (signal) => {
          this.#lastOpenReplaced = await this.#open(this.#requireEndpoint(), signal);
        },
        isAlive: () => this.#connection !== undefined && !this.#connection.closed,
        onAttempt: (attempt, maxAttempts) => {
          host.bus.emit(
            BrowserReconnectingEvent,
            { cdp_url: redactUrl(this.#endpoint ?? ''), attempt, max_attempts: maxAttempts },
            { source: 'session' },
          );
        },
        onSuccess: (attempt, downtimeMs) => {
          this.#state = 'connected';
          this.#lost = undefined;
          // Landing on another browser is not a reconnect: BrowserReplacedEvent has said so instead.
          if (!this.#lastOpenReplaced) {
            host.bus.emit(
              BrowserReconnectedEvent,
              { cdp_url: redactUrl(this.#endpoint ?? ''), attempt, downtime_seconds: downtimeMs / 1000 },
              { source: 'session' },
            );
          }
        },
        onGiveUp: (error) => {
          if (this.#state === 'reconnecting') {
            this.#state = 'disconnected';
            this.#lost = {
              reason: this.#lost?.reason ?? 'connection lost',
              advice: `reconnecting failed (${errorMessageOf(error)}): send attach to connect again`,
            };
          }
          host.reportError('ReconnectionFailed', error);
        },
      },
      host.log.child('reconnect'),
    );
  }

  get state(): ConnectionState {
    return this.#state;
  }

  get endpoint(): string | undefined {
    return this.#endpoint;
  }

  set endpoint(endpoint: string | undefined) {
    this.#endpoint = endpoint;
  }

  /** Commands sent during a reconnect that wait for the browser to come back. */
  get waitingForReconnect(): number {
    return this.#reconnect.waiting;
  }

  /** Why the connection is lost and what to do about it, while it is. */
  get lostReason(): string | undefined {
    return this.#lost === undefined ? undefined : `${this.#lost.reason}; ${this.#lost.advice}`;
  }

  /** Resolves when the reconnect under way succeeds or gives up, or after `timeoutMs`. */
  waitForReconnect(timeoutMs: number): Promise<boolean> {
    return this.#reconnect.waitForOutcome(timeoutMs);
  }

  setStateBeforeStart(state: 'idle' | 'connecting'): void {
    this.#state = state;
  }

  /**
   * Opens a transport to `endpoint` and takes over the browser's targets, within the connect budget
   * (connect.timeout_ms): a full pool or a refused connection is retried with backoff; a pool that queues
   * the connection is waited for. `signal` gives up early (the start event's deadline).
   */
  async connect(endpoint: string, signal?: AbortSignal): Promise<void> {
    this.#endpoint = endpoint;
    this.#state = 'connecting';
    const abort = new AbortController();
    this.#connectAbort = abort;
    const shown = redactUrl(endpoint);
    const { timeout_ms, backoff_ms } = this.#host.config().connect;
    try {
      await connectWithinBudget(
        async (attempt) => {
          await this.#open(endpoint, attempt.signal);
        },
        { budgetMs: timeout_ms, backoffMs: backoff_ms },
        {
          endpoint: shown,
          signal: signal === undefined ? abort.signal : AbortSignal.any([abort.signal, signal]),
          onRetry: ({ attempt, error, waitMs }) =>
            this.#host.log.warn('no browser yet; trying again', {
              endpoint: shown,
              attempt,
              error: errorMessageOf(error),
              wait_ms: waitMs,
            }),
        },
      );
      this.#state = 'connected';
      this.#lost = undefined;
    } catch (error) {
      // A stop while connecting leaves 'stopped'.
      if (this.#state === 'connecting') {
        this.#state = 'disconnected';
      }
      throw error;
    } finally {
      if (this.#connectAbort === abort) {
        this.#connectAbort = undefined;
      }
    }
  }

  /**
   * Closes the connection on purpose: no reconnect, sessions forgotten, focus cleared. `browserGone`:
   * the browser is being killed, so a session that launched it launches a new one on its next start.
   */
  disconnect(reason: string, browserGone = false): void {
    if (browserGone && this.#launchesBrowser) {
      this.#endpoint = undefined;
    }
    this.#state = 'stopped';
    this.#connectAbort?.abort(new TabpilotError('CANCELLED', `connect cancelled: ${reason}`));
    this.#browser = undefined;
    this.#lost = undefined;
    this.#reconnect.cancel();
    this.#host.targets.stop(reason);
    const connection = this.#connection;
    this.#connection = undefined;
    connection?.close(reason);
  }

  /**
   * One attempt: opens a transport, learns which browser answered, and takes over its targets. Refuses
   * the endpoint of a single page. Returns whether this is another browser than the one the session lost
   * (then announced as BrowserReplacedEvent). Whatever it opened is closed if it fails or is aborted.
   */
  async #open(endpoint: string, signal: AbortSignal): Promise<boolean> {
    const host = this.#host;
    const transport = await this.#openTransport(endpoint, { signal });
    const connection = new CdpConnection(transport, {
      timeoutMs: host.config().cdp_timeout_ms,
      logger: host.log.child('connection'),
    });
    // An abandoned attempt closes its connection at once, so its pending calls fail now and a slow setup
    // cannot go on beside the next attempt's.
    const abandon = (): void => connection.close(`connect attempt abandoned: ${errorMessageOf(abortReason(signal))}`);
    signal.addEventListener('abort', abandon, { once: true });
    try {
      // Only a transport that speaks to a real browser endpoint can say which browser it is.
      const identity = connection.capabilities.browserDomain
        ? await readBrowserIdentity(connection, signal)
        : undefined;
      refuseNonBrowserEndpoint(identity, endpoint);
      const replaced = replacementOf({
        previous: this.#browser,
        now: identity,
        known: host.targets.targets(),
        endpoint,
        reason: this.#lost?.reason ?? 'connection lost',
      });
      if (signal.aborted) {
        throw abortReason(signal);
      }
      this.#connection = connection;
      connection.onClose((reason) => this.#onConnectionClosed(connection, reason));
      await host.targets.start(connection);
      if (signal.aborted) {
        throw abortReason(signal);
      }
      if (connection.closed) {
        throw new CdpConnectionClosedError(connection.closedReason ?? 'closed while setting up');
      }
      this.#browser = identity ?? this.#browser;
      if (replaced !== undefined) {
        host.log.warn('the browser was replaced: its tabs are gone', { lost: replaced.lost_target_ids.length });
        host.bus.emit(BrowserReplacedEvent, replaced, { source: 'session' });
      }
      return replaced !== undefined;
    } catch (error) {
      connection.close(`connect attempt abandoned: ${errorMessageOf(error)}`);
      throw error;
    } finally {
      signal.removeEventListener('abort', abandon);
    }
  }

  #onConnectionClosed(connection: CdpConnection, reason: string): void {
    // While connecting or reconnecting the attempt itself fails and is retried; after a stop, nothing.
    if (connection !== this.#connection || this.#state !== 'connected') {
      return;
    }
    this.#host.log.warn('browser connection lost', { reason });
    if (!connection.capabilities.reconnect) {
      this.#state = 'disconnected';
      this.#lost = {
        reason,
        // Over chrome.debugger there is nothing to reopen; a real endpoint that cannot be reopened is a pool's.
        advice: connection.capabilities.browserDomain
          ? 'this endpoint gives a new browser per connection (a pool), so there is no way back to the browser that had the tabs: send attach to get a new browser'
          : 'send attach to connect again',
      };
      this.#host.reportError('ConnectionLost', new TabpilotError('DISCONNECTED', `${reason}; ${this.#lost.advice}`), {
        browser_per_connection: true,
      });
      return;
    }
    if (this.#host.config().reconnect.max_attempts === 0) {
      this.#state = 'disconnected';
      this.#lost = { reason, advice: 'reconnect is off (reconnect.max_attempts is 0): send attach to connect again' };
      this.#host.reportError('ConnectionLost', new TabpilotError('DISCONNECTED', `${reason}; ${this.#lost.advice}`));
      return;
    }
    this.#lost = { reason, advice: 'reconnecting' };
    this.#state = 'reconnecting';
    void this.#reconnect.trigger();
  }

  #requireEndpoint(): string {
    if (this.#endpoint === undefined) {
      throw new TabpilotError('DISCONNECTED', 'No browser endpoint to reconnect to');
    }
    return this.#endpoint;
  }

  #reconnectPolicy(): ReconnectPolicy {
    const { max_attempts, backoff_ms, attempt_timeout_ms } = this.#host.config().reconnect;
    return { maxAttempts: max_attempts, backoffMs: backoff_ms, attemptTimeoutMs: attempt_timeout_ms };
  }
}
