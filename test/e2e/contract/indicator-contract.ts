import { mkdirSync, writeFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { pollUntil } from '../../../src/shared/time';
import type { Driver } from '../harness/drivers';
import { FixtureServer, html, page } from '../harness/fixture-server';
import { decodePng, encodePng, pixelAt, type Rgb, type RgbaImage } from '../harness/image';

/** The hostile page's own colour, everywhere it paints. */
const PAGE_COLOUR: Rgb = [250, 240, 200];
const TAG = 'tabpilot-control-indicator';
const OUT_DIR = resolve(import.meta.dirname, '../../../test-results');

/**
 * A page that tries to hide, restyle and click anything tabpilot might draw: its CSS hides every element
 * but its own with !important (the indicator's tag, popovers, the top layer), and it fills the viewport
 * with one fixed element, so a hit test anywhere that is not the indicator's Stop lands on it.
 */
const HOSTILE_CSS = `
  html, body { margin: 0; background: rgb(${PAGE_COLOUR.join(',')}); }
  #under { position: fixed; inset: 0; background: rgb(${PAGE_COLOUR.join(',')}); }
  body > :not(#under), html > :not(head):not(body), ${TAG}, [popover], :popover-open, ::backdrop {
    display: none !important; opacity: 0 !important; visibility: hidden !important;
  }`;

export interface IndicatorHooks {
  /** Presses the mouse at a point of the tab's viewport as a person does (trusted input). */
  pressAt(driver: Driver, tabId: string, x: number, y: number): Promise<void>;
  /** Waits until the stop the press asked for has let go of everything, as this transport shows it. */
  waitForStopped(driver: Driver, tabId: string): Promise<void>;
  /**
   * Evaluates in the tab's page without tabpilot (its own CDP session), to look at a released tab.
   * Undefined where one tab cannot be released alone (Node lets go of the whole browser).
   */
  lookWithoutTabpilot?(driver: Driver, tabId: string, expression: string): Promise<unknown>;
}

function isIndicatorBlue([r, g, b]: Rgb): boolean {
  return b > 180 && r < 60 && g > 60 && g < 120;
}

function isStopRed([r, g, b]: Rgb): boolean {
  return r > 180 && g < 80 && b < 80;
}

/** The box of the Stop button's red on the screenshot (the badge sits in the bottom right corner). */
function stopBox(image: RgbaImage): { x: number; y: number; count: number } {
  let sumX = 0;
  let sumY = 0;
  let count = 0;
  for (let y = Math.floor(image.height / 2); y < image.height; y++) {
    for (let x = Math.floor(image.width / 2); x < image.width; x++) {
      if (isStopRed(pixelAt(image, x, y))) {
        sumX += x;
        sumY += y;
        count++;
      }
    }
  }
  return { x: sumX / Math.max(count, 1), y: sumY / Math.max(count, 1), count };
}

/**
 * The in-page indicator on every controlled tab over a transport: drawn (proven on the decoded
 * screenshot), out of the page's reach (its CSS, its hit tests, its clicks, its removing it), in every new
 * document, absent from what the model reads, and its own Stop stops.
 */
export function defineIndicatorContract(name: string, start: () => Promise<Driver>, hooks: IndicatorHooks): void {
  describe(`in-page indicator over ${name}`, () => {
    const server = new FixtureServer();
    server.route('/hostile.html', (_req, res) =>
      html(res, page('Hostile', '<div id="under"></div>', `<style>${HOSTILE_CSS}</style>`)),
    );
    server.route('/next.html', (_req, res) =>
      html(res, page('Next', '<div id="under"><button id="go">Go</button></div>', `<style>${HOSTILE_CSS}</style>`)),
    );
    let driver: Driver;
    let tabId: string;

    const shot = async (): Promise<RgbaImage> => {
      const { data } = await driver.ok<{ data: string }>('screenshot', { tab_id: tabId, format: 'png' });
      return decodePng(Buffer.from(data, 'base64'));
    };
    const inPage = <T>(expression: string): Promise<T> => driver.evaluateInTab<T>(tabId, expression);
    const waitForIndicator = (): Promise<true> =>
      pollUntil(async () => ((await inPage<boolean>(`document.querySelector('${TAG}') !== null`)) ? true : undefined), {
        timeoutMs: 10_000,
        intervalMs: 100,
        onTimeout: () => new Error('the indicator never appeared in the page'),
      });

    beforeAll(async () => {
      await server.start();
      driver = await start();
      tabId = await driver.openTab(server.url('/hostile.html'));
    });

    afterAll(async () => {
      await driver?.close();
      await server.stop();
    });

    it('draws a border and a Stop badge that the page cannot hide with its CSS', async () => {
      await waitForIndicator();
      const image = await shot();
      mkdirSync(OUT_DIR, { recursive: true });
      writeFileSync(resolve(OUT_DIR, `indicator-${name.replace(/\W+/g, '-')}.png`), encodePng(image));
      const middle = Math.floor(image.height / 2);
      expect(isIndicatorBlue(pixelAt(image, 1, middle)), 'the left border').toBe(true);
      expect(isIndicatorBlue(pixelAt(image, image.width - 2, middle)), 'the right border').toBe(true);
      expect(isIndicatorBlue(pixelAt(image, Math.floor(image.width / 2), 1)), 'the top border').toBe(true);
      expect(pixelAt(image, Math.floor(image.width / 2), middle), 'the page shows inside the border').toEqual(
        PAGE_COLOUR,
      );
      expect(stopBox(image).count, 'the red Stop button in the badge').toBeGreaterThan(100);
    });

    it('is out of the page reach: no hit test meets it, its shadow root is closed, a removed one comes back', async () => {
      await waitForIndicator();
      const seen = await inPage<{ edge: string; inside: string; shadow: boolean; text: string }>(`(() => {
        const host = document.querySelector('${TAG}');
        return {
          edge: document.elementFromPoint(1, innerHeight / 2)?.id ?? '',
          inside: document.elementFromPoint(innerWidth / 2, innerHeight / 2)?.id ?? '',
          shadow: host.shadowRoot !== null,
          text: host.textContent,
        };
      })()`);
      expect(seen).toEqual({ edge: 'under', inside: 'under', shadow: false, text: '' });

      await inPage(`document.querySelector('${TAG}').remove()`);
      await waitForIndicator();
      await inPage(`document.querySelector('${TAG}').style.display = 'none'`);
      await pollUntil(
        async () =>
          (await inPage<boolean>(`!document.querySelector('${TAG}').getAttribute('style').includes('display: none;')`))
            ? true
            : undefined,
        { timeoutMs: 10_000, intervalMs: 100, onTimeout: () => new Error('the restyled indicator was not put back') },
      );
      expect(stopBox(await shot()).count, 'still drawn after the page removed and restyled it').toBeGreaterThan(100);

      // Clicks a page script makes are never trusted: they stop nothing.
      await inPage(`(() => {
        const host = document.querySelector('${TAG}');
        host.click();
        const image = document.elementFromPoint(innerWidth - 30, innerHeight - 20);
        image?.dispatchEvent(new MouseEvent('click', { bubbles: true, composed: true }));
      })()`);
    });

    it('shows in every new document of the tab and stays out of what the model reads', async () => {
      await driver.ok('navigate', { tab_id: tabId, url: server.url('/next.html') });
      await waitForIndicator();
      const state = await driver.ok<{ elements: Array<{ tag: string; name: string }>; text: string }>('state', {
        tab_id: tabId,
      });
      expect(state.elements.map((element) => element.name)).toContain('Go');
      expect(state.elements.some((element) => element.name.includes('Stop') || element.tag === TAG)).toBe(false);
      expect(state.text).not.toContain('tabpilot controls');
      // The page-made clicks of the test before stopped nothing: the tab is still controlled.
      const tabs = await driver.ok<{ tabs: Array<{ tab_id: string }> }>('tabs');
      expect(tabs.tabs.map((tab) => tab.tab_id)).toContain(tabId);
    });

    it.runIf(hooks.lookWithoutTabpilot !== undefined)(
      'leaves the page when the tab is released and comes back when it is attached again',
      async () => {
        const look = hooks.lookWithoutTabpilot;
        if (look === undefined) {
          return;
        }
        await driver.ok('release', { tab_id: tabId });
        // Taken down by the release itself, before the debugger lets go (not by the lease running out).
        expect(await look(driver, tabId, `document.querySelector('${TAG}') === null`)).toBe(true);
        await driver.ok('attach', { tab_id: tabId });
        await waitForIndicator();
      },
    );

    it("stops everything when a person presses the indicator's Stop", async () => {
      const stop = stopBox(await shot());
      expect(stop.count).toBeGreaterThan(100);
      await hooks.pressAt(driver, tabId, stop.x, stop.y);
      await hooks.waitForStopped(driver, tabId);
    });
  });
}
