import { defaultConfig, parseConfig, type TabpilotConfig } from '../../../src/agent/tabpilot-config';
import type { BrowserSession } from '../../../src/browser/session';
import type { LaunchedBrowser } from '../../../src/browser/launcher';
import type { CdpSession } from '../../../src/cdp/session';
import { composeNodeSession } from '../../../src/entries/node/compose';
import type { CommandResponse, EventMessage, RequestEnvelope, ServerMessage } from '../../../src/protocol/commands';
import { NavigationStartedEvent } from '../../../src/protocol/events/navigation.events';
import { TabpilotError } from '../../../src/shared/errors';
import { pollUntil } from '../../../src/shared/time';
import type { ClientConnection } from '../../../src/tools/command-server';
import { BrowserClient, EXTENSION_ID, evaluate, launchTestBrowser, PANEL_URL, TEST_FLAGS } from './browser';
import { FOLLOW_CONTEXTS_IN_WORKER, followContexts, type ContextFollower } from './contexts';

/**
 * One face for the contract suite over both transports: send protocol commands, read subscribed events,
 * open a controlled tab, and look into tabpilot's own session (child sessions) the way a developer would
 * from the worker's console.
 */
export interface Driver {
  readonly kind: 'node' | 'extension';
  /** One request; `envelope` adds the request's own fields (`outcome`). */
  send(action: string, params?: Record<string, unknown>, envelope?: RequestEnvelope): Promise<CommandResponse>;
  /** Sends and returns the result, failing the test on an error response. */
  ok<T = Record<string, unknown>>(action: string, params?: Record<string, unknown>): Promise<T>;
  /** Every event message received since the last call. */
  takeEvents(): Promise<EventMessage[]>;
  /** A new tab under control showing `url`; returns its tab_id. */
  openTab(url: string): Promise<string>;
  /** Evaluates in the child (OOPIF) sessions of a tab, through tabpilot's SessionManager. */
  evaluateInChildren(tabId: string, expression: string): Promise<Array<{ type: string; url: string; value: unknown }>>;
  /** Page targets in the whole browser, controlled or not (the browser-level view). */
  browserPageCount(): Promise<number>;
  /** A trusted mouse click on an element, through tabpilot's own session of that tab. */
  clickInTab(tabId: string, selector: string): Promise<void>;
  /** Evaluates in a tab's page through tabpilot's own session (the test adds no client of its own). */
  evaluateInTab<T = unknown>(tabId: string, expression: string): Promise<T>;
  /** Applies config fields as the panel's settings would (BrowserSession.applyConfig). */
  setConfig(fields: Record<string, unknown>): Promise<void>;
  /** The types of the bus events running now (started, not complete), as the session's history has them. */
  runningEvents(): Promise<string[]>;
  /** Crashes a tab's renderer (CDP Page.crash through tabpilot's own session; it never answers). */
  crashTab(tabId: string): Promise<void>;
  /**
   * Installs a navigation policy the way an integrator would: a NavigationStartedEvent handler that
   * refuses (URL_BLOCKED) every URL containing `urlPart`. Returns what removes it.
   */
  refuseNavigations(urlPart: string): Promise<() => Promise<void>>;
  /** Follows the execution contexts tabpilot's own sessions report from now on (see ./contexts.ts). */
  followContexts(): Promise<ContextFollower>;
  close(): Promise<void>;
}

const POLICY_HANDLER = 'e2e.refuse_navigations';

let requestId = 0;

/**
 * The element's centre, measured once the page has rendered a frame: input dispatched to a page that has
 * not rendered since its navigation can miss its target. A hidden tab renders no frames, so it waits 100 ms at most.
 */
function centerExpression(selector: string): string {
  return `new Promise((rendered) => { requestAnimationFrame(() => setTimeout(rendered)); setTimeout(rendered, 100); }).then(() => { const r = document.querySelector(${JSON.stringify(selector)}).getBoundingClientRect(); return { x: r.x + r.width / 2, y: r.y + r.height / 2 }; })`;
}

