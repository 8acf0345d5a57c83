import type { CdpIncoming, CdpRequest } from '../../src/protocol/cdp';
import type { CdpTransport, TransportCapabilities } from '../../src/cdp/transport';

/** A scripted CDP peer: enough of Target/Page to unit-test the connection, SessionManager and session. */
export interface FakeTarget {
  targetId: string;
  type: 'page' | 'iframe' | 'worker' | 'service_worker';
  url: string;
  title: string;
  openerId?: string;
  parentTargetId?: string;
  sessions: Set<string>;
  autoAttach: boolean;
  history: string[];
  historyIndex: number;
}

type Responder = (params: Record<string, unknown>, sessionId: string | undefined) => unknown;

export class FakeTransport implements CdpTransport {
  readonly capabilities: TransportCapabilities;
  onmessage: ((message: CdpIncoming) => void) | undefined;
  onclose: ((reason: string) => void) | undefined;
  readonly sent: CdpRequest[] = [];
  closed = false;
  #browser: FakeBrowser;

  constructor(browser: FakeBrowser, capabilities: TransportCapabilities) {
    this.#browser = browser;
    this.capabilities = capabilities;
  }

  send(message: CdpRequest): void {
    if (this.closed) {
      throw new Error('transport closed');
    }
    this.sent.push(message);
    this.#browser.receive(this, message);
  }

  close(reason = 'closed'): void {
    if (this.closed) {
      return;
    }
    this.closed = true;
    queueMicrotask(() => this.onclose?.(reason));
  }

  deliver(message: CdpIncoming): void {
    if (!this.closed) {
      this.onmessage?.(message);
    }
  }
}

let targetCounter = 0;

export class FakeBrowser {
  readonly targets = new Map<string, FakeTarget>();
  readonly responders = new Map<string, Responder>();
  /** Methods that never answer (a hung renderer). */
  readonly silent = new Set<string>();
  /** Answers held back per method until `release` (a renderer that answers late). */
  readonly #held = new Map<string, Array<() => void>>();
  transport: FakeTransport;
  #sessionToTarget = new Map<string, string>();
  #rootAutoAttach = false;
  #discover = false;
  #sessionCounter = 0;
  #loaderCounter = 0;
  readonly #capabilities: TransportCapabilities;

  constructor(capabilities: Partial<TransportCapabilities> = {}) {
    this.#capabilities = {
      browserDomain: true,
      ownsBrowser: true,
      reconnect: true,
      browserPages: true,
      ...capabilities,
    };
    this.transport = new FakeTransport(this, this.#capabilities);
  }

