import { EventBus, type HandlerContext } from '../bus/event-bus';
import type { EventRecordView } from '../bus/event-record';
import { CdpConnection } from '../cdp/connection';
import { ReconnectController, type ReconnectPolicy } from '../cdp/reconnect';
import { SessionManager, type SessionManagerEvent } from '../cdp/session-manager';
import { DomService } from '../dom/dom-service';
import type { CdpTransport } from '../cdp/transport';
import { TabpilotError, errorMessageOf } from '../shared/errors';
import type { Logger } from '../shared/logger';
import { silentLogger } from '../shared/logger';
import { DownloadedFiles } from './artifacts/downloaded-files';
import { circuitBreaker } from './circuit-breaker';
import { changedFields, type TabpilotConfig } from './config';
import { SaveStorageStateEvent } from './events/artifacts.events';
import { ConfigChangedEvent } from './events/config.events';
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
import { registerNavigationHandlers } from './session/navigation.handlers';
import { registerTabHandlers } from './session/tab.handlers';
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
  readonly downloads = new DownloadedFiles();
  readonly #openTransport: (endpoint: string) => Promise<CdpTransport>;
  readonly #reconnect: ReconnectController;
  readonly #detachers: Array<() => void> = [];
  #config: TabpilotConfig;
  #state: ConnectionState = 'idle';
  #endpoint: string | undefined;
  #connection: CdpConnection | undefined;
  #announcedFocus: string | undefined;
  #focusCheckQueued = false;

  constructor(options: BrowserSessionOptions) {
    this.#config = options.config;
    this.#openTransport = options.openTransport;
    this.#endpoint = options.endpoint;
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
        reopen: async () => this.#open(this.#requireEndpoint()),
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
    registerNavigationHandlers(this);
    registerTabHandlers(this);
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

  recentEvents(limit: number): EventRecordView[] {
    return this.bus.history().slice(-limit);
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

  async stop(): Promise<void> {
    // The storage state the config names is saved while the browser is still there to read it from.
    if (this.#config.storage_state !== null && this.#state === 'connected' && this.targets.pages().length > 0) {
      try {
        await this.bus.emit(SaveStorageStateEvent, { path: null }, { source: 'session' });
      } catch (error) {
        this.log.warn('saving the storage state on stop failed', { error: errorMessageOf(error) });
      }
    }
    await this.bus.emit(BrowserStopEvent, { force: true }, { source: 'session' });
  }

  /**
   * Applies a new config at once: timeouts, CDP timeout for new connections, viewport for new tabs; the
   * changed fields are announced (ConfigChangedEvent) for watchdogs a field turns on or off.
   */
  applyConfig(config: TabpilotConfig): void {
    const previous = this.#config;
    this.#config = config;
    this.bus.setTimeouts(config.timeouts);
    const fields = changedFields(previous, config);
    if (fields.length > 0) {
      this.bus.emit(ConfigChangedEvent, { fields }, { source: 'session' });
    }
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

  /** Closes the connection on purpose: no reconnect, sessions forgotten, focus cleared. */
  disconnect(reason: string): void {
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

  /**
   * Announces a focus change made by a handler as a child event it awaits (so the change is complete
   * when the handler returns); the root-level announcement for the same change is then skipped.
   */
  async announceFocus(ctx: HandlerContext): Promise<void> {
    const focus = this.targets.focusedTargetId;
    if (focus === this.#announcedFocus) {
      return;
    }
    this.#announcedFocus = focus;
    const url = focus === undefined ? '' : (this.targets.target(focus)?.url ?? '');
    await ctx.emit(AgentFocusChangedEvent, { target_id: focus ?? null, url });
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

  async #open(endpoint: string): Promise<void> {
    const transport = await this.#openTransport(endpoint);
    const connection = new CdpConnection(transport, {
      timeoutMs: this.#config.cdp_timeout_ms,
      logger: this.log.child('connection'),
    });
    this.#connection = connection;
    connection.onClose((reason) => this.#onConnectionClosed(connection, reason));
    await this.targets.start(connection);
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
      const focus = this.targets.focusedTargetId;
      if (focus === this.#announcedFocus) {
        return;
      }
      this.#announcedFocus = focus;
      const url = focus === undefined ? '' : (this.targets.target(focus)?.url ?? '');
      this.bus.emit(AgentFocusChangedEvent, { target_id: focus ?? null, url }, { source: 'browser' });
    });
  }
}
