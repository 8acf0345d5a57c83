import type { AnyEventDefinition } from '../bus/define-event';
import { EventBus } from '../bus/event-bus';
import type { EventRecordView } from '../bus/event-record';
import { readBrowserIdentity, type BrowserIdentity } from '../cdp/browser-identity';
import { connectWithinBudget } from '../cdp/connect-retry';
import { CdpConnection } from '../cdp/connection';
import { CdpConnectionClosedError } from '../cdp/errors';
import { ReconnectController, type ReconnectPolicy } from '../cdp/reconnect';
import { SessionManager, type SessionManagerEvent } from '../cdp/session-manager';
import { DomService } from '../dom/dom-service';
import type { CdpTransport } from '../cdp/transport';
import { TabpilotError, errorMessageOf } from '../shared/errors';
import type { Logger } from '../shared/logger';
import { silentLogger } from '../shared/logger';
import { redactUrl } from '../shared/redact-url';
import { abortReason } from '../shared/time';
import { DownloadedFiles } from './artifacts/downloaded-files';
import { circuitBreaker } from './circuit-breaker';
import type { TabpilotConfig } from './config';
import { announceConfigChange } from './config-change';
import { historyLimits } from './config/history.config';
import { SaveStorageStateEvent } from './events/artifacts.events';
import { attachWatchdog, type AnyWatchdog } from './define-watchdog';
import { refuseNonBrowserEndpoint, replacementOf } from './browser-change';
import { withStartDeadline } from './config/connect.config';
import { BrowserReplacedEvent } from './events/connection.events';
import {
  BrowserErrorEvent,
  BrowserReconnectedEvent,
  BrowserReconnectingEvent,
  BrowserStartEvent,
  BrowserStopEvent,
} from './events/lifecycle.events';
import { AgentFocusChangedEvent, TabClosedEvent, TabCreatedEvent, TargetCrashedEvent } from './events/tabs.events';
import type { BrowserHost } from './host';
import { registerLifecycleHandlers } from './session/lifecycle.handlers';
import { NavigationGuard } from './security/navigation-guard';
import { TabConditions } from './guards/tab-conditions';
import { tabGate } from './guards/tab-gate';
import type { BrowserSessionView, ConnectionState } from './session-view';
import { TabIds } from './tab-ids';

export interface OpenTransportOptions {
  /** Aborts when the connect budget or the reconnect attempt runs out: stop and close what was opened. */
  signal: AbortSignal;
}

export interface BrowserSessionOptions {
  config: TabpilotConfig;
  /** Opens a transport to the browser at `endpoint` (a ws:// URL in Node; ignored by the extension). */
  openTransport: (endpoint: string, options: OpenTransportOptions) => Promise<CdpTransport>;
  /** Where the browser is. Undefined: BrowserStartEvent launches one through BrowserLaunchEvent. */
  endpoint?: string;
  host: BrowserHost;
  logger?: Logger;
  /** The entry's explicit watchdog list, attached in order after the session's own handlers. */
  watchdogs?: readonly AnyWatchdog[];
  name?: string;
}

/**
 * One browser, one bus. Composes the bus, the SessionManager, the platform host and the
 * watchdogs; owns the connection and its reconnects. Turns SessionManager notifications into bus
 * events (TabCreated, TabClosed, AgentFocusChanged, TargetCrashed), so tabs opened by the page itself
 * are announced too.
 */
export class BrowserSession implements BrowserSessionView {
  readonly bus: EventBus;
  readonly targets: SessionManager;
  readonly dom: DomService;
  readonly host: BrowserHost;
  readonly log: Logger;
  readonly tabIds = new TabIds();
  /** The URL policy in force for every road that loads a page; the security watchdog records its blocks. */
  readonly guard = new NavigationGuard(this);
  readonly downloads = new DownloadedFiles();
  readonly conditions = new TabConditions();
  readonly #openTransport: (endpoint: string, options: OpenTransportOptions) => Promise<CdpTransport>;
  readonly #reconnect: ReconnectController;
  readonly #watchdogs: readonly AnyWatchdog[];
  readonly #attached = new Map<AnyWatchdog, () => void>();
  #config: TabpilotConfig;
  #state: ConnectionState = 'idle';
  #endpoint: string | undefined;
  #connection: CdpConnection | undefined;
  #announcedFocus: string | undefined;
  /** Where no endpoint was given the session launches its browser, and launches a new one after a stop. */
  readonly #launchesBrowser: boolean;
  #focusCheckQueued = false;
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

