import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { BrowserStateSummary } from '../../../src/browser/events/state.events';
import type { Driver } from '../harness/drivers';
import { FixtureServer } from '../harness/fixture-server';
import { addGuardPages, SECRET_MAIL } from '../harness/guard-pages';

/** What each guard-contract run needs from its driver besides the protocol. */
export interface GuardDriverHooks {
  /** Makes `sensitive_data` the config in force, the way a person's settings (or the config file) would. */
  useSecrets(driver: Driver, sensitiveData: Record<string, Record<string, string>>): Promise<void>;
  /** The extension's timeline as the panel would get it; null where there is none (Node). */
  timeline(driver: Driver): Promise<unknown[] | null>;
}

/**
 * The guard watchdogs and output guards over both transports: secrets stay secret after they are typed.
 * Every check reads what a client receives (responses, subscribed events, the panel's timeline).
 */
export function defineGuardsContract(name: string, start: () => Promise<Driver>, hooks: GuardDriverHooks): void {
  describe(`guards contract over ${name}`, () => {
    let driver: Driver;
    const server = new FixtureServer();
    addGuardPages(server);

    beforeAll(async () => {
      await server.start();
      driver = await start();
    });

    afterAll(async () => {
      await driver?.close();
      await server.stop();
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
  });
}