/** A trusted click as a mouse makes it: over the point first (no button held), then the press and the release. */
const CLICK_STEPS = [
  { type: 'mouseMoved', button: 'none' },
  { type: 'mousePressed', button: 'left' },
  { type: 'mouseReleased', button: 'left' },
] as const;

async function clickWith(session: CdpSession, selector: string): Promise<void> {
  const { result } = await session.send('Runtime.evaluate', {
    expression: centerExpression(selector),
    returnByValue: true,
    awaitPromise: true,
  });
  const { x, y } = result.value as { x: number; y: number };
  for (const step of CLICK_STEPS) {
    await session.send('Input.dispatchMouseEvent', { ...step, x, y, clickCount: 1 });
  }
}

async function okOf<T>(driver: Driver, action: string, params: Record<string, unknown> | undefined): Promise<T> {
  const response = await driver.send(action, params);
  if (!response.ok) {
    throw new Error(`${action} failed: ${response.error.code}: ${response.error.message}`);
  }
  return response.result as T;
}

/** The Node transport: tabpilot launches its own Chromium and speaks CDP over a WebSocket. */
export class NodeDriver implements Driver {
  readonly kind = 'node' as const;
  readonly session: BrowserSession;
  readonly #client: ClientConnection;
  readonly #events: EventMessage[] = [];

  private constructor(session: BrowserSession, client: ClientConnection, events: EventMessage[]) {
    this.session = session;
    this.#client = client;
    this.#events = events;
  }

  /** `args`: more Chromium flags for the launched browser (host-resolver rules, say). */
  static async start(
    options: { cdpUrl?: string; config?: Partial<TabpilotConfig>; args?: readonly string[] } = {},
  ): Promise<NodeDriver> {
    const base = defaultConfig();
    const config: TabpilotConfig = {
      ...base,
      ...options.config,
      launch: { ...base.launch, headless: true, args: [...TEST_FLAGS, ...(options.args ?? [])] },
    };
    const { session, server } = composeNodeSession({
      config,
      ...(options.cdpUrl === undefined ? {} : { cdpUrl: options.cdpUrl }),
    });
    const events: EventMessage[] = [];
    const client = server.connect(
      { id: 'e2e', kind: 'test' },
      { send: (message: ServerMessage) => 'event' in message && events.push(message) },
    );
    await session.start();
    return new NodeDriver(session, client, events);
  }

  send(action: string, params: Record<string, unknown> = {}, envelope: RequestEnvelope = {}): Promise<CommandResponse> {
    return this.#client.handle({ id: ++requestId, action, params, ...envelope });
  }

  ok<T = Record<string, unknown>>(action: string, params?: Record<string, unknown>): Promise<T> {
    return okOf<T>(this, action, params);
  }

  async takeEvents(): Promise<EventMessage[]> {
    return this.#events.splice(0);
  }

  async openTab(url: string): Promise<string> {
    const result = await this.ok<{ tab_id: string }>('navigate', { url, new_tab: true });
    return result.tab_id;
  }

  async evaluateInChildren(
    tabId: string,
    expression: string,
  ): Promise<Array<{ type: string; url: string; value: unknown }>> {
    const targetId = this.session.tabIds.targetFor(tabId) ?? '';
    const out: Array<{ type: string; url: string; value: unknown }> = [];
    for (const child of this.session.targets.childrenOf(targetId)) {
      const session = this.session.targets.sessionFor(child.targetId);
      if (session === undefined) {
        continue;
      }
      const result = await session.send('Runtime.evaluate', { expression, returnByValue: true });
      out.push({ type: child.type, url: child.url, value: result.result.value });
    }
    return out;
  }

  async browserPageCount(): Promise<number> {
    return (await this.session.targets.root.send('Target.getTargets')).targetInfos.filter(
      (target) => target.type === 'page',
    ).length;
  }

