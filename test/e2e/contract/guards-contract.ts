import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { defaultConfig } from '../../../src/agent/tabpilot-config';
import type { StateSummary as BrowserStateSummary } from '../../../src/tools/actions';
import type { CommandResponse, EventMessage } from '../../../src/protocol/commands';
import { pollUntil } from '../../../src/shared/time';
import type { Driver } from '../harness/drivers';
import { FixtureServer } from '../harness/fixture-server';
import { ChallengeServer } from '../harness/challenge-server';
import { addChallengePages, addGuardPages, SECRET_MAIL } from '../harness/guard-pages';

/** What each guard-contract run needs from its driver besides the protocol. */
export interface GuardDriverHooks {
  /** Makes `sensitive_data` the config in force, the way a person's settings (or the config file) would. */
  useSecrets(driver: Driver, sensitiveData: Record<string, Record<string, string>>): Promise<void>;
  /** The extension's timeline as the panel would get it; null where there is none (Node). */
  timeline(driver: Driver): Promise<unknown[] | null>;
  /**
   * Checks that the side panel shows the tab as needing the person and that its Show tab button brings
   * the tab forward. Node has no panel: undefined there (the protocol's status is checked on both).
   */
  panelHandsOver?(driver: Driver, tabId: string): Promise<void>;
}

/**
 * The guard watchdogs and output guards over both transports: secrets stay secret after they are typed.
 * Every check reads what a client receives (responses, subscribed events, the panel's timeline).
 */
