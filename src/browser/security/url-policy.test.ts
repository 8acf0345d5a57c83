import { describe, expect, it } from 'vitest';
import { URL_CORPUS, expectedRule, fillCorpusConfig, fillCorpusUrl } from '../../../test/fixtures/security/url-corpus';
import { defaultBrowserConfig } from '../config';
import { UrlPolicy, type PolicyConfig } from './url-policy';

const PORTS = { port: 8123, tls: 8443 };

function policyOf(config: Partial<PolicyConfig>): UrlPolicy {
  return new UrlPolicy({ ...defaultBrowserConfig(), ...fillCorpusConfig(config, PORTS) });
}

describe('the URL policy corpus', () => {
  const total = URL_CORPUS.reduce((sum, profile) => sum + profile.cases.length, 0);

  it('has at least 150 URLs, allowed and blocked', () => {
    const cases = URL_CORPUS.flatMap((profile) => profile.cases);
    expect(total).toBeGreaterThanOrEqual(150);
    expect(cases.filter((entry) => entry.blocked === null).length).toBeGreaterThan(40);
    expect(cases.filter((entry) => entry.blocked !== null).length).toBeGreaterThan(90);
  });

  for (const profile of URL_CORPUS) {
    describe(profile.name, () => {
      const policy = policyOf(profile.config);
      for (const transport of ['node', 'extension'] as const) {
        it.each(profile.cases.map((entry) => [JSON.stringify(entry.url), entry] as const))(
          `${transport}: %s`,
          (_name, entry) => {
            const decision = policy.decide(fillCorpusUrl(entry.url, PORTS), {
              drivesBrowserPages: transport === 'node',
            });
            const rule = decision.allowed ? null : decision.rule;
            expect(rule, entry.note ?? '').toBe(expectedRule(entry, transport));
          },
        );
      }
      it('allows its home page', () => {
        expect(policy.decide(`http://${profile.home}:${PORTS.port}/`, { drivesBrowserPages: true }).allowed).toBe(true);
      });
    });
  }
});

/** The Fetch domain's glob: '*' any run, '?' one character, backslash escapes. */
function fetchGlobMatches(pattern: string, url: string): boolean {
  let source = '';
  for (let i = 0; i < pattern.length; i++) {
    const char = pattern[i] ?? '';
    if (char === '\\') {
      source += (pattern[++i] ?? '').replace(/[.*+?^${}()|[\]\\/]/g, '\\$&');
    } else if (char === '*') {
      source += '.*';
    } else if (char === '?') {
      source += '.';
    } else {
      source += char.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&');
    }
  }
  return new RegExp(`^${source}$`, 's').test(url);
}

describe('what the browser holds for a decision', () => {
  it('holds every URL a host rule refuses, in the canonical form the browser requests it', () => {
    for (const profile of URL_CORPUS) {
      const policy = policyOf(profile.config);
      const patterns = policy.holdPatterns;
      for (const entry of profile.cases) {
        const url = fillCorpusUrl(entry.url, PORTS);
        let href: string;
        try {
          href = new URL(url).href;
        } catch {
          continue;
        }
        const decision = policy.decide(href, { drivesBrowserPages: true });
        if (!/^https?:/.test(href) || decision.allowed || decision.rule === 'allowed_schemes') {
          continue;
        }
        expect(
          patterns.some((pattern) => fetchGlobMatches(pattern, href)),
          `${profile.name}: ${href} (${decision.rule}) must be held; patterns ${patterns.join(' ')}`,
        ).toBe(true);
      }
    }
  });

  it('holds nothing without a host rule, everything for an allow list, and lets ordinary pages pass a prohibited list', () => {
    expect(policyOf({}).holdPatterns).toEqual([]);
    expect(policyOf({ allowed_schemes: ['file'] }).holdPatterns).toEqual([]);
    expect(policyOf({ allowed_domains: ['ok.example'] }).holdPatterns).toEqual(['*']);
    expect(policyOf({ prohibited_domains: ['http*://x.example'] }).holdPatterns).toEqual(['*']);
    const prohibited = policyOf({ prohibited_domains: ['evil.example', '*.tracker.example', 'ads.*'] }).holdPatterns;
    expect(prohibited).toEqual(['*evil.example*', '*tracker.example*', '*ads.*']);
    for (const url of ['http://good.example/', 'https://news.example/article?id=3', 'http://127.0.0.1:8080/']) {
      expect(
        prohibited.some((pattern) => fetchGlobMatches(pattern, url)),
        url,
      ).toBe(false);
    }
    const addresses = policyOf({ block_ip_addresses: true }).holdPatterns;
    expect(addresses.some((pattern) => fetchGlobMatches(pattern, 'https://news.example/'))).toBe(false);
    expect(addresses.some((pattern) => fetchGlobMatches(pattern, 'http://u:p@10.0.0.1/'))).toBe(true);
    expect(addresses.some((pattern) => fetchGlobMatches(pattern, 'http://[::1]:80/'))).toBe(true);
    const many = policyOf({ prohibited_domains: Array.from({ length: 300 }, (_, i) => `h${i}.example`) });
    expect(many.holdPatterns).toEqual(['*']);
  });
});
