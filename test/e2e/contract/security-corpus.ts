import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { defaultConfig } from '../../../src/agent/tabpilot-config';
import { UrlPolicy } from '../../../src/browser/security/url-policy';
import { pollUntil } from '../../../src/shared/time';
import {
  URL_CORPUS,
  e2eReach,
  expectedRule,
  fillCorpusConfig,
  fillCorpusUrl,
  tagCorpusUrl,
  type CorpusProfile,
} from '../../fixtures/security/url-corpus';
import type { Driver } from '../harness/drivers';
import { SecurityRig, type SecurityHooks } from '../harness/security-rig';

/**
 * The URL corpus in real Chromium, over one transport: for each URL, (1) the decision on Chromium's own
 * parse of it is the corpus answer; (2) the protocol's navigate refuses it with URL_BLOCKED naming the
 * rule, or loads it; (3) requested by the page itself, as a frame (or a scripted navigation for URLs with
 * credentials, which Chromium refuses in frames), it is held at the network or let through. The servers
 * are the witness: a blocked URL's request never arrives, an allowed one does.
 */
export function defineSecurityCorpus(name: string, start: () => Promise<Driver>, hooks: SecurityHooks): void {
  describe(`the URL corpus over ${name}`, () => {
    const rig = new SecurityRig(hooks);

    beforeAll(async () => {
      await rig.start(start);
    });

    afterAll(async () => {
      await rig.stop();
    });

    const transport = (): 'node' | 'extension' => rig.driver.kind;
    const ports = (): { port: number; tls: number } => ({ port: rig.server.port, tls: rig.https.port });

    interface ChromiumView {
      invalid: boolean;
      href: string;
      /** The URL as a page would resolve it against its own address (differs for http:host spellings). */
      resolved: string;
      credentials: boolean;
    }

    for (const profile of URL_CORPUS) {
      it(`${profile.name}: ${profile.cases.length} URLs, each decided as Chromium parses it`, async () => {
        await runProfile(profile);
      });
    }

    async function runProfile(profile: CorpusProfile): Promise<void> {
      const config = fillCorpusConfig(profile.config, ports());
      await rig.policy(config);
      const home = rig.at(profile.home, '/sec/empty.html');
      await rig.driver.ok('navigate', { url: home });
      const cases = profile.cases
        .map((entry) => ({
          entry,
          url: fillCorpusUrl(entry.url, ports()),
          // Where tabpilot decides: Node's URL parser in Node, Chromium's own in the extension's worker.
          expected: expectedRule(entry, transport(), transport() === 'extension' ? 'chromium' : 'node'),
          onNodeParser: expectedRule(entry, transport(), 'node'),
        }))
        .filter(({ entry }) => {
          const reach = e2eReach(entry);
          return reach === 'network' || reach === 'navigate' || (reach === 'node' && transport() === 'node');
        });

      // 1. Chromium's own parser, in the page: deciding on its canonical URL gives the corpus answer.
      const views = await rig.driver.evaluateInTab<ChromiumView[]>(
        rig.tab,
        `${JSON.stringify(cases.map((c) => c.url))}.map((u) => { try { const p = new URL(u); return { invalid: false, href: p.href, resolved: new URL(u, location.href).href, credentials: p.username !== '' || p.password !== '' }; } catch { return { invalid: true, href: '', resolved: '', credentials: false }; } })`,
      );
      const local = new UrlPolicy({ ...defaultConfig(), ...config });
      const viewed = cases.map((c, i) => ({ ...c, view: views[i] }));
      for (const { url, onNodeParser: expected, view } of viewed) {
        if (view === undefined || view.invalid) {
          expect(['invalid_url', 'javascript', null], `${url}: Chromium refuses it`).toContain(expected);
          continue;
        }
        const decision = local.decide(view.href, { drivesBrowserPages: transport() === 'node' });
        expect(decision.allowed ? null : decision.rule, `${url} (Chromium: ${view.href})`).toBe(expected);
      }

      // 2. The protocol's navigate: refused before anything is sent, or loaded.
      for (const { entry, url, expected } of cases) {
        const network = e2eReach(entry) === 'network';
        const n = rig.tag();
        const response = await rig.driver.send('navigate', {
          url: network ? tagCorpusUrl(url, n) : url,
          wait_until: 'commit',
          timeout_ms: 5000,
        });
        if (expected === null) {
          expect(response.ok || response.error.code !== 'URL_BLOCKED', `${url}: ${JSON.stringify(response)}`).toBe(
            true,
          );
        } else {
          expect(response, `${url}: ${JSON.stringify(response)}`).toMatchObject({
            ok: false,
            error: { code: 'URL_BLOCKED', details: { rule: expected } },
          });
        }
        if (network) {
          expect(
            rig.arrived(n),
            `${url}: ${expected === null ? 'allowed, so it arrives' : 'blocked, never sent'}`,
          ).toBe(expected === null);
        }
      }

      // 3. The same URLs requested by the page itself, all at once as frames, held at the network.
      // Chromium refuses frames with credentials itself: those go as scripted top-level navigations.
      await rig.driver.ok('navigate', { url: home });
      const network = viewed.filter(({ entry, view }) => e2eReach(entry) === 'network' && view?.invalid === false);
      // A spelling a page would resolve as a relative path (http:127.0.0.1 on an http page) is left out.
      const framed = network
        .filter(({ view }) => view?.resolved === view?.href && view?.credentials === false)
        .map((c) => ({ ...c, n: rig.tag() }));
      rig.events = [];
      await rig.driver.evaluateInTab(
        rig.tab,
        `(() => { document.body.replaceChildren(); for (const u of ${JSON.stringify(framed.map((c) => tagCorpusUrl(c.url, c.n)))}) { const f = document.createElement('iframe'); f.src = u; document.body.append(f); } return true; })()`,
      );
      const settled = async (): Promise<true | undefined> => {
        const seen = await rig.blocks();
        return framed.every((c) =>
          c.expected === null ? rig.arrived(c.n) : seen.some((b) => b.url.includes(`c=${c.n}`)),
        )
          ? true
          : undefined;
      };
      await pollUntil(settled, {
        timeoutMs: 20_000,
        intervalMs: 50,
        onTimeout: () => new Error(`${profile.name}: the frames never all arrived or were blocked`),
      });
      const seen = await rig.blocks();
      for (const c of framed) {
        const block = seen.find((b) => b.url.includes(`c=${c.n}`));
        expect(block?.rule ?? null, `${c.url} in a frame`).toBe(c.expected);
        expect(rig.arrived(c.n), `${c.url} in a frame`).toBe(c.expected === null);
      }
      for (const c of network.filter(({ view }) => view?.credentials === true)) {
        await rig.driver.ok('navigate', { url: home });
        const n = rig.tag();
        rig.events = [];
        await rig.driver.evaluateInTab(
          rig.tab,
          `(() => { location.href = ${JSON.stringify(tagCorpusUrl(c.url, n))}; return true; })()`,
        );
        await pollUntil(
          async () =>
            (c.expected === null ? rig.arrived(n) : (await rig.blocks()).some((b) => b.url.includes(`c=${n}`)))
              ? true
              : undefined,
          { timeoutMs: 10_000, intervalMs: 50, onTimeout: () => new Error(`${c.url}: neither arrived nor blocked`) },
        );
        expect(rig.arrived(n), `${c.url} by location`).toBe(c.expected === null);
      }
    }
  });
}
