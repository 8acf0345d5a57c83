import { describe, expect, it } from 'vitest';
import { UrlPolicy, type PolicyConfig } from './url-policy';
import { webSocketRules, webSocketSessionRules, type WebSocketRule } from './websocket-rules';

const base: PolicyConfig = {
  allowed_domains: [],
  prohibited_domains: [],
  block_ip_addresses: false,
  allowed_schemes: [],
};

/** What declarativeNetRequest decides: the matching rule of the highest priority (block wins a tie). */
function dnrAllows(rules: readonly WebSocketRule[], url: string): boolean {
  const hits = rules.filter((rule) => new RegExp(rule.regexFilter).test(url));
  if (hits.length === 0) {
    return true;
  }
  const top = Math.max(...hits.map((rule) => rule.priority));
  return !hits.some((rule) => rule.priority === top && rule.action === 'block');
}

const URLS = [
  'ws://evil.example/socket',
  'wss://www.evil.example:8443/x',
  'ws://sub.evil.example/',
  'ws://notevil.example/',
  'ws://evil.example.other.test/',
  'ws://good.example:9000/live?evil.example',
  'ws://www.good.example/',
  'ws://api.good.example/',
  'ws://127.0.0.1:80/',
  'ws://[::1]:8080/',
  'ws://1password.com/',
  'ws://app.localhost:3000/',
  'ws://localhost.example/',
  'wss://user@evil.example/',
  'wss://chat.app.example/room',
  'wss://chat.app.example/roomy',
];

describe('webSocketRules', () => {
  const configs: Array<[string, Partial<PolicyConfig>]> = [
    ['no rule', {}],
    ['a prohibited host', { prohibited_domains: ['evil.example'] }],
    ['prohibited subdomains and a glob', { prohibited_domains: ['*.evil.example', 'notevil.*'] }],
    ['the address rule', { block_ip_addresses: true }],
    [
      'an allow list with a prohibited host in it',
      { allowed_domains: ['*.good.example', 'evil.example'], prohibited_domains: ['evil.example'] },
    ],
    ['an allow list of a URL pattern', { allowed_domains: ['https://chat.app.example/room'] }],
    ['a scheme glob', { prohibited_domains: ['http*://evil.example'] }],
    [
      'an allow list with addresses refused',
      { allowed_domains: ['127.0.0.1', 'good.example'], block_ip_addresses: true },
    ],
  ];
  for (const [name, fields] of configs) {
    it(`decides as the URL policy does for ${name}`, () => {
      const config = { ...base, ...fields };
      const policy = new UrlPolicy(config);
      const rules = webSocketRules(config);
      for (const url of URLS) {
        const twin = url.replace(/^ws/, 'http');
        expect(dnrAllows(rules, url), url).toBe(policy.decide(twin, { drivesBrowserPages: false }).allowed);
      }
    });
  }

  it('has no rule without a host rule, and groups many hosts into few rules', () => {
    expect(webSocketRules(base)).toEqual([]);
    const many = webSocketRules({ ...base, prohibited_domains: Array.from({ length: 45 }, (_, i) => `h${i}.example`) });
    expect(many).toHaveLength(3);
  });
});

describe('webSocketSessionRules', () => {
  const config: PolicyConfig = { ...base, prohibited_domains: ['evil.example'], block_ip_addresses: true };

  it('numbers the rules from 1 and holds websocket requests only', () => {
    const rules = webSocketSessionRules(config);
    expect(rules.map((rule) => rule.id)).toEqual(webSocketRules(config).map((_, index) => index + 1));
    expect(rules.every((rule) => rule.condition.resourceTypes.join() === 'websocket')).toBe(true);
  });

  it('covers the whole browser when given no tabs, and only the given tabs otherwise', () => {
    expect(webSocketSessionRules(config).some((rule) => 'tabIds' in rule.condition)).toBe(false);
    expect(webSocketSessionRules(config, [4, 7]).map((rule) => rule.condition.tabIds)).toEqual(
      webSocketRules(config).map(() => [4, 7]),
    );
  });
});
