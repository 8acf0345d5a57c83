import type { CdpIncoming } from '../../protocol/cdp';
import type { ChromeApi } from './chrome-api';
import { RouterError, SERVER_ERROR } from './router-errors';
import type { ControlledTab } from './tab-router';

/** The CDP version chrome.debugger attaches with; Browser.getVersion reports it. */
export const PROTOCOL_VERSION = '1.3';
const NOT_FOUND = -32601;

/** What the browser-level emulation needs of the TabRouter. */
export interface BrowserLevelHost {
  /** The controlled tabs, in the order they came under control. */
  tabs(): Iterable<ControlledTab>;
  tab(tabId: number): ControlledTab | undefined;
  /** The tab a synthetic tab session or a child session belongs to. */
  tabOfSession(sessionId: string): ControlledTab | undefined;
  attachTab(tabId: number): Promise<string>;
  detachTab(tabId: number, reason: string): Promise<void>;
  send(target: { tabId: number; sessionId?: string }, method: string, params: object): Promise<unknown>;
  emit(message: CdpIncoming): void;
}

/**
 * The router's browser-level session (no session id). chrome.debugger refuses `Target.*` at the browser
 * level, so the Target commands are answered from the controlled tabs and chrome.tabs, and Target events
 * go out only as the client subscribed to them (setDiscoverTargets, setAutoAttach). Browser.getVersion
 * is answered here; the rest of the Browser domain is refused as unsupported.
 */
export class BrowserLevel {
  readonly #chrome: ChromeApi;
  readonly #host: BrowserLevelHost;
  #discover = false;
  #autoAttach = false;

  constructor(chrome: ChromeApi, host: BrowserLevelHost) {
    this.#chrome = chrome;
    this.#host = host;
  }

  /** The client went away: the next one subscribes afresh. */
  reset(): void {
    this.#discover = false;
    this.#autoAttach = false;
  }

  /** A tab came under control. */
  tabAdded(tab: ControlledTab): void {
    if (this.#discover) {
      this.#host.emit({ method: 'Target.targetCreated', params: { targetInfo: tab.info } });
    }
    if (this.#autoAttach) {
      this.#announce(tab);
    }
  }

  /** A controlled tab got a new session (re-attached); the old one is reported detached separately. */
  sessionReplaced(tab: ControlledTab): void {
    if (this.#autoAttach) {
      this.#announce(tab);
    }
  }

  tabChanged(tab: ControlledTab): void {
    if (this.#discover) {
      this.#host.emit({ method: 'Target.targetInfoChanged', params: { targetInfo: tab.info } });
    }
  }

  tabRemoved(tab: ControlledTab): void {
    if (this.#discover) {
      this.#host.emit({ method: 'Target.targetDestroyed', params: { targetId: tab.targetId } });
    }
  }

  /** Answers one browser-level command; throws RouterError with a CDP error payload. */
  async handle(method: string, params: Record<string, unknown>): Promise<unknown> {
    switch (method) {
      case 'Target.setDiscoverTargets':
        this.#discover = params['discover'] === true;
        if (this.#discover) {
          for (const tab of this.#host.tabs()) {
            this.#host.emit({ method: 'Target.targetCreated', params: { targetInfo: tab.info } });
          }
        }
        return {};
      case 'Target.setAutoAttach':
        this.#autoAttach = params['autoAttach'] === true;
        if (this.#autoAttach) {
          for (const tab of this.#host.tabs()) {
            this.#announce(tab);
          }
        }
        return {};
      case 'Target.getTargets':
        return { targetInfos: [...this.#host.tabs()].map((tab) => tab.info) };
      case 'Target.getTargetInfo': {
        const tab = this.#tabByTarget(params['targetId']);
        return { targetInfo: tab.info };
      }
      case 'Target.attachToTarget': {
        const targetId = String(params['targetId']);
        const known = [...this.#host.tabs()].find((tab) => tab.targetId === targetId);
        if (known !== undefined) {
          return { sessionId: known.sessionId };
        }
        const page = (await this.#chrome.debugger.getTargets()).find(
          (info) => info.id === targetId && info.tabId !== undefined,
        );
        if (page?.tabId === undefined) {
          throw new RouterError(SERVER_ERROR, `No tab with target id ${targetId}`);
        }
        await this.#host.attachTab(page.tabId);
        return { sessionId: this.#host.tab(page.tabId)?.sessionId };
      }
      case 'Target.detachFromTarget': {
        const sessionId = String(params['sessionId']);
        const tab = this.#host.tabOfSession(sessionId);
        if (tab === undefined) {
          throw new RouterError(-32001, 'Session with given id not found.');
        }
        if (sessionId === tab.sessionId) {
          await this.#host.detachTab(tab.tabId, 'detached by client');
          return {};
        }
        return this.#host.send({ tabId: tab.tabId }, 'Target.detachFromTarget', { sessionId });
      }
      case 'Target.createTarget': {
        const url = typeof params['url'] === 'string' && params['url'] !== '' ? params['url'] : 'about:blank';
        const created = await this.#chrome.tabs.create({ url, active: params['background'] !== true });
        if (created.id === undefined) {
          throw new RouterError(SERVER_ERROR, 'chrome.tabs.create returned no tab id');
        }
        return { targetId: await this.#host.attachTab(created.id) };
      }
      case 'Target.closeTarget': {
        const tab = this.#tabByTarget(params['targetId']);
        await this.#chrome.tabs.remove(tab.tabId);
        return { success: true };
      }
      case 'Target.activateTarget': {
        const tab = this.#tabByTarget(params['targetId']);
        const updated = await this.#chrome.tabs.update(tab.tabId, { active: true });
        if (updated !== undefined) {
          await this.#chrome.windows.update(updated.windowId, { focused: true });
        }
        return {};
      }
      case 'Browser.getVersion':
        return {
          protocolVersion: PROTOCOL_VERSION,
          product: /(?:Headless)?Chrome\/[\d.]+/.exec(this.#chrome.userAgent)?.[0] ?? 'Chrome',
          revision: '',
          userAgent: this.#chrome.userAgent,
          jsVersion: '',
        };
      default:
        if (method.startsWith('Browser.')) {
          throw new RouterError(NOT_FOUND, `'${method}' wasn't found`);
        }
        throw new RouterError(SERVER_ERROR, `${method} is not available at the browser level through chrome.debugger`);
    }
  }

  #tabByTarget(targetId: unknown): ControlledTab {
    const tab = [...this.#host.tabs()].find((candidate) => candidate.targetId === targetId);
    if (tab === undefined) {
      throw new RouterError(-32602, 'No target with given id found');
    }
    return tab;
  }

  #announce(tab: ControlledTab): void {
    this.#host.emit({
      method: 'Target.attachedToTarget',
      params: { sessionId: tab.sessionId, targetInfo: tab.info, waitingForDebugger: false },
    });
  }
}