  async clickInTab(tabId: string, selector: string): Promise<void> {
    const session = this.session.targets.requireSession(this.session.tabIds.targetFor(tabId) ?? '');
    await clickWith(session, selector);
  }

  async evaluateInTab<T = unknown>(tabId: string, expression: string): Promise<T> {
    return evaluate<T>(this.session.targets.requireSession(this.session.tabIds.targetFor(tabId) ?? ''), expression);
  }

  async setConfig(fields: Record<string, unknown>): Promise<void> {
    await this.session.applyConfig(parseConfig({ ...this.session.config, ...fields }));
  }

  async runningEvents(): Promise<string[]> {
    return this.session.bus
      .history()
      .filter((view) => view.status === 'started')
      .map((view) => view.type);
  }

  async crashTab(tabId: string): Promise<void> {
    const session = this.session.targets.requireSession(this.session.tabIds.targetFor(tabId) ?? '');
    // A crashed renderer never answers Page.crash: the outcome is the crash itself.
    void session.send('Page.crash').catch(() => undefined);
  }

  async refuseNavigations(urlPart: string): Promise<() => Promise<void>> {
    const remove = this.session.bus.on(
      NavigationStartedEvent,
      (event) => {
        if (event.payload.url.includes(urlPart)) {
          throw new TabpilotError('URL_BLOCKED', `${event.payload.url} is refused by the test's navigation policy`);
        }
      },
      { name: POLICY_HANDLER },
    );
    return async () => {
      remove();
    };
  }

  async followContexts(): Promise<ContextFollower> {
    return followContexts(this.session.targets);
  }

  async close(): Promise<void> {
    this.#client.close();
    await this.session.stop();
    // Its watchdogs' timers would keep a process that drove it (a benchmark) from exiting.
    this.session.dispose();
  }
}

/**
 * The extension transport: Chromium with the built extension; the test drives the worker's own
 * CommandServer by evaluating in the worker, so the test pages have chrome.debugger as their only client.
 */
export class ExtensionDriver implements Driver {
  readonly kind = 'extension' as const;
  readonly browser: LaunchedBrowser;
  readonly client: BrowserClient;
  #worker: CdpSession;

  private constructor(browser: LaunchedBrowser, client: BrowserClient, worker: CdpSession) {
    this.browser = browser;
    this.client = client;
    this.#worker = worker;
  }

  /** `options`: what else the test browser needs (a headed window with the infobar, other extensions). */
  static async start(
    options: Omit<Parameters<typeof launchTestBrowser>[0], 'extension'> = {},
  ): Promise<ExtensionDriver> {
    const browser = await launchTestBrowser({ ...options, extension: true });
    const client = await BrowserClient.connect(browser.cdpUrl);
    const worker = await client.serviceWorker();
    const driver = new ExtensionDriver(browser, client, worker);
    await driver.#installTestClient();
    return driver;
  }

  get worker(): CdpSession {
    return this.#worker;
  }