export function defineGuardsContract(name: string, start: () => Promise<Driver>, hooks: GuardDriverHooks): void {
  describe(`guards contract over ${name}`, () => {
    let driver: Driver;
    const server = new FixtureServer();
    const challenges = new ChallengeServer();
    addGuardPages(server);

    beforeAll(async () => {
      await Promise.all([server.start(), challenges.start()]);
      addChallengePages(server, challenges);
      driver = await start();
    });

    afterAll(async () => {
      await driver?.close();
      await Promise.all([server.stop(), challenges.stop()]);
    });

    interface Tab {
      tab_id: string;
      status: string;
      status_reason: string | null;
    }

    async function statusOf(tabId: string): Promise<Tab | undefined> {
      return (await driver.ok<{ tabs: Tab[] }>('tabs')).tabs.find((tab) => tab.tab_id === tabId);
    }

    async function waitForStatus(tabId: string, status: string): Promise<Tab> {
      return pollUntil(async () => ((await statusOf(tabId))?.status === status ? statusOf(tabId) : undefined), {
        timeoutMs: 15_000,
        intervalMs: 100,
        onTimeout: () => new Error(`tab ${tabId} never became ${status}`),
      });
    }

    async function waitForEvent(
      seen: EventMessage[],
      predicate: (event: EventMessage) => boolean,
    ): Promise<EventMessage> {
      return pollUntil(
        async () => {
          seen.push(...(await driver.takeEvents()));
          return seen.find(predicate);
        },
        { timeoutMs: 15_000, intervalMs: 100, onTimeout: () => new Error('no such event') },
      );
    }

    function errorOf(response: CommandResponse): { code: string; message: string; details?: unknown } {
      if (response.ok) {
        throw new Error(`expected an error, got ${JSON.stringify(response.result).slice(0, 200)}`);
      }
      return response.error;
    }

    it('a crashed tab: events, its status in tabs and in another tab state, fails fast with TAB_CRASHED until refresh', async () => {
      await driver.ok('subscribe', { events: ['TargetCrashedEvent', 'BrowserErrorEvent'] });
      const crashing = await driver.openTab(server.url('/a.html'));
      const other = await driver.openTab(server.url('/b.html'));
      await driver.crashTab(crashing);
      const crashed = await waitForStatus(crashing, 'crashed');
      expect(crashed.status_reason).toContain('crashed');
      const events: EventMessage[] = [];
      await waitForEvent(events, (event) => event.event === 'TargetCrashedEvent');
      const report = await waitForEvent(
        events,
        (event) =>
          event.event === 'BrowserErrorEvent' && (event.data as { error_type: string }).error_type === 'TargetCrash',
      );
      expect(JSON.stringify(report.data)).toContain(crashing);
      // Another tab's state shows it; commands to it fail with the crash (over chrome.debugger they would hang).
      const seen = await driver.ok<BrowserStateSummary>('state', { tab_id: other });
      expect(seen.tabs.find((tab) => tab.tab_id === crashing)?.status).toBe('crashed');
      expect(errorOf(await driver.send('state', { tab_id: crashing })).code).toBe('TAB_CRASHED');
      expect(errorOf(await driver.send('screenshot', { tab_id: crashing })).code).toBe('TAB_CRASHED');
      await driver.ok('switch', { tab_id: crashing });
      expect(errorOf(await driver.send('scroll', { direction: 'down' })).code).toBe('TAB_CRASHED');
      expect(errorOf(await driver.send('navigate', { url: server.url('/c.html') })).code).toBe('TAB_CRASHED');
      await driver.ok('refresh');
      await waitForStatus(crashing, 'ok');
      const back = await driver.ok<BrowserStateSummary>('state');
      expect(back.text).toContain('Page A');
      await driver.ok('unsubscribe', {});
      await driver.ok('close', { tab_id: other });
    });

    it('a stuck page: the health check reports it, the command waiting on it is answered, refresh brings it back', async () => {
      await driver.setConfig({
        crash: { enabled: true, health_check_interval_ms: 300, unresponsive_after_ms: 1500, network_timeout_ms: 1000 },
      });
      await driver.ok('subscribe', { events: ['BrowserErrorEvent'] });
      const tab = await driver.openTab(server.url('/g/freeze.html'));
      const state = await driver.ok<BrowserStateSummary>('state');
      const freeze = state.elements.find((element) => element.name === 'Freeze the page');
      // The click itself never completes in the page: it is answered once the page is found stuck.
      const click = await driver.send('click', { index: freeze?.index });
      const error = errorOf(click);
      expect(error.code).toBe('TIMEOUT');
      expect(error.message).toContain('stuck');
      expect((await statusOf(tab))?.status).toBe('unresponsive');
      const events: EventMessage[] = [];
      await waitForEvent(
        events,
        (event) =>
          event.event === 'BrowserErrorEvent' &&
          (event.data as { error_type: string }).error_type === 'TargetUnresponsive',
      );
      // The state of a stuck page is answered at once, not actionable, and says why.
      const stuck = await driver.ok<BrowserStateSummary>('state');
      expect(stuck.elements).toEqual([]);
      expect(stuck.state_error).toContain('stuck');
      const refused = errorOf(await driver.send('scroll', { direction: 'down' }));
      expect(refused.code).toBe('TIMEOUT');
      expect(refused.details).toMatchObject({ condition: 'unresponsive' });
      await driver.ok('refresh');
      await waitForStatus(tab, 'ok');
      expect((await driver.ok<BrowserStateSummary>('state')).text).toContain('Still here');
      await driver.ok('unsubscribe', {});
    });

    it('reports a request with no answer past the bound, once, and shows it in the state', async () => {
      await driver.ok('subscribe', { events: ['BrowserErrorEvent'] });
      // Navigated to from a controlled tab: the extension attaches a tab after it loaded, too late to see its first requests.
      await driver.openTab(server.url('/a.html'));
      await driver.ok('navigate', { url: server.url('/g/waiting.html') });
      const events: EventMessage[] = [];
      const report = await waitForEvent(
        events,
        (event) =>
          event.event === 'BrowserErrorEvent' &&
          (event.data as { error_type: string }).error_type === 'NetworkTimeout' &&
          JSON.stringify(event.data).includes('/g/never'),
      );
      expect((report.data as { details: { url: string } }).details.url).toBe(server.url('/g/never'));
      const state = await driver.ok<BrowserStateSummary>('state');
      expect(state.browser_errors.join('\n')).toContain(`GET ${server.url('/g/never')} has had no answer`);
      await driver.ok('unsubscribe', {});
    });

    it('never lets a typed secret out: state, elements, extract, search, find, events, errors, timeline', async () => {
      await hooks.useSecrets(driver, { '*': { mail: SECRET_MAIL } });
      await driver.ok('subscribe', { events: ['*'] });
      await driver.openTab(server.url('/g/echo.html'));
      const before = await driver.ok<BrowserStateSummary>('state');
      const field = before.elements.find((element) => element.attributes['id'] === 'em');
      expect(field).toBeDefined();
      const typed = await driver.ok<{ value?: string }>('input', {
        index: field?.index,
        text: '<secret>mail</secret>',
      });
      // The page really has the value: the echo shows it to a person.
      expect(await driver.evaluateInTab(before.tab_id, 'document.getElementById("echo").textContent')).toBe(
        `You typed ${SECRET_MAIL} just now`,
      );
      const state = await driver.ok<BrowserStateSummary>('state', { include_recent_events: true });
      const extract = await driver.ok<{ markdown: string }>('extract', {});
      const search = await driver.ok<{ matches: Array<{ context: string }> }>('search_page', {
        pattern: 'You typed',
        context_chars: 12,
      });
      const found = await driver.ok('find_elements', { selector: '#em, #share', attributes: ['data-last', 'href'] });
      const failed = await driver.send('navigate', { url: `http://${SECRET_MAIL}.invalid/` });
      const events = await driver.takeEvents();

      expect(state.text).toContain('You typed <secret>mail</secret> just now');
      expect(state.elements.find((element) => element.attributes['id'] === 'em')?.attributes['value']).toBe(
        '<secret>mail</secret>',
      );
      expect(extract.markdown).toContain('You typed <secret>mail</secret>');
      // A context cut through the secret shows no piece of it either.
      expect(search.matches[0]?.context).toMatch(/You typed <secret>mail<\/secret>$/);
      expect(failed.ok).toBe(false);
      expect(JSON.stringify(failed)).toContain('<secret>mail</secret>');
      expect(events.length).toBeGreaterThan(0);
      const timeline = await hooks.timeline(driver);
      for (const [what, output] of Object.entries({ typed, state, extract, search, found, failed, events, timeline })) {
        const text = JSON.stringify(output).toLowerCase();
        expect(text, what).not.toContain('secret-mail');
        expect(text, what).not.toContain('secret-mail%40x.test');
      }
      await driver.ok('unsubscribe', {});
      await hooks.useSecrets(driver, {});
    });

    it('leaves text a person cannot see out of the state, keeps what scrolling reveals and sr-only control names', async () => {
      await driver.openTab(server.url('/g/hidden-text.html'));
      const hidden = [
        'Zero size text',
        'Far left text',
        'Clipped text',
        'Inside a zero box',
        'White on white',
        'Navy on navy',
        'Transparent text',
        'Indented logo text',
      ];
      const state = await driver.ok<BrowserStateSummary>('state', { viewport_expansion: -1 });
      // An ancestor's font-size 0 or transparent colour hides nothing a child sizes or colours again.
      const shown = ['Plain visible text', 'First line in a box', 'Scrolled inside the box', 'Below the fold'];
      for (const text of [...shown, 'Sized again in a gapless row', 'Coloured again inside']) {
        expect(state.text, text).toContain(text);
      }
      expect(state.text).toMatch(/\[\d+\]<button \/> Close dialog/);
      for (const text of hidden) {
        expect(state.text, text).not.toContain(text);
      }
      await driver.setConfig({ state: { ...defaultConfig().state, hidden_text: 'mark' } });
      const marked = await driver.ok<BrowserStateSummary>('state', { viewport_expansion: -1 });
      expect(marked.text).toContain('[hidden: zero font size] Zero size text');
      expect(marked.text).toContain('[hidden: off-screen] Far left text');
      expect(marked.text).toContain('[hidden: clipped] Clipped text');
      expect(marked.text).toContain('[hidden: clipped] Inside a zero box');
      expect(marked.text).toContain('[hidden: same colour as background] White on white');
      expect(marked.text).toContain('[hidden: same colour as background] Navy on navy');
      expect(marked.text).toContain('[hidden: transparent] Transparent text');
      expect(marked.text).toContain('[hidden: off-screen] Indented logo text');
      expect(marked.text).not.toMatch(/\[hidden: [^\]]+\] (Sized again|Coloured again)/);
      expect(marked.text).toContain('Plain visible text');
      await driver.setConfig({ state: defaultConfig().state });
    });

    async function continueButton(): Promise<number | undefined> {
      const state = await driver.ok<BrowserStateSummary>('state');
      return state.elements.find((element) => element.name === 'Continue')?.index;
    }

    it('reCAPTCHA: detected by its frame, the tab needs a person, an action waits and resumes once it is solved', async () => {
      await driver.setConfig({ captcha: { enabled: true, wait_timeout_ms: 60_000, poll_ms: 100 } });
      await driver.ok('subscribe', { events: ['CaptchaDetectedEvent', 'CaptchaClearedEvent'] });
      const tab = await driver.openTab(server.url('/g/recaptcha.html'));
      const waiting = await waitForStatus(tab, 'needs_person');
      expect(waiting.status_reason).toContain('reCAPTCHA');
      const events: EventMessage[] = [];
      const detected = await waitForEvent(events, (event) => event.event === 'CaptchaDetectedEvent');
      expect(detected.data).toMatchObject({ vendor: 'recaptcha', kind: 'widget' });
      expect((detected.data as { url: string }).url).toContain('www.google.com');
      // Reading goes on (the model sees why it waits); acting waits for the person.
      const state = await driver.ok<BrowserStateSummary>('state');
      expect(state.tabs.find((entry) => entry.tab_id === tab)?.status).toBe('needs_person');
      expect(state.browser_errors.join(' ')).toContain('a person must solve it');
      await hooks.panelHandsOver?.(driver, tab);
      const index = await continueButton();
      const click = driver.send('click', { index });
      // The person solves it: the widget's callback fills the response field.
      await driver.evaluateInTab(tab, `document.getElementById('g-recaptcha-response').value = '03AFcWeA-token'`);
      const clicked = await click;
      expect(clicked.ok, JSON.stringify(clicked)).toBe(true);
      const cleared = await waitForEvent(events, (event) => event.event === 'CaptchaClearedEvent');
      expect(cleared.data).toMatchObject({ vendor: 'recaptcha', reason: 'solved' });
      expect((await statusOf(tab))?.status).toBe('ok');
      await driver.ok('unsubscribe', {});
      await driver.ok('close', { tab_id: tab });
    });

    it('hCaptcha: past the configured bound an action fails with PERSON_NEEDED; removing the widget clears it', async () => {
      await driver.setConfig({ captcha: { enabled: true, wait_timeout_ms: 1000, poll_ms: 100 } });
      const tab = await driver.openTab(server.url('/g/hcaptcha.html'));
      await waitForStatus(tab, 'needs_person');
      const failed = errorOf(await driver.send('click', { index: await continueButton() }));
      expect(failed.code).toBe('PERSON_NEEDED');
      expect(failed.message).toContain('hCaptcha');
      expect(failed.message).toContain('a person must solve it');
      await driver.evaluateInTab(tab, `document.querySelector('.h-captcha').remove()`);
      await waitForStatus(tab, 'ok');
      expect((await driver.send('click', { index: await continueButton() })).ok).toBe(true);
      await driver.ok('close', { tab_id: tab });
    });

    it('Turnstile (beside an invisible reCAPTCHA, left alone) and the Cloudflare challenge page', async () => {
      await driver.setConfig({ captcha: { enabled: true, wait_timeout_ms: 60_000, poll_ms: 100 } });
      await driver.ok('subscribe', { events: ['CaptchaDetectedEvent', 'CaptchaClearedEvent'] });
      const events: EventMessage[] = [];
      const widget = await driver.openTab(server.url('/g/turnstile.html'));
      await waitForStatus(widget, 'needs_person');
      await driver.evaluateInTab(widget, `document.querySelector('[name=cf-turnstile-response]').value = '0.token'`);
      // The page also carries an invisible reCAPTCHA (v3), which needs no person: solved, the tab is ok.
      await waitForStatus(widget, 'ok');
      expect((await driver.send('click', { index: await continueButton() })).ok).toBe(true);
      const interstitial = await driver.openTab(server.url('/g/cf-challenge.html'));
      await waitForStatus(interstitial, 'needs_person');
      const page = await waitForEvent(
        events,
        (event) => event.event === 'CaptchaDetectedEvent' && (event.data as { kind: string }).kind === 'interstitial',
      );
      expect(page.data).toMatchObject({ vendor: 'cloudflare' });
      // Passing the challenge, Cloudflare sends the page on to the site.
      await driver.evaluateInTab(interstitial, `location.href = '/a.html'`);
      await waitForStatus(interstitial, 'ok');
      await waitForEvent(
        events,
        (event) => event.event === 'CaptchaClearedEvent' && (event.data as { vendor: string }).vendor === 'cloudflare',
      );
      expect(events.filter((event) => event.event === 'CaptchaDetectedEvent')).toHaveLength(2);
      await driver.ok('unsubscribe', {});
    });
  });
}
