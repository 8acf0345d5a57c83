import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { silentLogger } from '../../shared/logger';
import { NetworkRules, type RuleTabsApi } from './network-rules';
import type { RuleScope } from './session-rule-guard';
import { OPENED_TAB_GRACE_MS } from './settled-tabs';

const POLICY = {
  allowed_domains: [],
  prohibited_domains: ['evil.example'],
  block_ip_addresses: false,
  allowed_schemes: [],
};

/** chrome.tabs with the listeners kept, so the test can be Chrome. */
function fakeTabs(initial: Array<{ id: number; url: string }>) {
  const listeners = {
    created: [] as Array<(tab: { id?: number; openerTabId?: number; pendingUrl?: string }) => void>,
    removed: [] as Array<(tabId: number) => void>,
    updated: [] as Array<
      (tabId: number, change: { url?: string; status?: string }, tab?: { pendingUrl?: string }) => void
    >,
  };
  const api: RuleTabsApi = {
    query: () => Promise.resolve(initial),
    onCreated: { addListener: (listener) => listeners.created.push(listener) },
    onRemoved: { addListener: (listener) => listeners.removed.push(listener) },
    onUpdated: { addListener: (listener) => listeners.updated.push(listener) },
  };
  return {
    api,
    create: (id: number, openerTabId?: number) =>
      listeners.created.forEach((listener) => listener({ id, ...(openerTabId === undefined ? {} : { openerTabId }) })),
    update: (id: number, url: string) => listeners.updated.forEach((listener) => listener(id, { url })),
    createGoing: (id: number, pendingUrl: string) =>
      listeners.created.forEach((listener) => listener({ id, pendingUrl })),
    startLoading: (id: number, pendingUrl: string) =>
      listeners.updated.forEach((listener) => listener(id, { status: 'loading' }, { pendingUrl })),
  };
}

describe('NetworkRules', () => {
  let scopes: RuleScope[];
  let controlled: number[];
  const last = (): RuleScope | undefined => scopes.at(-1);

  async function started(tabs: Array<{ id: number; url: string }>) {
    const fake = fakeTabs(tabs);
    const guard = { sync: (_config: unknown, scope: RuleScope) => (scopes.push(scope), Promise.resolve()) };
    const rules = new NetworkRules({
      guard,
      tabs: fake.api,
      controlled: () => controlled,
      config: () => POLICY,
      log: silentLogger,
    });
    await rules.install();
    return { rules, fake };
  }

  beforeEach(() => {
    scopes = [];
    controlled = [];
    vi.useFakeTimers();
  });
  afterEach(() => vi.useRealTimers());

  it("settles the tabs there are and the person's new ones, and names the person's hosts but not the controlled tabs'", async () => {
    const { rules, fake } = await started([
      { id: 1, url: 'https://mail.example/inbox' },
      { id: 2, url: 'https://shop.example/' },
      { id: 3, url: 'http://10.0.0.1/router' },
    ]);
    controlled = [2];
    await rules.sync();
    expect(last()).toEqual({ controlledTabIds: [2], settledTabIds: [1, 2, 3], personHosts: ['mail.example'] });
    fake.create(4, 1);
    await vi.advanceTimersByTimeAsync(0);
    expect(last()?.settledTabIds).toContain(4);
  });

  it("names the host a person's tab is going to before its page commits: as it is created, and as it starts loading", async () => {
    const { rules, fake } = await started([{ id: 1, url: 'https://app.example/' }]);
    controlled = [1];
    await rules.sync();
    // Created with a URL (the person's Ctrl+click, a bookmark): its host is theirs before its page loads.
    fake.createGoing(7, 'https://person.example/start');
    await vi.advanceTimersByTimeAsync(0);
    expect(last()?.personHosts).toContain('person.example');
    // A navigation the person starts in a tab of theirs: named as it starts loading.
    fake.startLoading(7, 'https://next.example/');
    await vi.advanceTimersByTimeAsync(0);
    expect(last()?.personHosts).toEqual(['next.example']);
  });

  it('holds a tab a controlled tab opened until its grace runs out, then lets it go', async () => {
    const { rules, fake } = await started([{ id: 1, url: 'https://app.example/' }]);
    controlled = [1];
    await rules.sync();
    const before = scopes.length;
    fake.create(5, 1);
    expect(scopes.length).toBe(before);
    await rules.sync();
    expect(last()?.settledTabIds).not.toContain(5);
    await vi.advanceTimersByTimeAsync(OPENED_TAB_GRACE_MS);
    expect(last()?.settledTabIds).toContain(5);
  });

  it("follows the person's pages to new hosts, and writes nothing while no tab is controlled", async () => {
    const { rules, fake } = await started([
      { id: 1, url: 'https://mail.example/' },
      { id: 2, url: 'about:blank' },
    ]);
    fake.update(1, 'https://docs.example/');
    expect(scopes).toEqual([]);
    controlled = [2];
    fake.update(1, 'https://news.example/');
    await vi.advanceTimersByTimeAsync(0);
    expect(last()?.personHosts).toEqual(['news.example']);
    await rules.sync();
    expect(last()?.personHosts).toEqual(['news.example']);
  });
});
