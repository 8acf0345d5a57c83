import { mkdirSync, writeFileSync } from 'node:fs';
import type { ServerResponse } from 'node:http';
import { resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { pollUntil } from '../../src/shared/time';
import { ExtensionDriver } from './harness/drivers';
import { FixtureServer, html, page } from './harness/fixture-server';
import { encodePng, pixelAt, type Rgb, type RgbaImage } from './harness/image';
import { PanelPage } from './harness/panel';
import { elementIndex } from './harness/panel-fixtures';

const OUT_DIR = resolve(import.meta.dirname, '../../test-results');
const ITEMS = 120;

/** A long page: a form at the top (a checked box, a filled field, a submit that loads another page), then many rows. */
const LONG_PAGE = page(
  'Long list',
  `<form action="/submitted.html" method="get" style="padding:20px">
     <label>Subscribe <input type="checkbox" id="subscribe" checked></label>
     <label>City <input id="city" value="Lisbon"></label>
     <button id="send" style="width:160px;height:40px">Send form</button>
   </form>
   ${Array.from({ length: ITEMS }, (_, i) => `<p style="height:60px;margin:0"><button>Item ${i + 1}</button></p>`).join('')}`,
);

function isIndexPink([r, g, b]: Rgb): boolean {
  return r > 160 && g < 60 && b > 60 && b < 130;
}

function isMarkOrange([r, g, b]: Rgb): boolean {
  return r > 220 && g > 110 && g < 170 && b < 60;
}

/** Whether any pixel in the box passes the test. */
function anyIn(
  image: RgbaImage,
  box: { x: number; y: number; width: number; height: number },
  test: (p: Rgb) => boolean,
): boolean {
  for (let y = Math.ceil(box.y); y < Math.floor(box.y + box.height); y++) {
    for (let x = Math.ceil(box.x); x < Math.floor(box.x + box.width); x++) {
      if (x >= 0 && y >= 0 && x < image.width && y < image.height && test(pixelAt(image, x, y))) {
        return true;
      }
    }
  }
  return false;
}

/**
 * The Page view as a person uses it, in the built extension over a real page: how much of the page the
 * list covers and reaching the rest, a filter, each element's state, the screenshot with the indexes drawn
 * and the pointed element marked (on the decoded picture), zoom, and a read of the page after a submit.
 */
describe('side panel page view', () => {
  const server = new FixtureServer();
  server.route('/long.html', (_req, res) => html(res, LONG_PAGE));
  /** The submitted page answers only when the test lets it: the click is answered before the tab loads it. */
  const held: ServerResponse[] = [];
  server.route('/submitted.html', (_req, res) => {
    held.push(res);
  });
  const releaseHeld = (): void => {
    for (const res of held.splice(0)) {
      html(res, page('Submitted', '<h1>Thanks</h1><a href="/long.html">Back</a>'));
    }
  };
  let driver: ExtensionDriver;
  let panel: PanelPage;

  beforeAll(async () => {
    await server.start();
    mkdirSync(OUT_DIR, { recursive: true });
    driver = await ExtensionDriver.start();
    await driver.client.createTab(server.url('/long.html'));
    panel = await PanelPage.open(driver.client);
    await panel.click('#attach');
    await panel.waitForText('#tabs', 'Long list');
    await panel.view('page');
    await panel.click('#refresh-state');
    await panel.waitForText('#page-title', 'Long list');
  });

  afterAll(async () => {
    releaseHeld();
    await driver?.close();
    await server.stop();
  });

  it('says how much of the page the list covers, and reads the whole page on request', async () => {
    const near = await panel.waitForText('#elements-count', 'elements shown');
    expect(near).toMatch(
      /^\d+ elements shown, near the view; the page goes on \d+ px below: read the whole page or scroll for more$/,
    );
    const nearCount = await panel.eval<number>(`document.querySelectorAll('#elements li').length`);
    expect(nearCount).toBeLessThan(ITEMS);
    expect(await panel.exists(`#elements li[data-index]`)).toBe(true);
    await panel.click('#read-whole-page');
    await panel.waitForText('#elements-count', 'from the whole page');
    const all = await panel.eval<number>(`document.querySelectorAll('#elements li').length`);
    expect(all).toBeGreaterThanOrEqual(ITEMS + 3);
    await elementIndex(panel, `"Item ${ITEMS}"`);
    expect(await panel.exists('#read-whole-page')).toBe(false);
  });

  it('filters the rows and shows each element with its value or checked state', async () => {
    await panel.type('#elements-filter', `Item ${ITEMS}`);
    await panel.waitFor(`document.querySelectorAll('#elements li').length === 1`, 'one row for the filter');
    expect(await panel.text('#elements li')).toContain(`"Item ${ITEMS}"`);
    expect(await panel.text('#elements-count')).toMatch(/^1 of \d+ elements shown, from the whole page$/);
    await panel.type('#elements-filter', 'zzz-nothing');
    await panel.waitForText('#elements-none', 'No element matches');
    await panel.type('#elements-filter', '');
    const box = await panel.text(`#elements li[data-index="${await elementIndex(panel, 'checkbox')}"]`);
    expect(box).toContain('· checked');
    const city = await panel.text(`#elements li[data-index="${await elementIndex(panel, '"City"')}"]`);
    expect(city).toContain('value "Lisbon"');
  });

  it('draws the indexes on the screenshot, marks the element pointed at, and zooms', async () => {
    await panel.click('#refresh-state');
    await panel.waitFor(
      `document.getElementById('screenshot')?.complete && document.getElementById('screenshot').naturalWidth > 0`,
      'the screenshot',
    );
    const send = await elementIndex(panel, '"Send form"');
    const label = `#shot-indexes .shot-box[data-index="${send}"] .shot-label`;
    await panel.waitFor(`document.querySelector(${JSON.stringify(label)})`, 'the index label of Send form');
    await panel.eval(`document.querySelector(${JSON.stringify(label)}).scrollIntoView({ block: 'center' })`);
    // The scroll lands and is painted in the panel's own time: looked at until the label's box shows it.
    let image = await pollUntil(
      async () => {
        const shot = await panel.screenshot();
        const labelBox = await panel.box(label);
        return labelBox !== null && anyIn(shot, labelBox, isIndexPink) ? shot : undefined;
      },
      { timeoutMs: 5_000, intervalMs: 100, onTimeout: () => new Error('the index was never drawn at its label') },
    );
    writeFileSync(resolve(OUT_DIR, 'side-panel-page-indexes.png'), encodePng(image));
    expect(await panel.text(label)).toBe(String(send));

    await panel.hover(`#elements li[data-index="${send}"]`);
    await panel.waitFor(`document.getElementById('shot-marked')`, 'the pointed element marked');
    await panel.eval(`document.getElementById('shot-marked').scrollIntoView({ block: 'center' })`);
    image = await panel.screenshot();
    writeFileSync(resolve(OUT_DIR, 'side-panel-page-marked.png'), encodePng(image));
    const marked = await panel.box('#shot-marked');
    expect(marked).not.toBeNull();
    // The mark's outline is drawn just outside the element's box.
    const around =
      marked === null
        ? { x: 0, y: 0, width: 0, height: 0 }
        : { x: marked.x - 5, y: marked.y - 5, width: marked.width + 10, height: marked.height + 10 };
    expect(anyIn(image, around, isMarkOrange), 'the mark drawn').toBe(true);

    const before = await panel.box('#screenshot');
    await panel.click('#zoom-in');
    await panel.waitForText('#zoom-level', '150%');
    const after = await panel.box('#screenshot');
    expect(after?.width ?? 0).toBeCloseTo((before?.width ?? 0) * 1.5, 0);
    // The frame scrolls: the picture grows, the panel does not.
    expect(await panel.eval<number>('document.documentElement.scrollWidth')).toBeLessThanOrEqual(
      await panel.eval<number>('window.innerWidth'),
    );
    await panel.click('#zoom-out');
    await panel.waitForText('#zoom-level', '100%');
  });

  it('reads the page again once a submit has taken the tab to the next page', async () => {
    const send = await elementIndex(panel, '"Send form"');
    await panel.click(`#elements li[data-index="${send}"]`);
    await panel.click('#element-actions [data-action="click"]');
    // The submit's request reached the server, which holds it: the tab is between the two pages.
    await pollUntil(() => (held.length === 1 ? true : undefined), {
      timeoutMs: 15_000,
      intervalMs: 50,
      onTimeout: () => new Error('the submit never reached the server'),
    });
    releaseHeld();
    await panel.waitForText('#page-title', 'Submitted', 20_000);
    await elementIndex(panel, '"Back"');
    expect(await panel.exists('#page-stale')).toBe(false);
  });
});
