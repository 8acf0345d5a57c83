import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { CommandResponse } from '../../../src/protocol/commands';
import { pollUntil } from '../../../src/shared/time';
import { ExtensionDriver, type Driver } from '../harness/drivers';
import { SecurityRig, type SecurityHooks } from '../harness/security-rig';

interface TabsResult {
  tabs: Array<{ tab_id: string; url: string }>;
}

/**
 * The URL policy and permissions, end to end over both transports: every road a page has to leave for a
 * blocked URL is stopped before the request leaves (the loopback server is the witness), the protocol
 * answers URL_BLOCKED naming the rule, each block is announced, and a policy change holds at once.
 */
export function defineSecurityContract(name: string, start: () => Promise<Driver>, hooks: SecurityHooks): void {
  describe(`security contract over ${name}`, () => {
    const rig = new SecurityRig(hooks);
    const at = (host: string, path: string): string => rig.at(host, path);
    const sawPath = (host: string, path: string): boolean => rig.sawPath(host, path);

    beforeAll(async () => {
      await rig.start(start);
    });

    afterAll(async () => {
      await rig.stop();
    });

    describe('every road out of a page is held before the request leaves', () => {
      beforeAll(async () => {
        await rig.policy({ prohibited_domains: ['evil.example'] });
      });

      it('refuses navigate with URL_BLOCKED naming the rule and the pattern, and announces it', async () => {
        rig.events = [];
        const response = await rig.driver.send('navigate', { url: at('www.evil.example', '/typed') });
        expect(response).toMatchObject({
          ok: false,
          error: {
            code: 'URL_BLOCKED',
            message: expect.stringContaining('prohibited_domains'),
            details: { rule: 'prohibited_domains', pattern: 'evil.example' },
          },
        });
        expect(await rig.nextBlock((b) => b.url.includes('/typed'), 'navigate')).toMatchObject({
          stage: 'navigate',
          rule: 'prohibited_domains',
          tab_closed: false,
        });
        expect(
          await rig.driver.send('navigate', { url: at('evil.example', '/typed-new-tab'), new_tab: true }),
        ).toMatchObject({ ok: false, error: { code: 'URL_BLOCKED' } });
        expect((await rig.driver.ok<TabsResult>('tabs')).tabs.some((t) => t.url.includes('evil'))).toBe(false);
        expect(sawPath('www.evil.example', '/typed') || sawPath('evil.example', '/typed-new-tab')).toBe(false);
      });

      const roads: Array<[string, string, (target: string) => string]> = [
        ['a link clicked in the page', '/link', (target) => `/sec/link.html?to=${encodeURIComponent(target)}`],
        ['a scripted location change', '/script', (target) => `/sec/script.html?to=${encodeURIComponent(target)}`],
        ['a meta refresh', '/meta', (target) => `/sec/meta.html?to=${encodeURIComponent(target)}`],
        ['a form post', '/post', (target) => `/sec/form.html?to=${encodeURIComponent(target)}`],
      ];
      for (const [road, path, pageFor] of roads) {
        it(`stops ${road}: nothing reaches the server, the tab stays where it was`, async () => {
          rig.events = [];
          const page = at('good.example', pageFor(at('evil.example', path)));
          await rig.driver.ok('navigate', { url: page });
          if (road.startsWith('a link')) {
            await rig.driver.clickInTab(rig.tab, '#go');
          }
          const block = await rig.nextBlock((b) => b.url.endsWith(path), road);
          expect(block).toMatchObject({
            stage: 'request',
            frame: 'main',
            rule: 'prohibited_domains',
            tab_closed: false,
          });
          expect(block.target_id.toLowerCase().endsWith(rig.tab.toLowerCase())).toBe(true);
          expect(await rig.tabUrl()).toBe(page);
          expect(sawPath('evil.example', path)).toBe(false);
        });
      }

      it('stops a redirect of navigate at the blocked hop, answering URL_BLOCKED with where it led', async () => {
        const start = at('good.example', '/sec/empty.html');
        await rig.driver.ok('navigate', { url: start });
        const response = await rig.driver.send('navigate', {
          url: at('good.example', `/sec/redirect?to=${encodeURIComponent(at('evil.example', '/after-redirect'))}`),
        });
        expect(response).toMatchObject({
          ok: false,
          error: {
            code: 'URL_BLOCKED',
            details: { rule: 'prohibited_domains', url: at('evil.example', '/after-redirect') },
          },
        });
        expect((response as Extract<CommandResponse, { ok: false }>).error.message).toMatch(/it led to/);
        expect(sawPath('good.example', '/sec/redirect')).toBe(true);
        expect(sawPath('evil.example', '/after-redirect')).toBe(false);
        expect(await rig.tabUrl()).toBe(start);
      });

      it('stops a frame, and an out-of-process frame navigating itself, while the page loads', async () => {
        rig.events = [];
        await rig.driver.ok('navigate', {
          url: at('good.example', `/sec/frame.html?to=${encodeURIComponent(at('evil.example', '/frame'))}`),
        });
        expect(await rig.nextBlock((b) => b.url.endsWith('/frame'), 'the frame')).toMatchObject({
          stage: 'request',
          frame: 'subframe',
        });
        // A cross-site frame has its own process and session; it then tries to leave by itself.
        const inner = at('other.example', `/sec/script.html?to=${encodeURIComponent(at('evil.example', '/oopif'))}`);
        await rig.driver.ok('navigate', { url: at('good.example', `/sec/frame.html?to=${encodeURIComponent(inner)}`) });
        expect(await rig.nextBlock((b) => b.url.endsWith('/oopif'), 'the out-of-process frame')).toMatchObject({
          stage: 'request',
          frame: 'subframe',
        });
        expect(sawPath('other.example', '/sec/script.html')).toBe(true);
        expect(sawPath('evil.example', '/frame') || sawPath('evil.example', '/oopif')).toBe(false);
        expect(await rig.driver.evaluateInTab(rig.tab, 'document.querySelector("h1").textContent')).toBe('framed');
      });

      it('closes a tab the page opens for a blocked URL (window.open and a target=_blank link)', async () => {
        const pagesBefore = await rig.driver.browserPageCount();
        for (const [kind, page, path] of [
          ['window.open', (target: string) => `/sec/open.html?to=${encodeURIComponent(target)}`, '/popup'],
          [
            'target=_blank',
            (target: string) => `/sec/link.html?target=_blank&to=${encodeURIComponent(target)}`,
            '/blank',
          ],
        ] as const) {
          rig.events = [];
          await rig.driver.ok('navigate', { url: at('good.example', page(at('evil.example', path))) });
          if (kind === 'target=_blank') {
            await rig.driver.clickInTab(rig.tab, '#go');
          }
          const block = await rig.nextBlock((b) => b.url.endsWith(path), kind);
          expect(block, `${kind}: ${JSON.stringify(block)}`).toMatchObject({
            frame: 'main',
            rule: 'prohibited_domains',
            tab_closed: true,
          });
          expect(block.target_id.toLowerCase().endsWith(rig.tab.toLowerCase())).toBe(false);
          await pollUntil(async () => ((await rig.driver.browserPageCount()) === pagesBefore ? true : undefined), {
            timeoutMs: 10_000,
            intervalMs: 50,
            onTimeout: () => new Error(`the ${kind} tab stayed open`),
          });
          if (rig.driver.kind === 'node') {
            // Node holds a new tab at its start until its session is set up: its first request is held too.
            expect(block.stage).toBe('request');
          } else {
            // chrome.debugger can attach to a new tab only after Chrome created it and its first request
            // left: a declarativeNetRequest rule for tabs a controlled page opens refuses that request in
            // Chrome's network stack (session-rule-guard.ts); the tab is closed as soon as it is attached.
            expect(['request', 'tab', 'commit']).toContain(block.stage);
          }
          expect(sawPath('evil.example', path), `${kind}: its first request reached the server`).toBe(false);
        }
        const hosts = (await rig.driver.ok<TabsResult>('tabs')).tabs.map((t) => new URL(t.url).hostname);
        expect(hosts).not.toContain('evil.example');
      });

      it("never lets a popup's first request out: ten tries, each from a page on a host the tab was never on", async () => {
        const pagesBefore = await rig.driver.browserPageCount();
        const tag = rig.tag();
        for (let attempt = 0; attempt < 10; attempt += 1) {
          rig.events = [];
          const path = `/popup-${tag}-${attempt}`;
          // A fresh host each time: the page opens the popup as soon as it loads.
          await rig.driver.ok('navigate', {
            url: at(
              `site${attempt}-${tag}.example`,
              `/sec/open.html?to=${encodeURIComponent(at('evil.example', path))}`,
            ),
          });
          await rig.nextBlock((b) => b.url.endsWith(path), `popup ${attempt}`);
          await pollUntil(async () => ((await rig.driver.browserPageCount()) === pagesBefore ? true : undefined), {
            timeoutMs: 10_000,
            intervalMs: 50,
            onTimeout: () => new Error(`popup ${attempt} stayed open`),
          });
        }
        const leaked = Array.from({ length: 10 }, (_, attempt) => `/popup-${tag}-${attempt}`).filter((path) =>
          sawPath('evil.example', path),
        );
        expect(leaked).toEqual([]);
      });

      it("leaves the person's own popups alone while it holds the controlled tabs'", async (context) => {
        if (!(rig.driver instanceof ExtensionDriver)) {
          // A browser Node drives has no tab of the person's.
          context.skip();
          return;
        }
        const tag = rig.tag();
        const opened: string[] = [];
        // The person is on the host first, and the rules know it: a popup a person's page opens the very
        // moment it loads on a host new to the person's tabs may be judged by the policy (docs/protocol.md),
        // which a loaded run met twice. This test is about the pages the rules know as the person's.
        opened.push(await rig.driver.client.createTab(at('person.example', '/sec/empty.html')));
        const driver = rig.driver;
        await pollUntil(
          async () =>
            (await driver.inWorker<boolean>(
              `chrome.declarativeNetRequest.getSessionRules().then((rules) => rules.some((rule) => (rule.condition.excludedInitiatorDomains ?? []).includes('person.example')))`,
            ))
              ? true
              : undefined,
          { timeoutMs: 10_000, intervalMs: 25, onTimeout: () => new Error("the rules never named the person's host") },
        );
        for (let attempt = 0; attempt < 5; attempt += 1) {
          const path = `/person-popup-${tag}-${attempt}`;
          // The person's tab, which tabpilot does not control, opens a tab for a host the policy refuses.
          opened.push(
            await rig.driver.client.createTab(
              at('person.example', `/sec/open.html?to=${encodeURIComponent(at('evil.example', path))}`),
            ),
          );
          await pollUntil(() => (sawPath('evil.example', path) ? true : undefined), {
            timeoutMs: 10_000,
            intervalMs: 25,
            onTimeout: () => new Error(`the person's popup ${attempt} never reached its server`),
          });
        }
        const stray = (await rig.driver.client.pageTargets()).filter(
          (target) => opened.includes(target.targetId) || target.url.includes(`/person-popup-${tag}-`),
        );
        for (const target of stray) {
          await rig.driver.client.root.send('Target.closeTarget', { targetId: target.targetId });
        }
      });

      it('holds on the in-process actor road too (Page.goto skips NavigateToUrlEvent)', async (context) => {
        if (hooks.actorGoto === undefined) {
          // The actor runs in the process that hosts the session: Node scripts; the worker exposes none.
          context.skip();
          return;
        }
        await expect(hooks.actorGoto(rig.driver, rig.tab, at('evil.example', '/actor'))).rejects.toMatchObject({
          code: 'URL_BLOCKED',
          details: { rule: 'prohibited_domains', pattern: 'evil.example' },
        });
        expect(sawPath('evil.example', '/actor')).toBe(false);
        const redirect = at(
          'good.example',
          `/sec/redirect?to=${encodeURIComponent(at('evil.example', '/actor-redirect'))}`,
        );
        await expect(hooks.actorGoto(rig.driver, rig.tab, redirect)).rejects.toMatchObject({
          code: 'URL_BLOCKED',
          details: { rule: 'prohibited_domains', url: at('evil.example', '/actor-redirect') },
        });
        expect(sawPath('evil.example', '/actor-redirect')).toBe(false);
      });

      it('refuses a history move to a page the policy now blocks', async () => {
        await rig.driver.ok('navigate', { url: at('other.example', '/sec/empty.html') });
        await rig.driver.ok('navigate', { url: at('good.example', '/sec/empty.html') });
        await rig.policy({ prohibited_domains: ['evil.example', 'other.example'] });
        try {
          expect(await rig.driver.send('go_back')).toMatchObject({
            ok: false,
            error: { code: 'URL_BLOCKED', details: { rule: 'prohibited_domains', pattern: 'other.example' } },
          });
          expect(await rig.tabUrl()).toBe(at('good.example', '/sec/empty.html'));
        } finally {
          await rig.policy({ prohibited_domains: ['evil.example'] });
        }
      });
    });

    describe('policy changes', () => {
      it('apply at once to every controlled tab: a tab on a newly blocked page leaves it, its links are held', async () => {
        await rig.policy({});
        const second = await rig.driver.openTab(at('news.example', '/sec/empty.html'));
        await rig.driver.ok('switch', { tab_id: rig.tab });
        await rig.driver.ok('navigate', {
          url: at('good.example', `/sec/link.html?to=${encodeURIComponent(at('news.example', '/later'))}`),
        });
        rig.events = [];
        await rig.policy({ prohibited_domains: ['news.example'] });
        // The change was applied when its save answered: no waiting here.
        const left = (await rig.blocks()).find((b) => b.stage === 'policy');
        expect(left).toMatchObject({ rule: 'prohibited_domains', url: at('news.example', '/sec/empty.html') });
        expect(left?.target_id.toLowerCase().endsWith(second.toLowerCase())).toBe(true);
        await pollUntil(
          async () =>
            (await rig.driver.evaluateInTab<string>(second, 'location.href')) === 'about:blank' ? true : undefined,
          { timeoutMs: 10_000, intervalMs: 50, onTimeout: () => new Error('the tab stayed on the blocked page') },
        );
        await rig.driver.clickInTab(rig.tab, '#go');
        expect(await rig.nextBlock((b) => b.url.endsWith('/later'), 'the link')).toMatchObject({ stage: 'request' });
        expect(sawPath('news.example', '/later')).toBe(false);
        // And lifting it lets the same link through.
        await rig.policy({});
        await rig.driver.clickInTab(rig.tab, '#go');
        await pollUntil(async () => (sawPath('news.example', '/later') ? true : undefined), {
          timeoutMs: 10_000,
          intervalMs: 50,
          onTimeout: () => new Error('the link did not go through once allowed'),
        });
        await rig.driver.ok('close', { tab_id: second });
      });
    });
    describe('permissions', () => {
      const QUERY = `Promise.all(['geolocation', 'notifications', 'clipboard-read', 'camera'].map((name) => navigator.permissions.query({ name }).then((status) => [name, status.state]))).then(Object.fromEntries)`;
      // localhost is a secure context, where every one of these can be queried.
      const page = (): string => rig.at('localhost', '/sec/empty.html');

      async function states(): Promise<Record<string, string>> {
        await rig.driver.ok('navigate', { url: page() });
        return rig.driver.evaluateInTab<Record<string, string>>(rig.tab, QUERY);
      }

      it('grants the configured permissions to every site, reads them back in the page, and withdraws them', async () => {
        await rig.policy({});
        if (hooks.grantedAtStart !== undefined) {
          // Granted when tabpilot connected, from the config it started with.
          const atStart = await states();
          for (const name of hooks.grantedAtStart) {
            expect(atStart[name], name).toBe('granted');
          }
        }
        const granted = async (): Promise<string[]> =>
          Object.entries(await states())
            .filter(([, state]) => state === 'granted')
            .map(([name]) => name)
            .sort();
        await rig.applyConfig({ permissions: ['geolocation', 'clipboardReadWrite', 'videoCapture'] });
        expect(await granted()).toEqual(['camera', 'clipboard-read', 'geolocation']);
        await rig.applyConfig({ permissions: ['notifications'] });
        expect(await granted()).toEqual(['notifications']);
        await rig.applyConfig({ permissions: [] });
        expect(await granted()).toEqual([]);
      });

      it('names each permission this platform cannot grant', async () => {
        if (rig.driver.kind === 'extension') {
          // chrome.contentSettings has no setting for midi: the settings refuse it and nothing changes.
          await expect(rig.applyConfig({ permissions: ['notifications', 'midi'] })).rejects.toThrow(
            /settings refused: permissions: permissions: chrome.contentSettings cannot grant midi \(it can grant clipboardReadWrite/,
          );
          expect((await states()).notifications).not.toBe('granted');
        } else {
          // Browser.grantPermissions refuses smartCard here ("can't be granted in current context"); the
          // others are still granted.
          await expect(rig.applyConfig({ permissions: ['notifications', 'smartCard'] })).rejects.toThrow(
            /the browser refused to grant smartCard \(.*current context/,
          );
          expect((await states()).notifications).toBe('granted');
        }
        await rig.applyConfig({ permissions: [] });
      });
    });
  });
}