  /** Runs JavaScript in the worker (where `tabpilot` is the composition root's handle). */
  inWorker<T = unknown>(expression: string): Promise<T> {
    return evaluate<T>(this.#worker, expression);
  }

  async send(
    action: string,
    params: Record<string, unknown> = {},
    envelope: RequestEnvelope = {},
  ): Promise<CommandResponse> {
    const request = JSON.stringify({ id: ++requestId, action, params, ...envelope });
    return this.inWorker<CommandResponse>(`globalThis.__e2e.client.handle(${request})`);
  }

  ok<T = Record<string, unknown>>(action: string, params?: Record<string, unknown>): Promise<T> {
    return okOf<T>(this, action, params);
  }

  async takeEvents(): Promise<EventMessage[]> {
    return this.inWorker<EventMessage[]>('globalThis.__e2e.events.splice(0)');
  }

  /** Opens a tab from the browser level (as a person would) and attaches it through the protocol. */
  async openTab(url: string): Promise<string> {
    const targetId = await this.client.createTab(url);
    const tabId = targetId.slice(-4);
    await pollUntil(
      async () => {
        const listing = await this.ok<{ tabs: Array<{ tab_id: string; url: string }> }>('tabs', { all: true });
        return listing.tabs.some((tab) => targetId.toLowerCase().endsWith(tab.tab_id.toLowerCase())) ? true : undefined;
      },
      {
        timeoutMs: 10_000,
        intervalMs: 100,
        onTimeout: () => new Error(`tab ${targetId} never appeared in tabs {all: true}`),
      },
    );
    const attached = await this.ok<{ tab_id: string }>('attach', { tab_id: tabId });
    // As Node's navigate does, the tab is answered once its page has loaded: a page read before then
    // found no script of it (the emulation contract's report() under a loaded CI run).
    await pollUntil(
      async () =>
        (await this.evaluateInTab<boolean>(
          attached.tab_id,
          url === 'about:blank'
            ? "document.readyState === 'complete'"
            : "document.readyState === 'complete' && location.href !== 'about:blank'",
        ))
          ? true
          : undefined,
      { timeoutMs: 15_000, intervalMs: 50, onTimeout: () => new Error(`tab ${attached.tab_id} never loaded ${url}`) },
    );
    return attached.tab_id;
  }

  async evaluateInChildren(
    tabId: string,
    expression: string,
  ): Promise<Array<{ type: string; url: string; value: unknown }>> {
    return this.inWorker(`(async () => {
      const session = globalThis.tabpilot.session;
      const targetId = session.tabIds.targetFor(${JSON.stringify(tabId)});
      const out = [];
      for (const child of session.targets.childrenOf(targetId)) {
        const childSession = session.targets.sessionFor(child.targetId);
        if (childSession === undefined) continue;
        const result = await childSession.send('Runtime.evaluate', { expression: ${JSON.stringify(expression)}, returnByValue: true });
        out.push({ type: child.type, url: child.url, value: result.result.value });
      }
      return out;
    })()`);
  }

  async clickInTab(tabId: string, selector: string): Promise<void> {
    await this.inWorker(`(async () => {
      const session = globalThis.tabpilot.session;
      const cdp = session.targets.requireSession(session.tabIds.targetFor(${JSON.stringify(tabId)}));
      const { result } = await cdp.send('Runtime.evaluate', { expression: ${JSON.stringify(centerExpression(selector))}, returnByValue: true, awaitPromise: true });
      for (const step of ${JSON.stringify(CLICK_STEPS)}) {
        await cdp.send('Input.dispatchMouseEvent', { ...step, x: result.value.x, y: result.value.y, clickCount: 1 });
      }
    })()`);
  }

  async evaluateInTab<T = unknown>(tabId: string, expression: string): Promise<T> {
    return this.inWorker<T>(`(async () => {
      const session = globalThis.tabpilot.session;
      const cdp = session.targets.requireSession(session.tabIds.targetFor(${JSON.stringify(tabId)}));
      const response = await cdp.send('Runtime.evaluate', { expression: ${JSON.stringify(expression)}, returnByValue: true, awaitPromise: true });
      if (response.exceptionDetails) throw new Error(response.exceptionDetails.text);
      return response.result.value;
    })()`);
  }

  async followContexts(): Promise<ContextFollower> {
    await this.inWorker(FOLLOW_CONTEXTS_IN_WORKER);
    return {
      live: () => this.inWorker('globalThis.__e2eContexts.live()'),
      stop: async () => {
        await this.inWorker('globalThis.__e2eContexts.stop()');
      },
    };
  }

  async setConfig(fields: Record<string, unknown>): Promise<void> {
    await this.inWorker(`(async () => {
      const session = globalThis.tabpilot.session;
      await session.applyConfig({ ...session.config, ...${JSON.stringify(fields)} });
      return true;
    })()`);
  }

  async runningEvents(): Promise<string[]> {
    return this.inWorker<string[]>(
      `globalThis.tabpilot.session.bus.history().filter((view) => view.status === 'started').map((view) => view.type)`,
    );
  }

  async crashTab(tabId: string): Promise<void> {
    await this.inWorker(`(() => {
      const session = globalThis.tabpilot.session;
      const cdp = session.targets.requireSession(session.tabIds.targetFor(${JSON.stringify(tabId)}));
      cdp.send('Page.crash').catch(() => undefined);
      return true;
    })()`);
  }

  async refuseNavigations(urlPart: string): Promise<() => Promise<void>> {
    await this.inWorker(`(() => {
      const session = globalThis.tabpilot.session;
      // The worker exports no classes: take the bundle's TabpilotError from an error it throws.
      let TabpilotError;
      try {
        session.targets.requireSession('no such target');
      } catch (error) {
        TabpilotError = error.constructor;
      }
      // The bus keys handlers by event type, so the type alone names the event here.
      globalThis.__e2eRemovePolicy = session.bus.on({ type: 'NavigationStartedEvent' }, (event) => {
        if (event.payload.url.includes(${JSON.stringify(urlPart)})) {
          throw new TabpilotError('URL_BLOCKED', event.payload.url + " is refused by the test's navigation policy");
        }
      }, { name: ${JSON.stringify(POLICY_HANDLER)} });
      return true;
    })()`);
    return async () => {
      await this.inWorker('(globalThis.__e2eRemovePolicy(), true)');
    };
  }

  /** Whether any debugger (tabpilot's chrome.debugger) is attached to the tab showing `url`. */
  async debuggerAttachedTo(url: string): Promise<boolean | undefined> {
    return this.inWorker<boolean | undefined>(
      `chrome.debugger.getTargets().then((targets) => targets.find((target) => target.url === ${JSON.stringify(url)})?.attached)`,
    );
  }

  async browserPageCount(): Promise<number> {
    return (await this.client.pageTargets()).filter(
      (target) => !target.url.startsWith(`chrome-extension://${EXTENSION_ID}/`),
    ).length;
  }

  /**
   * Stops the worker the way Chrome does when it is idle (CDP Target.closeTarget on it), then wakes it
   * with the side panel page (a port connection), re-attaches and reinstalls the test client.
   */
  async restartWorker(options: { wake?: boolean } = {}): Promise<void> {
    await this.inWorker('globalThis.__e2eOldWorker = true');
    await this.client.root.send('Target.closeTarget', { targetId: this.#worker.targetId });
    // Wake a new worker the way the panel does: an extension page connecting a port. With wake: false
    // the test relies on something of its own (an open panel reconnecting) to start it.
    const panel = options.wake === false ? undefined : await this.client.createTab(PANEL_URL);
    this.#worker = await pollUntil(
      async () => {
        const worker = await this.client.serviceWorker().catch(() => undefined);
        if (worker === undefined) {
          return undefined;
        }
        return (await evaluate(worker, 'globalThis.__e2eOldWorker === true').catch(() => true)) ? undefined : worker;
      },
      { timeoutMs: 15_000, intervalMs: 200, onTimeout: () => new Error('no new worker started') },
    );
    if (panel !== undefined) {
      await this.client.root.send('Target.closeTarget', { targetId: panel });
    }
    await this.#installTestClient();
  }

  async #installTestClient(): Promise<void> {
    await this.inWorker(`(() => {
      const events = [];
      const client = globalThis.tabpilot.server.connect({ id: 'e2e', kind: 'test' }, { send: (m) => { if ('event' in m) events.push(m); } });
      globalThis.__e2e = { events, client };
      return true;
    })()`);
  }

  async close(): Promise<void> {
    this.client.close();
    await this.browser.kill();
  }
}
