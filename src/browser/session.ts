import type { AnyEventDefinition } from '../bus/define-event';
import { EventBus } from '../bus/event-bus';
import type { EventRecordView } from '../bus/event-record';
import { CdpConnection } from '../cdp/connection';
import { ReconnectController, type ReconnectPolicy } from '../cdp/reconnect';
import { SessionManager, type SessionManagerEvent } from '../cdp/session-manager';
import { DomService } from '../dom/dom-service';
import type { CdpTransport } from '../cdp/transport';
import { TabpilotError, errorMessageOf } from '../shared/errors';
import type { Logger } from '../shared/logger';
import { silentLogger } from '../shared/logger';
import { circuitBreaker } from './circuit-breaker';
import type { TabpilotConfig } from './config';
import { attachWatchdog, type AnyWatchdog } from './define-watchdog';
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
import type { BrowserSessionView, ConnectionState } from './session-view';
import { TabIds } from './tab-ids';

export interface BrowserSessionOptions {
  config: TabpilotConfig;
  /** Opens a transport to the browser at `endpoint` (a ws:// URL in Node; ignored by the extension). */
  openTransport: (endpoint: string) => Promise<CdpTransport>;
  /** Where the browser is. Undefined: BrowserStartEvent launches one through BrowserLaunchEvent. */
  endpoint?: string;
  host: BrowserHost;
  logger?: Logger;
  /** The entry's explicit watchdog list, attached in order after the session's own handlers. */
  watchdogs?: readonly AnyWatchdog[];
  name?: string;
}

/**
 * One browser, one bus (DESIGN §4). Composes the bus, the SessionManager, the platform host and the
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
  readonly #openTransport: (endpoint: string) => Promise<CdpTransport>;
  readonly #reconnect: ReconnectController;
  readonly #detachers: Array<() => void> = [];
  #config: TabpilotConfig;
  #state: ConnectionState = 'idle';
  #endpoint: string | undefined;
  #connection: CdpConnection | undefined;
  #announcedFocus: string | undefined;
  /** Where no endpoint was given the session launches its browser, and launches a new one after a stop. */
  readonly #launchesBrowser: boolean;
  #focusCheckQueued = false;

  constructor(options: BrowserSessionOptions) {
    this.#config = options.config;
    this.#openTransport = options.openTransport;
    this.#endpoint = options.endpoint;
    this.#launchesBrowser = options.endpoint === undefined;
    this.host = options.host;
    this.log = options.logger ?? silentLogger;
    this.bus = new EventBus({
      name: options.name ?? 'BrowserSession',
      timeouts: options.config.timeouts,
      logger: this.log.child('bus'),
    });
    this.targets = new SessionManager({ logger: this.log.child('cdp') });
    this.dom = new DomService(this.targets, this.log.child('dom'));
    this.#reconnect = new ReconnectController(
      () => this.#reconnectPolicy(),
      {
        reopen: async (signal) => {
          const connection = await this.#open(this.#requireEndpoint());
          if (signal.aborted) {
            // A stop came while this attempt connected: the session stays stopped.
            this.#letGo(connection, 'stopped during a reconnect');
          }
        },
        isAlive: () => this.#connection !== undefined && !this.#connection.closed,
        onAttempt: (attempt, maxAttempts) => {
          this.bus.emit(
            BrowserReconnectingEvent,
            { cdp_url: this.#endpoint ?? '', attempt, max_attempts: maxAttempts },
            { source: 'session' },
          );
        },
        onSuccess: (attempt, downtimeMs) => {
          this.#state = 'connected';
          this.bus.emit(
            BrowserReconnectedEvent,
            { cdp_url: this.#endpoint ?? '', attempt, downtime_seconds: downtimeMs / 1000 },
            { source: 'session' },
          );
        },
        onGiveUp: (error) => {
          if (this.#state === 'reconnecting') {
            this.#state = 'disconnected';
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
    for (const watchdog of options.watchdogs ?? []) {
      this.#detachers.push(attachWatchdog(this.bus, this, watchdog, this.log));
    }
  }

  // ---- the view watchdogs see -----------------------------------------------------------------

  get config(): TabpilotConfig {
    return this.#config;
  }

  get connectionState(): ConnectionState {
    return this.#state;
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
    return this.bus.history().slice(-limit);
  }

  timeoutFor(definition: AnyEventDefinition): number {
    return this.bus.timeoutFor(definition);
  }

  /**
   * The one tab preamble of every action: a protocol tab_id to its target, or the focused tab when
   * none is given.
   */
  async resolveTab(tabId: string | undefined): Promise<string> {
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
    const result = await this.bus.emit(BrowserStartEvent, { cdp_url: this.#endpoint ?? null }, { source: 'session' });
    if (result === undefined) {
      throw new TabpilotError('INTERNAL', 'BrowserStartEvent returned nothing');
    }
    return result;
  }

  /** Stops at once: cancels whatever runs or waits, detaches, and (Node) kills a browser it launched. */
  async stop(): Promise<void> {
    await this.bus.emit(BrowserStopEvent, { force: true }, { source: 'session', preempt: true });
  }

  /** Applies a new config at once: timeouts, CDP timeout for new connections, viewport for new tabs. */
  applyConfig(config: TabpilotConfig): void {
    this.#config = config;
    this.bus.setTimeouts(config.timeouts);
  }

  /** Detaches every watchdog (their signals abort). */
  dispose(): void {
    for (const detach of this.#detachers.splice(0)) {
      detach();
    }
  }

  // ---- connection (used by the lifecycle handlers) ---------------------------------------------

  set endpoint(endpoint: string | undefined) {
    this.#endpoint = endpoint;
  }

  /** Opens a transport to `endpoint` and takes over the browser's targets. */
  async connect(endpoint: string): Promise<void> {
    this.#endpoint = endpoint;
    this.#state = 'connecting';
    try {
      await this.#open(endpoint);
      this.#state = 'connected';
    } catch (error) {
      this.#state = 'disconnected';
      throw error;
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

  async #open(endpoint: string): Promise<CdpConnection> {
    const transport = await this.#openTransport(endpoint);
    const connection = new CdpConnection(transport, {
      timeoutMs: this.#config.cdp_timeout_ms,
      logger: this.log.child('connection'),
    });
    this.#connection = connection;
    connection.onClose((reason) => this.#onConnectionClosed(connection, reason));
    await this.targets.start(connection);
    return connection;
  }

  /** Closes a connection that is no longer wanted; when it is the session's, the targets go with it. */
  #letGo(connection: CdpConnection, reason: string): void {
    if (this.#connection === connection) {
      this.targets.stop(reason);
      this.#connection = undefined;
    }
    connection.close(reason);
  }

  #onConnectionClosed(connection: CdpConnection, reason: string): void {
    if (connection !== this.#connection || this.#state === 'stopped') {
      return;
    }
    this.log.warn('browser connection lost', { reason });
    if (!connection.capabilities.reconnect || this.#config.reconnect.max_attempts === 0) {
      this.#state = 'disconnected';
      this.reportError('ConnectionLost', new TabpilotError('DISCONNECTED', reason));
      return;
    }
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
