import { buildSync } from 'esbuild';
import { chromium, type Browser, type Locator, type Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type * as LocatorModule from '../../src/dom/in-page/locator';
import type { PageLocator } from '../../src/dom/payload';
import { findChromium } from '../../src/platform/node/chromium-launcher';
import { FixtureServer } from './harness/fixture-server';
import { addFlowPages } from './harness/flow-pages';

/** The in-page locator code alone, as a script that puts its functions on window.flowLocators. */
const LOCATOR_SCRIPT = buildSync({
  entryPoints: ['src/dom/in-page/locator.ts'],
  bundle: true,
  write: false,
  format: 'iife',
  globalName: 'flowLocators',
  target: 'chrome125',
}).outputFiles[0]?.text;

type FlowLocatorApi = typeof LocatorModule;

/** Every element a person acts on in the flow pages, as CSS to reach it from the test. */
const TARGETS: Record<string, string[]> = {
  '/flows/signup.html': ['#name', '#email', '#password', '#plan', '#terms', 'button', 'h1'],
  '/flows/list.html': ['#category', '#q', '#apply', '#items li:nth-of-type(2)', '#count'],
  '/flows/cart.html': ['a', 'h1'],
  '/flows/checkout.html': ['#address', 'button'],
};

function playwrightLocator(page: Page, locator: PageLocator): Locator {
  if ('role' in locator) {
    return page.getByRole(locator.role as Parameters<Page['getByRole']>[0], { name: locator.name, exact: true });
  }
  if ('label' in locator) {
    return page.getByLabel(locator.label, { exact: true });
  }
  if ('text' in locator) {
    return page.getByText(locator.text, { exact: true });
  }
  return 'test_id' in locator ? page.getByTestId(locator.test_id) : page.locator(locator.css);
}

/**
 * Locators derived in the page (src/dom/in-page/locator.ts) name the element they came from and no other,
 * in the documented order, both to tabpilot's resolver and to Playwright's own locators (what the export
 * writes): the sign-up's, the listing's and the checkout's elements.
 */
describe('flow locators', () => {
  const server = new FixtureServer();
  let browser: Browser;
  let page: Page;

  beforeAll(async () => {
    addFlowPages(server);
    await server.start();
    browser = await chromium.launch({ executablePath: findChromium(), headless: true });
    page = await browser.newPage();
  });

  afterAll(async () => {
    await browser?.close();
    await server.stop();
  });

  async function derive(css: string): Promise<{ locator: PageLocator; resolved: number; same: boolean }> {
    return page.evaluate((target) => {
      const api = (window as unknown as { flowLocators: FlowLocatorApi }).flowLocators;
      const element = document.querySelector(target);
      if (element === null) {
        throw new Error(`no ${target}`);
      }
      const locator = api.deriveLocator(element);
      const found = api.locateAll(locator);
      return { locator, resolved: found.length, same: found[0] === element };
    }, css);
  }

  it('derives each element its own locator, which Playwright resolves to that element too', async () => {
    const derived: Record<string, PageLocator> = {};
    for (const [path, targets] of Object.entries(TARGETS)) {
      await page.goto(server.url(path));
      await page.addScriptTag({ content: LOCATOR_SCRIPT });
      for (const css of targets) {
        const { locator, resolved, same } = await derive(css);
        derived[`${path} ${css}`] = locator;
        expect({ css, resolved, same }).toEqual({ css, resolved: 1, same: true });
        const theirs = playwrightLocator(page, locator);
        expect(await theirs.count(), `${css}: ${JSON.stringify(locator)}`).toBe(1);
        expect(await theirs.evaluate((element, target) => element === document.querySelector(target), css)).toBe(true);
      }
    }
    expect(derived).toEqual({
      '/flows/signup.html #name': { role: 'textbox', name: 'Full name' },
      '/flows/signup.html #email': { role: 'textbox', name: 'Email' },
      // A password field has no role: its label names it.
      '/flows/signup.html #password': { label: 'Password' },
      '/flows/signup.html #plan': { role: 'combobox', name: 'Plan' },
      '/flows/signup.html #terms': { role: 'checkbox', name: 'I accept the terms' },
      '/flows/signup.html button': { role: 'button', name: 'Sign up' },
      '/flows/signup.html h1': { role: 'heading', name: 'Create your account' },
      '/flows/list.html #category': { role: 'combobox', name: 'Category' },
      '/flows/list.html #q': { role: 'searchbox', name: 'Search products' },
      '/flows/list.html #apply': { role: 'button', name: 'Apply' },
      '/flows/list.html #items li:nth-of-type(2)': { text: 'Blue kettle' },
      '/flows/list.html #count': { text: '5 results' },
      '/flows/cart.html a': { role: 'link', name: 'Checkout' },
      '/flows/cart.html h1': { role: 'heading', name: 'Your cart' },
      '/flows/checkout.html #address': { role: 'textbox', name: 'Address' },
      '/flows/checkout.html button': { role: 'button', name: 'Place order' },
    });
  });

  it('falls back to the test id, then a CSS path, when names are not unique', async () => {
    await page.setContent(`<div id="list"><button data-testid="first">Buy</button><button>Buy</button></div>`);
    await page.addScriptTag({ content: LOCATOR_SCRIPT });
    expect((await derive('[data-testid=first]')).locator).toEqual({ test_id: 'first' });
    const second = await derive('#list button:nth-of-type(2)');
    expect(second).toEqual({ locator: { css: '#list > button:nth-of-type(2)' }, resolved: 1, same: true });
  });
});
