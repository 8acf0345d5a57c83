import type { PolicyConfig } from '../../browser/security/url-policy';
import { errorMessageOf } from '../../shared/errors';
import type { Logger } from '../../shared/logger';
import type { RuleScope, SessionRuleGuard } from './session-rule-guard';
import { SettledTabs } from './settled-tabs';

/** The part of chrome.tabs the rules follow. */
export interface RuleTabsApi {
  query(queryInfo: Record<string, never>): Promise<Array<{ id?: number; url?: string }>>;
  onCreated: {
    addListener(
      listener: (tab: { id?: number; openerTabId?: number; pendingUrl?: string; url?: string }) => void,
    ): void;
  };
  onRemoved: { addListener(listener: (tabId: number) => void): void };
  onUpdated: {
    addListener(
      listener: (tabId: number, change: { url?: string; status?: string }, tab?: { pendingUrl?: string }) => void,
    ): void;
  };
}

/**
 * The host a page's requests name as their initiator, for an http(s) page on a domain name: an address is
 * not one declarativeNetRequest's initiator domains take, and one malformed entry would refuse every rule.
 */
function webHost(url: string | undefined): string | undefined {
  if (url === undefined || !/^https?:/.test(url)) {
    return undefined;
  }
  const host = new URL(url).hostname.replace(/\.$/, '');
  const topLabel = host.split('.').at(-1) ?? '';
  return /^[a-z0-9.-]+$/.test(host) && /[a-z]/.test(topLabel) ? host : undefined;
}

/**
 * Keeps the network rules (session-rule-guard.ts) in step with what they cover: the controlled tabs, the
 * tabs that are settled (the person's, known as soon as Chrome tells of them; one a controlled tab opened
 * once attached or after a grace period: settled-tabs.ts), the hosts of the person's pages (a tab a page of
 * theirs opens is theirs, unless a controlled tab is on that host too), and the policy.
 */
export class NetworkRules {
  readonly #guard: Pick<SessionRuleGuard, 'sync'>;
  readonly #tabs: RuleTabsApi;
  readonly #controlled: () => readonly number[];
  readonly #config: () => PolicyConfig;
  readonly #log: Logger;
  readonly #settled: SettledTabs;
  /** Each tab's page host, as chrome.tabs tells. */
  readonly #hosts = new Map<number, string>();

  constructor(options: {
    guard: Pick<SessionRuleGuard, 'sync'>;
    tabs: RuleTabsApi;
    controlled: () => readonly number[];
    config: () => PolicyConfig;
    log: Logger;
  }) {
    this.#guard = options.guard;
    this.#tabs = options.tabs;
    this.#controlled = options.controlled;
    this.#config = options.config;
    this.#log = options.log;
    this.#settled = new SettledTabs(
      (tabId) => this.#controlled().includes(tabId),
      () => this.#resync(),
    );
  }

  /** Registers the tab listeners (at the worker's top level, as MV3 wants) and learns the tabs there are. */
  install(): Promise<void> {
    this.#tabs.onCreated.addListener((tab) => {
      const held = tab.id !== undefined && this.#settled.created(tab.id, tab.openerTabId);
      // The person's new tab is let go as soon as the rules say so, and the host it is going to is the
      // person's from now: a page there may open a tab as soon as it loads, and that tab's first request
      // must find the host in the rules already (a loaded CI run saw it arrive first when the host was
      // learnt only once the page committed).
      if (!held) {
        this.#learnHost(tab.id, tab.pendingUrl ?? tab.url);
        this.#resyncIfRules();
      }
    });
    this.#tabs.onRemoved.addListener((tabId) => {
      this.#settled.removed(tabId);
      this.#hosts.delete(tabId);
    });
    this.#tabs.onUpdated.addListener((tabId, change, tab) => {
      // A navigation is told where it goes as it starts loading (pendingUrl), before it commits (url).
      const url = change.url ?? (change.status === 'loading' ? tab?.pendingUrl : undefined);
      if (url !== undefined && this.#learnHost(tabId, url)) {
        this.#resyncIfRules();
      }
    });
    return this.#tabs.query({}).then((tabs) => {
      for (const tab of tabs) {
        const host = webHost(tab.url);
        if (tab.id !== undefined && host !== undefined) {
          this.#hosts.set(tab.id, host);
        }
      }
      this.#settled.seed(tabs.flatMap((tab) => (tab.id === undefined ? [] : [tab.id])));
    });
  }

  /** Records where a tab's page is (or is going); whether that changed what is known. */
  #learnHost(tabId: number | undefined, url: string | undefined): boolean {
    if (tabId === undefined || url === undefined) {
      return false;
    }
    const host = webHost(url);
    if (this.#hosts.get(tabId) === host) {
      return false;
    }
    if (host === undefined) {
      this.#hosts.delete(tabId);
    } else {
      this.#hosts.set(tabId, host);
    }
    return true;
  }

  /** Writes the rules for the policy and the tabs as they are now. */
  sync(config: PolicyConfig = this.#config()): Promise<void> {
    return this.#guard.sync(config, this.#scope());
  }

  #scope(): RuleScope {
    const controlled = [...this.#controlled()];
    const controlledHosts = new Set(controlled.map((tabId) => this.#hosts.get(tabId)));
    const personHosts = new Set(
      [...this.#hosts].flatMap(([tabId, host]) =>
        controlled.includes(tabId) || controlledHosts.has(host) ? [] : [host],
      ),
    );
    return {
      controlledTabIds: controlled,
      settledTabIds: [...new Set([...this.#settled.ids(), ...controlled])],
      personHosts: [...personHosts],
    };
  }

  /** With nothing controlled there are no rules to change. */
  #resyncIfRules(): void {
    if (this.#controlled().length > 0) {
      this.#resync();
    }
  }

  #resync(): void {
    this.sync().catch((error: unknown) =>
      this.#log.warn('could not update the network rules', { error: errorMessageOf(error) }),
    );
  }
}