  constructor(options: BrowserSessionOptions) {
    this.#config = options.config;
    this.#openTransport = options.openTransport;
    this.#endpoint = options.endpoint;
    this.#launchesBrowser = options.endpoint === undefined;
    this.host = options.host;
    this.log = options.logger ?? silentLogger;
    this.bus = new EventBus({
      name: options.name ?? 'BrowserSession',
      timeouts: withStartDeadline(options.config.timeouts, options.config.connect.timeout_ms),
      history: historyLimits(options.config.history),
      logger: this.log.child('bus'),
    });
    this.targets = new SessionManager({ logger: this.log.child('cdp') });
    this.dom = new DomService(this.targets, this.log.child('dom'));
    this.#reconnect = new ReconnectController(
      () => this.#reconnectPolicy(),
      {
        reopen: async (signal) => {
          this.#lastOpenReplaced = await this.#open(this.#requireEndpoint(), signal);
        },
        isAlive: () => this.#connection !== undefined && !this.#connection.closed,
        onAttempt: (attempt, maxAttempts) => {
          this.bus.emit(
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
            this.bus.emit(
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
          this.reportError('ReconnectionFailed', error);
        },
      },
      this.log.child('reconnect'),
    );
    this.bus.use(
      circuitBreaker({
        connectionState: () => this.#state,
        waitForReconnect: (timeoutMs) => this.#reconnect.waitForOutcome(timeoutMs),
        reconnectWaitMs: () => this.#config.reconnect.wait_ms,
        lostReason: () => (this.#lost === undefined ? undefined : `${this.#lost.reason}; ${this.#lost.advice}`),
      }),
    );
    this.bus.use(
      tabGate({
        conditions: this.conditions,
        focusedTargetId: () => this.targets.focusedTargetId,
        timeoutFor: (definition) => this.bus.timeoutFor(definition),
      }),
    );
    this.targets.observe((event) => this.#onManagerEvent(event));
    this.targets.addSessionSetup(async (session, target) => {
      const viewport = this.#config.viewport;
      if (viewport !== null && target.type === 'page') {
        await session.send('Emulation.setDeviceMetricsOverride', {
          width: viewport.width,
          height: viewport.height,
          deviceScaleFactor: 1,
          mobile: false,
        });
      }
    });
    registerLifecycleHandlers(this);
    this.#watchdogs = options.watchdogs ?? [];
    this.#syncWatchdogs();
  }

  // ---- the view watchdogs see -----------------------------------------------------------------

  get config(): TabpilotConfig {
    return this.#config;
  }

  get connectionState(): ConnectionState {
    return this.#state;
  }

  /** Commands sent during a reconnect that wait for the browser to come back. */
  get waitingForReconnect(): number {
    return this.#reconnect.waiting;
  }

  get endpoint(): string | undefined {
    return this.#endpoint;
  }

  tabIdOf(targetId: string): string {
    return this.tabIds.idFor(targetId);
  }

  targetOfTab(tabId: string): string | undefined {
    return this.tabIds.targetFor(tabId);
  }

  recentEvents(limit: number): EventRecordView[] {
    return this.bus.history(limit);
  }

  timeoutFor(definition: AnyEventDefinition): number {
    return this.bus.timeoutFor(definition);
  }

  /**
   * The one tab preamble of every action: a protocol tab_id to its target, or the focused tab when
   * none is given.
   */
  async resolveTab(tabId: string | undefined): Promise<string> {
    // A command sent during a reconnect means the tab as it is once the browser is back.
    if (this.#state === 'reconnecting') {
      await this.#reconnect.waitForOutcome(this.#config.reconnect.wait_ms);
    }
    if (tabId === undefined) {
      return this.focusedTargetId();
    }
    const targetId = this.tabIds.targetFor(tabId);
    if (targetId === undefined) {
      throw new TabpilotError('TAB_NOT_FOUND', `No tab with tab_id ${tabId} (list them with "tabs")`, {
        details: { tab_id: tabId },
      });
    }
    // A tab keeps its id after it closed or was released; the page is gone from the targets then (a state
    // of it would come back empty instead of failing). During a reconnect the targets are being restored:
    // the command waits for that.
    if (this.#state === 'connected' && this.targets.target(targetId) === undefined) {
      throw new TabpilotError(
        'TAB_NOT_FOUND',
        `Tab ${tabId} is not controlled: it closed or was released (list the tabs with "tabs", attach it again with "attach")`,
        { details: { tab_id: tabId } },
      );
    }
    return targetId;
  }

  // ---- commands -------------------------------------------------------------------------------

  /** Starts (or joins) the connection: BrowserStartEvent, launching a browser when there is no endpoint. */
  async start(): Promise<{ cdp_url: string }> {
    // The endpoint stays out of the event (its URL may carry a pool's token): the handler reads it here.
    const result = await this.bus.emit(BrowserStartEvent, { cdp_url: null }, { source: 'session' });
    if (result === undefined) {
      throw new TabpilotError('INTERNAL', 'BrowserStartEvent returned nothing');
    }
    return result;
  }

  /** Stops at once: cancels whatever runs or waits, detaches, and (Node) kills a browser it launched. */
  async stop(): Promise<void> {
    // The storage state the config names is saved while the browser is still there to read it from.
    if (this.#config.storage_state !== null && this.#state === 'connected' && this.targets.pages().length > 0) {
      try {
        await this.bus.emit(SaveStorageStateEvent, { path: null }, { source: 'session' });
      } catch (error) {
        this.log.warn('saving the storage state on stop failed', { error: errorMessageOf(error) });
      }
    }
    await this.bus.emit(BrowserStopEvent, { force: true }, { source: 'session', preempt: true });
  }

  /**
   * Applies a new config at once: timeouts, CDP timeout for new connections, viewport for new tabs; and
   * announces it (ConfigChangedEvent), so it resolves once every watchdog has acted on it (the URL
   * policy holds in every controlled tab, permissions are granted).
   */
  async applyConfig(config: TabpilotConfig): Promise<void> {
    const previous = this.#config;
    this.#config = config;
    this.bus.setTimeouts(withStartDeadline(config.timeouts, config.connect.timeout_ms));
    this.bus.setHistoryLimits(historyLimits(config.history));
    this.#syncWatchdogs();
    await announceConfigChange(this.bus, previous, config);
  }

  /** Detaches every watchdog (their signals abort). */
  dispose(): void {
    for (const detach of this.#attached.values()) {
      detach();
    }
    this.#attached.clear();
  }

  /** Attaches the watchdogs the config enables and detaches those it no longer does. */
  #syncWatchdogs(): void {
    for (const watchdog of this.#watchdogs) {
      const wanted = watchdog.enabled?.(this.#config) ?? true;
      const detach = this.#attached.get(watchdog);
      if (wanted && detach === undefined) {
        this.#attached.set(watchdog, attachWatchdog(this.bus, this, watchdog, this.log));
      } else if (!wanted && detach !== undefined) {
        detach();
        this.#attached.delete(watchdog);
      }
    }
  }

  // ---- connection (used by the lifecycle handlers) ---------------------------------------------

  set endpoint(endpoint: string | undefined) {
    this.#endpoint = endpoint;
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
    const { timeout_ms, backoff_ms } = this.#config.connect;
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
            this.log.warn('no browser yet; trying again', {
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
    this.targets.stop(reason);
    const connection = this.#connection;
    this.#connection = undefined;
    connection?.close(reason);
  }

  setStateBeforeStart(state: 'idle' | 'connecting'): void {
    this.#state = state;
  }

  /** Records an error that has no awaiting caller, so history and the timeline show it. */
  reportError(errorType: string, error: unknown, details: Record<string, unknown> = {}): void {
    this.bus.emit(
      BrowserErrorEvent,
      { error_type: errorType, message: errorMessageOf(error), details },
      { source: 'session' },
    );
  }

  claimFocusChange(): { target_id: string | null; url: string } | undefined {
    const focus = this.targets.focusedTargetId;
    if (focus === this.#announcedFocus) {
      return undefined;
    }
    this.#announcedFocus = focus;
    return { target_id: focus ?? null, url: focus === undefined ? '' : (this.targets.target(focus)?.url ?? '') };
  }

  /** The focused page, after any focus recovery; NOT_ATTACHED when there is none. */
  async focusedTargetId(): Promise<string> {
    await this.targets.settled();
    const focus = this.targets.focusedTargetId;
    if (focus === undefined) {
      throw new TabpilotError('NOT_ATTACHED', 'No tab is attached: attach a tab first');
    }
    return focus;
  }

  /**
   * One attempt: opens a transport, learns which browser answered, and takes over its targets. Refuses
   * the endpoint of a single page. Returns whether this is another browser than the one the session lost
   * (then announced as BrowserReplacedEvent). Whatever it opened is closed if it fails or is aborted.
   */
  async #open(endpoint: string, signal: AbortSignal): Promise<boolean> {
    const transport = await this.#openTransport(endpoint, { signal });
    const connection = new CdpConnection(transport, {
      timeoutMs: this.#config.cdp_timeout_ms,
      logger: this.log.child('connection'),
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
        known: this.targets.targets(),
        endpoint,
        reason: this.#lost?.reason ?? 'connection lost',
      });
      if (signal.aborted) {
        throw abortReason(signal);
      }
      this.#connection = connection;
      connection.onClose((reason) => this.#onConnectionClosed(connection, reason));
      await this.targets.start(connection);
      if (signal.aborted) {
        throw abortReason(signal);
      }
      if (connection.closed) {
        throw new CdpConnectionClosedError(connection.closedReason ?? 'closed while setting up');
      }
      this.#browser = identity ?? this.#browser;
      if (replaced !== undefined) {
        this.log.warn('the browser was replaced: its tabs are gone', { lost: replaced.lost_target_ids.length });
        this.bus.emit(BrowserReplacedEvent, replaced, { source: 'session' });
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
    this.log.warn('browser connection lost', { reason });
    if (!connection.capabilities.reconnect) {
      this.#state = 'disconnected';
      this.#lost = {
        reason,
        // Over chrome.debugger there is nothing to reopen; a real endpoint that cannot be reopened is a pool's.
        advice: connection.capabilities.browserDomain
          ? 'this endpoint gives a new browser per connection (a pool), so there is no way back to the browser that had the tabs: send attach to get a new browser'
          : 'send attach to connect again',
      };
      this.reportError('ConnectionLost', new TabpilotError('DISCONNECTED', `${reason}; ${this.#lost.advice}`), {
        browser_per_connection: true,
      });
      return;
    }
    if (this.#config.reconnect.max_attempts === 0) {
      this.#state = 'disconnected';
      this.#lost = { reason, advice: 'reconnect is off (reconnect.max_attempts is 0): send attach to connect again' };
      this.reportError('ConnectionLost', new TabpilotError('DISCONNECTED', `${reason}; ${this.#lost.advice}`));
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
    const { max_attempts, backoff_ms, attempt_timeout_ms } = this.#config.reconnect;
    return { maxAttempts: max_attempts, backoffMs: backoff_ms, attemptTimeoutMs: attempt_timeout_ms };
  }

  #onManagerEvent(event: SessionManagerEvent): void {
    switch (event.type) {
      case 'targetAdded':
        this.tabIds.idFor(event.target.targetId);
        if (!event.restored) {
          this.bus.emit(
            TabCreatedEvent,
            {
              target_id: event.target.targetId,
              url: event.target.url,
              opener_target_id: event.target.openerId ?? null,
            },
            { source: 'browser' },
          );
        }
        break;
      case 'targetRemoved':
        this.bus.emit(TabClosedEvent, { target_id: event.target.targetId }, { source: 'browser' });
        break;
      case 'targetCrashed':
        this.bus.emit(
          TargetCrashedEvent,
          { target_id: event.target.targetId, error: 'renderer crashed' },
          { source: 'browser' },
        );
        break;
      case 'focusChanged':
        this.#queueFocusAnnouncement();
        break;
      case 'targetChanged':
      case 'childAttached':
        break;
    }
  }

  /**
   * Focus changes that no handler announced (recovery after a close, a reconnect) are announced at the
   * root, once, after the current synchronous work (a handler claims its own change first).
   */
  #queueFocusAnnouncement(): void {
    if (this.#focusCheckQueued) {
      return;
    }
    this.#focusCheckQueued = true;
    queueMicrotask(() => {
      this.#focusCheckQueued = false;
      const change = this.claimFocusChange();
      if (change !== undefined) {
        this.bus.emit(AgentFocusChangedEvent, change, { source: 'browser' });
      }
    });
  }
}
