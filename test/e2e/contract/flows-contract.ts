import { readFileSync, statSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { pollUntil } from '../../../src/shared/time';
import type { ReplayResult } from '../../../src/tools/flows/replay-action';
import type { Driver } from '../harness/drivers';
import {
  addFlowPages,
  checkoutFlow,
  flowOf,
  listingFlow,
  signUpFlow,
  type FlowPagesControl,
} from '../harness/flow-pages';
import { FixtureServer } from '../harness/fixture-server';

// No word of a flow's JSON in it ("secret", "password"): the answers' masking replaces any six-letter piece of a secret.
const SECRET = 'Sw0rdf1sh-Kq7-Zx9-value';

export interface FlowsHooks {
  /** Sets config fields in the session the driver talks to (sensitive_data). */
  configure(driver: Driver, config: Record<string, unknown>): Promise<void>;
  /** The bus's history as JSON, where a secret must never appear. */
  history(driver: Driver): Promise<string>;
  /** Where a file the session saved under this name is on disk. */
  fileOf(name: string): string;
}

/**
 * `replay` over both transports, on loopback pages: a sign-up form (a parameter, a secret from
 * sensitive_data, a choice, a checkbox), a listing with filters and a two-page checkout replay green, each
 * element found by its locator; a renamed button stops the replay at its step with the reason and a
 * picture; a locator naming several elements, a bad flow and a missing parameter are refused.
 */
export function defineFlowsContract(name: string, start: () => Promise<Driver>, hooks: FlowsHooks): void {
  describe(`flows contract over ${name}`, () => {
    let driver: Driver;
    let control: FlowPagesControl;
    const server = new FixtureServer();

    beforeAll(async () => {
      control = addFlowPages(server);
      await server.start();
      driver = await start();
      await driver.openTab(server.url('/flows/cart.html'));
      await hooks.configure(driver, { sensitive_data: { [new URL(server.url('/')).hostname]: { password: SECRET } } });
    });

    afterAll(async () => {
      await driver?.close();
      await server.stop();
    });

    const replay = (flow: unknown, params: Record<string, string> = {}): Promise<ReplayResult> =>
      driver.ok<ReplayResult>('replay', { flow, params });

    it('replays a sign-up with a parameter, a secret, a choice and a checkbox, and the secret stays out', async () => {
      const flow = signUpFlow(server);
      const result = await replay(flow, { name: 'Ada Lovelace' });
      expect(result).toEqual({
        flow: 'Sign up',
        steps: 7,
        completed: 7,
        stopped_at: null,
        reason: null,
        screenshot: null,
      });
      const detail = await driver.ok<{ total: number }>('search_page', {
        pattern: `ada@example.test on Pro, password of ${SECRET.length} characters, terms accepted`,
      });
      expect(detail.total).toBe(1);
      expect(JSON.stringify(result)).not.toContain(SECRET);
      expect(await hooks.history(driver)).not.toContain(SECRET);
    });

    it('replays a listing filtered by a choice, a search box and a button found by its test id', async () => {
      const result = await replay(listingFlow(server));
      expect(result).toMatchObject({ completed: 4, stopped_at: null, reason: null });
    });

    it('replays a two-page checkout, and stops at the step whose button was renamed, with a picture', async () => {
      const green = await replay(checkoutFlow(server));
      expect(green).toMatchObject({ completed: 4, stopped_at: null });
      expect((await driver.ok<{ total: number }>('search_page', { pattern: 'Shipping to 1 Loop Road' })).total).toBe(1);

      control.placeOrderLabel = 'Submit order';
      try {
        const stopped = await replay(checkoutFlow(server), { address: '2 Changed Lane' });
        expect(stopped.completed).toBe(3);
        expect(stopped.stopped_at).toBe(4);
        expect(stopped.reason).toBe(
          'step 4 (click button "Place order"): no element on the page is button "Place order"',
        );
        expect(stopped.screenshot?.endsWith('replay-step-4.png')).toBe(true);
        expect(statSync(hooks.fileOf('replay-step-4.png')).size).toBeGreaterThan(1_000);
      } finally {
        control.placeOrderLabel = 'Place order';
      }
    });

    it('stops where a locator names several elements or a step expects what the page does not show', async () => {
      const several = await replay(
        flowOf('Several', [
          { action: 'navigate', url: server.url('/flows/list.html') },
          { action: 'click', locator: { css: '#items li' } },
        ]),
      );
      expect(several).toMatchObject({ completed: 1, stopped_at: 2 });
      expect(several.reason).toBe(
        'step 2 (click CSS "#items li"): 5 elements are CSS "#items li"; a step must name one',
      );

      const unmet = await replay(
        flowOf('Unmet', [{ action: 'navigate', url: server.url('/flows/cart.html'), expect: { text: 'Sold out' } }]),
      );
      expect(unmet).toMatchObject({ completed: 0, stopped_at: 1 });
      expect(unmet.reason).toMatch(
        /^step 1 \(open .*cart\.html\): afterwards after 5000 ms the page does not show "Sold out"$/,
      );
    });

    it('refuses a flow that is not one and a parameter it lacks or does not have, before any step runs', async () => {
      const bad = await driver.send('replay', { flow: { ...checkoutFlow(server), version: 2 } });
      expect(bad).toMatchObject({ ok: false, error: { code: 'INVALID_PARAMS' } });
      const { defaults: _defaults, ...withoutDefault } = checkoutFlow(server);
      const missing = await driver.send('replay', { flow: withoutDefault });
      expect(missing).toMatchObject({
        ok: false,
        error: { code: 'INVALID_PARAMS', message: expect.stringContaining('needs a value for address') },
      });
      const unknown = await driver.send('replay', { flow: checkoutFlow(server), params: { adress: 'x' } });
      expect(unknown).toMatchObject({
        ok: false,
        error: { code: 'INVALID_PARAMS', message: expect.stringContaining('params.adress') },
      });
    });

    it("records the tab's trusted input as a flow (not a script's), the secret by its name, and replays it", async () => {
      const tab = await driver.openTab(server.url('/flows/signup.html'));
      await driver.ok('record_start', { tab_id: tab, name: 'Recorded sign-up' });
      // The page's own script clicking is not the person: it is not recorded.
      await driver.evaluateInTab(
        tab,
        "document.getElementById('terms').click(); document.getElementById('terms').click()",
      );
      await driver.clickInTab(tab, '#name');
      await driver.ok('send_keys', { tab_id: tab, keys: 'Ada' });
      await driver.clickInTab(tab, '#email');
      await driver.ok('send_keys', { tab_id: tab, keys: 'ada@example.test' });
      await driver.clickInTab(tab, '#password');
      // Typed by the secret's placeholder, as a client types one: the server fills it in the page alone.
      await driver.ok('input', { tab_id: tab, text: '<secret>password</secret>' });
      await driver.clickInTab(tab, '#terms');
      await driver.clickInTab(tab, 'button[type=submit]');
      await pollUntil(
        async () =>
          (await driver.evaluateInTab<string>(tab, 'location.pathname')) === '/flows/welcome.html' ? true : undefined,
        {
          timeoutMs: 10_000,
          intervalMs: 100,
          onTimeout: () => new Error('the sign-up never reached the welcome page'),
        },
      );
      const { flow, path } = await driver.ok<{ flow: Record<string, unknown>; path: string }>('record_stop', {
        file_name: 'recorded-signup',
      });
      const at = '/flows/signup.html';
      expect(flow['steps']).toEqual([
        { action: 'navigate', url: server.url(at), expect: { path: at } },
        {
          action: 'fill',
          locator: { role: 'textbox', name: 'Full name' },
          input: { value: 'Ada' },
          expect: { path: at },
        },
        {
          action: 'fill',
          locator: { role: 'textbox', name: 'Email' },
          input: { value: 'ada@example.test' },
          expect: { path: at },
        },
        { action: 'fill', locator: { label: 'Password' }, input: { secret: 'password' }, expect: { path: at } },
        { action: 'click', locator: { role: 'checkbox', name: 'I accept the terms' }, expect: { path: at } },
        { action: 'click', locator: { role: 'button', name: 'Sign up' }, expect: { path: '/flows/welcome.html' } },
      ]);
      expect(path.endsWith('recorded-signup.json')).toBe(true);
      const file = readFileSync(hooks.fileOf('recorded-signup.json'), 'utf8');
      expect(JSON.parse(file)).toEqual(flow);
      for (const where of [file, await hooks.history(driver)]) {
        expect(where).not.toContain(SECRET);
      }
      const replayed = await replay(flow);
      expect(replayed).toMatchObject({ completed: 6, stopped_at: null, reason: null });
      expect((await driver.ok<{ total: number }>('search_page', { pattern: 'Welcome, Ada' })).total).toBe(1);
    });

    it("records a person's listing filter and two-page checkout from trusted input; each replays green, and the checkout stops at a renamed button", async () => {
      const waitForPath = async (tab: string, path: string): Promise<void> => {
        await pollUntil(
          async () =>
            (await driver.evaluateInTab<string>(tab, 'location.pathname + location.search')) === path
              ? true
              : undefined,
          { timeoutMs: 10_000, intervalMs: 100, onTimeout: () => new Error(`the tab never reached ${path}`) },
        );
      };
      const listTab = await driver.openTab(server.url('/flows/list.html'));
      await driver.ok('record_start', { tab_id: listTab, name: 'Recorded listing' });
      await driver.clickInTab(listTab, '#q');
      await driver.ok('send_keys', { tab_id: listTab, keys: 'table' });
      await driver.clickInTab(listTab, '#apply');
      await waitForPath(listTab, '/flows/list.html?category=&q=table');
      const listing = (await driver.ok<{ flow: { steps: unknown[] } }>('record_stop', {})).flow;
      expect(listing.steps).toEqual([
        { action: 'navigate', url: server.url('/flows/list.html'), expect: { path: '/flows/list.html' } },
        {
          action: 'fill',
          locator: { role: 'searchbox', name: 'Search products' },
          input: { value: 'table' },
          expect: { path: '/flows/list.html' },
        },
        // An expectation is the path (the query the page pushed is not part of it).
        { action: 'click', locator: { role: 'button', name: 'Apply' }, expect: { path: '/flows/list.html' } },
      ]);
      expect(await replay(listing)).toMatchObject({ completed: 3, stopped_at: null, reason: null });
      expect((await driver.ok<{ total: number }>('search_page', { pattern: '2 results' })).total).toBe(1);

      const cartTab = await driver.openTab(server.url('/flows/cart.html'));
      await driver.ok('record_start', { tab_id: cartTab, name: 'Recorded checkout' });
      await driver.clickInTab(cartTab, 'a[href="/flows/checkout.html"]');
      await waitForPath(cartTab, '/flows/checkout.html');
      await driver.clickInTab(cartTab, '#address');
      await driver.ok('send_keys', { tab_id: cartTab, keys: '7 Person Street' });
      await driver.clickInTab(cartTab, 'button[type=submit]');
      await waitForPath(cartTab, '/flows/done.html?address=7+Person+Street');
      const checkout = (await driver.ok<{ flow: { steps: unknown[] } }>('record_stop', {})).flow;
      expect(checkout.steps).toEqual([
        { action: 'navigate', url: server.url('/flows/cart.html'), expect: { path: '/flows/cart.html' } },
        { action: 'click', locator: { role: 'link', name: 'Checkout' }, expect: { path: '/flows/checkout.html' } },
        {
          action: 'fill',
          locator: { role: 'textbox', name: 'Address' },
          input: { value: '7 Person Street' },
          expect: { path: '/flows/checkout.html' },
        },
        { action: 'click', locator: { role: 'button', name: 'Place order' }, expect: { path: '/flows/done.html' } },
      ]);
      expect(await replay(checkout)).toMatchObject({ completed: 4, stopped_at: null, reason: null });
      expect(
        (await driver.ok<{ total: number }>('search_page', { pattern: 'Shipping to 7 Person Street' })).total,
      ).toBe(1);
      control.placeOrderLabel = 'Submit order';
      try {
        const stopped = await replay(checkout);
        expect(stopped).toMatchObject({ completed: 3, stopped_at: 4 });
        expect(stopped.reason).toBe(
          'step 4 (click button "Place order"): no element on the page is button "Place order"',
        );
      } finally {
        control.placeOrderLabel = 'Place order';
      }
    });
  });
}
