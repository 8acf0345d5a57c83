import type { AnyEventDefinition } from '../protocol/define-event';
import { EventBus } from '../bus/event-bus';
import type { EventRecordView } from '../bus/event-record';
import { SessionManager, type SessionManagerEvent } from '../cdp/session-manager';
import { DomService } from '../dom/dom-service';
import { TabpilotError, errorMessageOf } from '../shared/errors';
import type { Logger } from '../shared/logger';
import { silentLogger } from '../shared/logger';
import { DownloadedFiles } from './artifacts/downloaded-files';
import { circuitBreaker } from './circuit-breaker';
import type { BrowserConfig } from './config';
import { announceConfigChange } from './config-change';
import { historyLimits } from '../bus/history.config';
import { SaveStorageStateEvent } from '../protocol/events/artifacts.events';
import { attachWatchdog, type AnyWatchdog } from './define-watchdog';
import { withStartDeadline } from './session/connect.config';
import { BrowserErrorEvent, BrowserStartEvent, BrowserStopEvent } from '../protocol/events/lifecycle.events';
import {
  AgentFocusChangedEvent,
  TabClosedEvent,
  TabCreatedEvent,
  TargetCrashedEvent,
} from '../protocol/events/tabs.events';
import type { BrowserHost } from './host';
import { registerLifecycleHandlers } from './session/lifecycle.handlers';
import { NavigationGuard } from './security/navigation-guard';
import { TabRoutes } from './routes/tab-routes';
import { TabConditions } from './guards/tab-conditions';
import { tabGate } from './guards/tab-gate';
import { SessionConnection, type OpenTransport } from './session-connection';
import type { BrowserSessionView, ConnectionState } from './session-view';
import { TabIds } from './tab-ids';

export type { OpenTransportOptions } from './session-connection';

export interface BrowserSessionOptions<C extends BrowserConfig = BrowserConfig> {
  /**
   * The config it runs on: the browser's part, or the whole one (the agent's fields too) when the
   * composition keeps it here; the session and its watchdogs read only the browser's fields.
   */
  config: C;
  /** Opens a transport to the browser at `endpoint` (a ws:// URL in Node; ignored by the extension). */
  openTransport: OpenTransport;
  /** Where the browser is. Undefined: BrowserStartEvent launches one through BrowserLaunchEvent. */
  endpoint?: string;
  host: BrowserHost;
  logger?: Logger;
  /** The entry's explicit watchdog list, attached in order after the session's own handlers. */
  watchdogs?: readonly AnyWatchdog[];
  name?: string;
}

/**
 * One browser, one bus. Composes the bus, the SessionManager, the platform host, the watchdogs and the
 * connection (SessionConnection: connecting, reconnects, a replaced browser). Turns SessionManager
 * notifications into bus events (TabCreated, TabClosed, AgentFocusChanged, TargetCrashed), so tabs
 * opened by the page itself are announced too.
 */
export class BrowserSession<C extends BrowserConfig = BrowserConfig> implements BrowserSessionView {
  readonly bus: EventBus;
  readonly targets: SessionManager;
  readonly dom: DomService;
  readonly host: BrowserHost;
  readonly log: Logger;
  readonly tabIds = new TabIds();
  /** The URL policy in force for every road that loads a page; the security watchdog records its blocks. */
  readonly guard = new NavigationGuard(this);
  /** The routes clients set on their tabs; the route watchdog writes them, the request gate answers with them. */
  readonly routes = new TabRoutes();
  readonly downloads = new DownloadedFiles();
  readonly conditions = new TabConditions();
  readonly #connection: SessionConnection;
  readonly #watchdogs: readonly AnyWatchdog[];
  readonly #attached = new Map<AnyWatchdog, () => void>();
  #config: C;
  #announcedFocus: string | undefined;
  #focusCheckQueued = false;

  constructor(options: BrowserSessionOptions<C>) {
    this.#config = options.config;
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
    this.#connection = new SessionConnection(
      {
        bus: this.bus,
        targets: this.targets,
        log: this.log,
        config: () => this.#config,
        reportError: (errorType, error, details) => this.reportError(errorType, error, details),
      },
      options.openTransport,
      options.endpoint,
    );
    this.bus.use(
      circuitBreaker({
        connectionState: () => this.#connection.state,
        waitForReconnect: (timeoutMs) => this.#connection.waitForReconnect(timeoutMs),
        reconnectWaitMs: () => this.#config.reconnect.wait_ms,
        lostReason: () => this.#connection.lostReason,
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

  get config(): C {
    return this.#config;
  }

  get connectionState(): ConnectionState {
    return this.#connection.state;
  }

  /** Commands sent during a reconnect that wait for the browser to come back. */
  get waitingForReconnect(): number {
    return this.#connection.waitingForReconnect;
  }

  get endpoint(): string | undefined {
    return this.#connection.endpoint;
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
    if (this.#connection.state === 'reconnecting') {
      await this.#connection.waitForReconnect(this.#config.reconnect.wait_ms);
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
    if (this.#connection.state === 'connected' && this.targets.target(targetId) === undefined) {
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
    if (
      this.#config.storage_state !== null &&
      this.#connection.state === 'connected' &&
      this.targets.pages().length > 0
    ) {
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
  async applyConfig(config: C): Promise<void> {
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
    this.#connection.endpoint = endpoint;
  }

  /** Connects to `endpoint` within the connect budget (see SessionConnection.connect). */
  connect(endpoint: string, signal?: AbortSignal): Promise<void> {
    return this.#connection.connect(endpoint, signal);
  }

  /**
   * Closes the connection on purpose: no reconnect, sessions forgotten, focus cleared. `browserGone`:
   * the browser is being killed, so a session that launched it launches a new one on its next start.
   */
  disconnect(reason: string, browserGone = false): void {
    this.#connection.disconnect(reason, browserGone);
  }

  setStateBeforeStart(state: 'idle' | 'connecting'): void {
    this.#connection.setStateBeforeStart(state);
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
