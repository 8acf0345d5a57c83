import { describe, expect, it } from 'vitest';
import { URL_CORPUS, expectedRule, fillCorpusConfig, fillCorpusUrl } from '../../../test/fixtures/security/url-corpus';
import { defaultConfig } from '../config';
import { UrlPolicy, type PolicyConfig } from './url-policy';

const PORTS = { port: 8123, tls: 8443 };

function policyOf(config: Partial<PolicyConfig>): UrlPolicy {
  return new UrlPolicy({ ...defaultConfig(), ...fillCorpusConfig(config, PORTS) });
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
