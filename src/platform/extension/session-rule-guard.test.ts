import { describe, expect, it } from 'vitest';
import { silentLogger } from '../../shared/logger';
import { SessionRuleGuard, type DnrSessionRules, type RuleScope } from './session-rule-guard';

const POLICY = {
  allowed_domains: [],
  prohibited_domains: ['evil.example'],
  block_ip_addresses: false,
  allowed_schemes: [],
};

/** declarativeNetRequest's session rules, kept in memory; `failNext` makes the next update reject. */
function fakeRules(): DnrSessionRules & { rules: chrome.declarativeNetRequest.Rule[]; failNext: boolean } {
  const api = {
    rules: [] as chrome.declarativeNetRequest.Rule[],
    failNext: false,
    getSessionRules: () => Promise.resolve([...api.rules]),
    updateSessionRules: (options: chrome.declarativeNetRequest.UpdateRuleOptions) => {
      if (api.failNext) {
        api.failNext = false;
        return Promise.reject(new Error('Rule with id 1 does not have a unique ID.'));
      }
      const removed = new Set(options.removeRuleIds ?? []);
      api.rules = [...api.rules.filter((rule) => !removed.has(rule.id)), ...(options.addRules ?? [])];
      return Promise.resolve();
    },
  };
  return api;
}

/** The tabs given controlled; tabs 1 and 2 the person's, on mail.example. */
const scope = (controlledTabIds: readonly number[]): RuleScope => ({
  controlledTabIds,
  settledTabIds: [1, 2, ...controlledTabIds],
  personHosts: ['mail.example'],
});

describe('SessionRuleGuard', () => {
  it('scopes the policy to the controlled tabs and to WebSockets, replacing the rules on each change', async () => {
    const api = fakeRules();
    const guard = new SessionRuleGuard(api, silentLogger);
    await guard.sync(POLICY, scope([7, 9]));
    const webSockets = api.rules.filter((rule) => rule.condition.resourceTypes?.includes('websocket'));
    expect(webSockets).toHaveLength(1);
    expect(webSockets[0]).toMatchObject({
      action: { type: 'block' },
      condition: { resourceTypes: ['websocket'], tabIds: [7, 9] },
    });
    expect(new RegExp(webSockets[0]?.condition.regexFilter ?? '^$').test('wss://evil.example/live')).toBe(true);
    await guard.sync(POLICY, scope([9]));
    expect(api.rules.flatMap((rule) => rule.condition.tabIds ?? [])).toEqual([9]);
    await guard.sync(POLICY, scope([]));
    expect(api.rules).toEqual([]);
  });

  it("holds the first document of a tab a controlled page opens: any tab but the settled ones, not opened from the person's pages", async () => {
    const api = fakeRules();
    const guard = new SessionRuleGuard(api, silentLogger);
    await guard.sync(POLICY, scope([7]));
    const opened = api.rules.filter((rule) => rule.condition.resourceTypes?.includes('main_frame'));
    expect(opened).toHaveLength(1);
    expect(opened[0]).toMatchObject({
      action: { type: 'block' },
      condition: {
        resourceTypes: ['main_frame'],
        excludedTabIds: [-1, 1, 2, 7],
        excludedInitiatorDomains: ['mail.example'],
      },
    });
    expect(opened[0]?.condition).not.toHaveProperty('tabIds');
    expect(new RegExp(opened[0]?.condition.regexFilter ?? '^$').test('https://evil.example/popup')).toBe(true);
    expect(new Set(api.rules.map((rule) => rule.id)).size).toBe(api.rules.length);
  });

  it('keeps going after a failed update: the next one replaces whatever is there', async () => {
    const api = fakeRules();
    const guard = new SessionRuleGuard(api, silentLogger);
    api.failNext = true;
    await guard.sync(POLICY, scope([1]));
    expect(api.rules).toEqual([]);
    await guard.sync({ ...POLICY, block_ip_addresses: true }, scope([1]));
    expect(api.rules).toHaveLength(4);
  });
});
