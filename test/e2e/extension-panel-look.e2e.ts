import { mkdirSync, writeFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ExtensionDriver } from './harness/drivers';
import { FixtureServer } from './harness/fixture-server';
import { encodePng, luminance, pixelAt, type Rgb, type RgbaImage } from './harness/image';
import { PanelPage, SIDE_PANEL_WIDTH, type Box } from './harness/panel';

const OUT_DIR = resolve(import.meta.dirname, '../../test-results');

/** The controls a person needs first; each must be on screen, inside the panel's width. */
const KEY_ELEMENTS = [
  '#status',
  '#stop',
  '#now',
  '#debugger-state',
  '#attach',
  '#release',
  '#tabs li',
  '.views',
  '#refresh-state',
];

function contrast(a: Rgb, b: Rgb): number {
  const [light, dark] = [luminance(a), luminance(b)].sort((x, y) => y - x) as [number, number];
  return (light + 0.05) / (dark + 0.05);
}

/** The highest contrast between any pixel in the box and the given background: text drawn there shows. */
function bestContrast(image: RgbaImage, box: Box, background: Rgb): number {
  let best = 1;
  for (let y = Math.ceil(box.y); y < Math.floor(box.y + box.height); y++) {
    for (let x = Math.ceil(box.x); x < Math.floor(box.x + box.width); x++) {
      best = Math.max(best, contrast(pixelAt(image, x, y), background));
    }
  }
  return best;
}

function isRed([r, g, b]: Rgb): boolean {
  return r > 180 && g < 110 && b < 110;
}

function isBlue([r, g, b]: Rgb): boolean {
  return b > 180 && r < 110 && b - g > 40;
}

/**
 * A picture of the panel at the side panel's width, in the light and the dark theme: the key controls are
 * on screen and readable (pixels, not just the DOM), the stop button is red, the attach button blue.
 */
describe('side panel look', () => {
  const server = new FixtureServer();
  let driver: ExtensionDriver;
  let panel: PanelPage;

  beforeAll(async () => {
    await server.start();
    driver = await ExtensionDriver.start();
    await driver.client.createTab(server.url('/a.html'));
    panel = await PanelPage.open(driver.client);
    await panel.click('#attach');
    await panel.waitForText('#tabs', 'Page A');
    mkdirSync(OUT_DIR, { recursive: true });
  });

  afterAll(async () => {
    await driver?.close();
    await server.stop();
  });

  /**
   * `width` is the panel's width on screen in device px; `zoom` the browser zoom, which makes the CSS
   * width width / zoom and every CSS px zoom device px (Chrome's zoom of the panel page).
   */
  async function checkLook(theme: 'light' | 'dark', width = SIDE_PANEL_WIDTH, zoom = 1): Promise<void> {
    await panel.session.send('Emulation.setEmulatedMedia', {
      features: [{ name: 'prefers-color-scheme', value: theme }],
    });
    await panel.session.send('Emulation.setDeviceMetricsOverride', {
      width: Math.round(width / zoom),
      height: Math.round(800 / zoom),
      deviceScaleFactor: zoom,
      mobile: false,
    });
    const cssWidth = Math.round(width / zoom);
    await panel.waitFor(`window.innerWidth === ${cssWidth}`, `the panel at ${cssWidth} CSS px`);
    const shot = await panel.screenshot();
    writeFileSync(resolve(OUT_DIR, `side-panel-${theme}-${width}px-${zoom * 100}pct.png`), encodePng(shot));
    expect(shot.width).toBe(width);
    expect(await panel.eval<number>('document.documentElement.scrollWidth')).toBeLessThanOrEqual(cssWidth);
    // Boxes are in CSS px; the picture in device px.
    const image: RgbaImage = shot;
    const scaled = (box: Box): Box => ({
      x: box.x * zoom,
      y: box.y * zoom,
      width: box.width * zoom,
      height: box.height * zoom,
    });

    const background = pixelAt(image, 2, image.height - 2);
    if (theme === 'dark') {
      expect(luminance(background)).toBeLessThan(0.05);
    } else {
      expect(luminance(background)).toBeGreaterThan(0.9);
    }
    for (const selector of KEY_ELEMENTS) {
      let cssBox = await panel.box(selector);
      let picture = image;
      if (cssBox !== null && (cssBox.y + cssBox.height) * zoom > image.height) {
        // Zoomed in, the panel is taller than the screen: a person scrolls to it (the bar stays on top).
        await panel.eval(`document.querySelector(${JSON.stringify(selector)}).scrollIntoView({ block: 'center' })`);
        picture = await panel.screenshot();
        cssBox = await panel.box(selector);
      }
      const box = cssBox === null ? null : scaled(cssBox);
      expect(box, selector).not.toBeNull();
      if (box === null) {
        continue;
      }
      expect(box.width * box.height, `${selector} has a size`).toBeGreaterThan(0);
      expect(box.x, `${selector} left edge`).toBeGreaterThanOrEqual(0);
      expect(box.y, `${selector} top edge`).toBeGreaterThanOrEqual(0);
      expect(box.x + box.width, `${selector} right edge`).toBeLessThanOrEqual(width + 0.5);
      expect(box.y + box.height, `${selector} bottom edge`).toBeLessThanOrEqual(picture.height);
      expect(
        bestContrast(picture, box, pixelAt(picture, box.x + 1, box.y + 1)),
        `${selector} is readable`,
      ).toBeGreaterThan(3);
    }
    await panel.eval('window.scrollTo(0, 0)');
    const stopBox = await panel.box('#stop');
    const attachBox = await panel.box('#attach');
    if (stopBox === null || attachBox === null) {
      throw new Error('the stop and attach buttons must be there');
    }
    const stop = scaled(stopBox);
    const attach = scaled(attachBox);
    expect(isRed(pixelAt(image, stop.x + 3, stop.y + stop.height / 2)), 'the stop button is red').toBe(true);
    expect(isBlue(pixelAt(image, attach.x + 3, attach.y + attach.height / 2)), 'the attach button is blue').toBe(true);
  }

  it('shows its key controls, readable, in the light theme', async () => {
    await checkLook('light');
  });

  it('shows its key controls, readable, in the dark theme', async () => {
    await checkLook('dark');
  });

  it('fits the widest side panel (500 px) in both themes', async () => {
    await checkLook('light', 500);
    await checkLook('dark', 500);
  });

  it('stays usable at 200% zoom, at both widths, in both themes', async () => {
    await checkLook('light', SIDE_PANEL_WIDTH, 2);
    await checkLook('dark', SIDE_PANEL_WIDTH, 2);
    await checkLook('light', 500, 2);
  });
});
