import { describe, expect, it } from 'vitest';
import { silentLogger } from '../../shared/logger';
import { WebSocketGuard, type SessionRulesApi } from './websocket-guard';

const POLICY = {
  allowed_domains: [],
  prohibited_domains: ['evil.example'],
  block_ip_addresses: false,
  allowed_schemes: [],
};

/** declarativeNetRequest's session rules, kept in memory; `failNext` makes the next update reject. */
function fakeRules(): SessionRulesApi & { rules: chrome.declarativeNetRequest.Rule[]; failNext: boolean } {
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

describe('WebSocketGuard', () => {
  it('scopes the policy to the controlled tabs and to WebSockets, replacing the rules on each change', async () => {
    const api = fakeRules();
    const guard = new WebSocketGuard(api, silentLogger);
    await guard.sync(POLICY, [7, 9]);
    expect(api.rules).toHaveLength(1);
    expect(api.rules[0]).toMatchObject({
      action: { type: 'block' },
      condition: { resourceTypes: ['websocket'], tabIds: [7, 9] },
    });
    expect(new RegExp(api.rules[0]?.condition.regexFilter ?? '^$').test('wss://evil.example/live')).toBe(true);
    await guard.sync(POLICY, [9]);
    expect(api.rules.map((rule) => rule.condition.tabIds)).toEqual([[9]]);
    await guard.sync(POLICY, []);
    expect(api.rules).toEqual([]);
  });

  it('keeps going after a failed update: the next one replaces whatever is there', async () => {
    const api = fakeRules();
    const guard = new WebSocketGuard(api, silentLogger);
    api.failNext = true;
    await guard.sync(POLICY, [1]);
    expect(api.rules).toEqual([]);
    await guard.sync({ ...POLICY, block_ip_addresses: true }, [1]);
    expect(api.rules).toHaveLength(2);
  });
});