  /** A fresh transport to the same browser (a reconnect): sessions of the old one are gone. */
  reopen(): FakeTransport {
    this.#rootAutoAttach = false;
    this.#discover = false;
    for (const target of this.targets.values()) {
      target.sessions.clear();
      target.autoAttach = false;
    }
    this.#sessionToTarget.clear();
    this.transport = new FakeTransport(this, this.#capabilities);
    return this.transport;
  }

  /** Drops the socket: the browser (and its targets) stays up. */
  drop(reason = 'socket dropped'): void {
    this.transport.close(reason);
  }

  /** Holds every answer to `method` from now on until `release(method)`. */
  hold(method: string): void {
    this.#held.set(method, this.#held.get(method) ?? []);
  }

  /** Delivers the answers held for `method`, in order, and answers it at once again. */
  release(method: string): void {
    const answers = this.#held.get(method) ?? [];
    this.#held.delete(method);
    for (const answer of answers) {
      answer();
    }
  }

  get sent(): CdpRequest[] {
    return this.transport.sent;
  }

  sentMethods(): string[] {
    return this.transport.sent.map((message) => message.method);
  }

  addPage(url = 'about:blank', openerId?: string): FakeTarget {
    const target: FakeTarget = {
      targetId: `PAGE${String(++targetCounter).padStart(28, '0')}`,
      type: 'page',
      url,
      title: url,
      sessions: new Set(),
      autoAttach: false,
      history: [url],
      historyIndex: 0,
      ...(openerId === undefined ? {} : { openerId }),
    };
    this.targets.set(target.targetId, target);
    if (this.#discover) {
      this.#event(undefined, 'Target.targetCreated', { targetInfo: this.#info(target) });
    }
    if (this.#rootAutoAttach) {
      this.#attach(target, undefined, true);
    }
    return target;
  }

  addChild(parent: FakeTarget, type: 'iframe' | 'worker', url: string): FakeTarget {
    const target: FakeTarget = {
      targetId: `${type.toUpperCase()}${String(++targetCounter).padStart(26, '0')}`,
      type,
      url,
      title: url,
      parentTargetId: parent.targetId,
      sessions: new Set(),
      autoAttach: false,
      history: [url],
      historyIndex: 0,
    };
    this.targets.set(target.targetId, target);
    if (parent.autoAttach) {
      for (const parentSession of parent.sessions) {
        this.#attach(target, parentSession, true);
      }
    }
    return target;
  }

  /** A browser-level target no auto-attach reaches (an extension's service worker): attached only on request. */
  addServiceWorker(url: string): FakeTarget {
    const target: FakeTarget = {
      targetId: `SW${String(++targetCounter).padStart(30, '0')}`,
      type: 'service_worker',
      url,
      title: url,
      sessions: new Set(),
      autoAttach: false,
      history: [url],
      historyIndex: 0,
    };
    this.targets.set(target.targetId, target);
    return target;
  }

  removeTarget(targetId: string): void {
    const target = this.targets.get(targetId);
    if (target === undefined) {
      return;
    }
    for (const child of [...this.targets.values()]) {
      if (child.parentTargetId === targetId) {
        this.removeTarget(child.targetId);
      }
    }
    this.targets.delete(targetId);
    for (const sessionId of target.sessions) {
      const parentSession = this.#parentSessionOf(target);
      this.#sessionToTarget.delete(sessionId);
      this.#event(parentSession, 'Target.detachedFromTarget', { sessionId, targetId });
    }
    if (this.#discover) {
      this.#event(undefined, 'Target.targetDestroyed', { targetId });
    }
  }

  /** Emits an event on one session of a target ('' for the browser). */
  emitOn(target: FakeTarget | undefined, method: string, params: unknown): void {
    if (target === undefined) {
      this.#event(undefined, method, params);
      return;
    }
    for (const sessionId of target.sessions) {
      this.#event(sessionId, method, params);
    }
  }

  sessionsOf(targetId: string): string[] {
    return [...(this.targets.get(targetId)?.sessions ?? [])];
  }

  receive(transport: FakeTransport, message: CdpRequest): void {
    if (this.silent.has(message.method)) {
      return;
    }
    const params = (message.params ?? {}) as Record<string, unknown>;
    let result: unknown;
    try {
      const responder = this.responders.get(message.method);
      result =
        responder !== undefined
          ? responder(params, message.sessionId)
          : this.#handle(message.method, params, message.sessionId);
    } catch (error) {
      const text = error instanceof Error ? error.message : String(error);
      queueMicrotask(() => transport.deliver({ id: message.id, error: { code: -32000, message: text } }));
      return;
    }
    const response = {
      id: message.id,
      result: result ?? {},
      ...(message.sessionId === undefined ? {} : { sessionId: message.sessionId }),
    };
    const held = this.#held.get(message.method);
    if (held !== undefined) {
      held.push(() => transport.deliver(response));
      return;
    }
    queueMicrotask(() => transport.deliver(response));
  }

  #handle(method: string, params: Record<string, unknown>, sessionId: string | undefined): unknown {
    const target = sessionId === undefined ? undefined : this.targets.get(this.#sessionToTarget.get(sessionId) ?? '');
    if (sessionId !== undefined && target === undefined) {
      throw Object.assign(new Error('Session with given id not found.'), { code: -32001 });
    }
    switch (method) {
      case 'Target.setDiscoverTargets':
        this.#discover = params['discover'] === true;
        if (this.#discover) {
          for (const page of this.targets.values()) {
            if (page.type === 'page') {
              this.#event(undefined, 'Target.targetCreated', { targetInfo: this.#info(page) });
            }
          }
        }
        return {};
      case 'Target.setAutoAttach':
        if (target === undefined) {
          this.#rootAutoAttach = params['autoAttach'] === true;
          for (const page of this.targets.values()) {
            if (page.type === 'page' && page.sessions.size === 0) {
              this.#attach(page, undefined, false);
            }
          }
        } else {
          target.autoAttach = params['autoAttach'] === true;
          for (const child of this.targets.values()) {
            if (child.parentTargetId === target.targetId && child.sessions.size === 0) {
              this.#attach(child, sessionId, false);
            }
          }
        }
        return {};
      case 'Target.createTarget': {
        const page = this.addPage(typeof params['url'] === 'string' ? params['url'] : 'about:blank');
        return { targetId: page.targetId };
      }
      case 'Target.closeTarget': {
        const id = String(params['targetId']);
        if (!this.targets.has(id)) {
          throw new Error('No target with given id found');
        }
        queueMicrotask(() => this.removeTarget(id));
        return { success: true };
      }
      case 'Target.activateTarget':
        return {};
      case 'Target.getTargets':
        return { targetInfos: [...this.targets.values()].map((t) => this.#info(t)) };
      case 'Target.attachToTarget': {
        const attached = this.targets.get(String(params['targetId']));
        if (attached === undefined) {
          throw new Error('No target with given id found');
        }
        this.#attach(attached, undefined, false);
        return { sessionId: [...attached.sessions].at(-1) };
      }
      case 'Target.detachFromTarget':
        return {};
      case 'Page.navigate':
        return this.#navigate(target, String(params['url']));
      case 'Page.getFrameTree':
        return {
          frameTree: {
            frame: {
              id: target?.targetId,
              loaderId: 'L0',
              url: target?.url,
              securityOrigin: '',
              mimeType: 'text/html',
            },
          },
        };
      case 'Page.getNavigationHistory':
        return {
          currentIndex: target?.historyIndex ?? 0,
          entries: (target?.history ?? []).map((url, id) => ({
            id,
            url,
            userTypedURL: url,
            title: url,
            transitionType: 'typed',
          })),
        };
      case 'Page.navigateToHistoryEntry': {
        if (target !== undefined) {
          target.historyIndex = Number(params['entryId']);
          const url = target.history[target.historyIndex] ?? 'about:blank';
          this.#commit(target, url);
        }
        return {};
      }
      case 'Page.reload':
        if (target !== undefined) {
          this.#commit(target, target.url);
        }
        return {};
      case 'Browser.getVersion':
        return { protocolVersion: '1.3', product: 'FakeChrome/1.0', revision: '0', userAgent: 'Fake', jsVersion: '0' };
      case 'Runtime.evaluate':
        return { result: { type: 'number', value: 1 } };
      default:
        return {};
    }
  }

  #navigate(target: FakeTarget | undefined, url: string): unknown {
    if (target === undefined) {
      throw new Error('navigate needs a page session');
    }
    if (/^https?:\/\/fail\./.test(url)) {
      return { frameId: target.targetId, errorText: 'net::ERR_NAME_NOT_RESOLVED' };
    }
    target.history = target.history.slice(0, target.historyIndex + 1);
    target.history.push(url);
    target.historyIndex = target.history.length - 1;
    const loaderId = this.#commit(target, url);
    return { frameId: target.targetId, loaderId };
  }

  #commit(target: FakeTarget, url: string): string {
    const loaderId = `LOADER${++this.#loaderCounter}`;
    target.url = url;
    target.title = url;
    const frameId = target.targetId;
    setTimeout(() => {
      this.emitOn(target, 'Page.frameNavigated', {
        frame: { id: frameId, loaderId, url, securityOrigin: '', mimeType: 'text/html' },
        type: 'Navigation',
      });
      if (this.#discover) {
        this.#event(undefined, 'Target.targetInfoChanged', { targetInfo: this.#info(target) });
      }
      for (const name of ['init', 'commit', 'DOMContentLoaded', 'load', 'networkAlmostIdle', 'networkIdle']) {
        this.emitOn(target, 'Page.lifecycleEvent', { frameId, loaderId, name, timestamp: 0 });
      }
    }, 1);
    return loaderId;
  }

  #attach(target: FakeTarget, parentSessionId: string | undefined, waiting: boolean): void {
    const sessionId = `S${++this.#sessionCounter}`;
    target.sessions.add(sessionId);
    this.#sessionToTarget.set(sessionId, target.targetId);
    this.#event(parentSessionId, 'Target.attachedToTarget', {
      sessionId,
      targetInfo: this.#info(target),
      waitingForDebugger: waiting,
    });
  }

  #parentSessionOf(target: FakeTarget): string | undefined {
    if (target.parentTargetId === undefined) {
      return undefined;
    }
    return [...(this.targets.get(target.parentTargetId)?.sessions ?? [])][0];
  }

  #info(target: FakeTarget): Record<string, unknown> {
    return {
      targetId: target.targetId,
      type: target.type,
      url: target.url,
      title: target.title,
      attached: target.sessions.size > 0,
      canAccessOpener: false,
      ...(target.openerId === undefined ? {} : { openerId: target.openerId }),
    };
  }

  #event(sessionId: string | undefined, method: string, params: unknown): void {
    const transport = this.transport;
    const message = sessionId === undefined ? { method, params } : { method, params, sessionId };
    queueMicrotask(() => transport.deliver(message));
  }
}
