import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { pollUntil } from '../../../src/shared/time';
import type { StateSummary } from '../../../src/tools/actions';
import type { Driver } from '../harness/drivers';
import { addFindingsPages } from '../harness/findings-pages';
import { FixtureServer } from '../harness/fixture-server';

type Element = StateSummary['elements'][number];

/**
 * What an acceptance run on pages written by others found, one test per class of page, run unchanged
 * over both transports: a form in a same-origin iframe, elements that are only `draggable`, one-character
 * controls, a link in a shadow root with slotted text, a menu that opens on hover over the click's
 * target, and a mouse drag while another tab is open.
 */
export function defineFindingsContract(name: string, start: () => Promise<Driver>): void {
  describe(`pages written by others, over ${name}`, () => {
    let driver: Driver;
    let tab: string;
    const server = new FixtureServer();
    addFindingsPages(server);

    beforeAll(async () => {
      await server.start();
      driver = await start();
      tab = await driver.openTab(server.url('/a.html'));
    });

    afterAll(async () => {
      await driver?.close();
      await server.stop();
    });

    async function open(path: string): Promise<StateSummary> {
      await driver.ok('navigate', { url: server.url(path) });
      return driver.ok<StateSummary>('state');
    }

    async function state(): Promise<StateSummary> {
      return driver.ok<StateSummary>('state');
    }

    /** An indexed element by its id or else its accessible name. */
    function find(summary: StateSummary, key: string): Element {
      const found =
        summary.elements.find((element) => element.attributes['id'] === key) ??
        summary.elements.find((element) => element.name === key);
      if (found === undefined) {
        throw new Error(`no indexed element "${key}" in:\n${summary.text}`);
      }
      return found;
    }

    it('types into, clicks, reads and uploads to the controls of a same-origin iframe', async () => {
      const summary = await open('/find/frame.html');
      expect(summary.text).toContain('Inner text marker');
      expect(await driver.ok('input', { index: find(summary, 'q').index, text: 'inside the frame' })).toMatchObject({
        value: 'inside the frame',
        value_matches: true,
      });
      await driver.ok('click', { index: find(summary, 'Go').index });
      expect(await driver.ok('click', { index: find(summary, 'keep').index })).toMatchObject({ checked: true });
      const content = Buffer.from('frame upload').toString('base64');
      expect(
        await driver.ok('upload_file', {
          index: find(summary, 'doc').index,
          files: [{ name: 'note.txt', mime_type: 'text/plain', content_base64: content }],
        }),
      ).toMatchObject({ files: [{ name: 'note.txt' }] });
      expect(await driver.ok('find_text', { text: 'Inner text marker' })).toMatchObject({ found: true });
      // The page reads the file it was given in its own time (an awaited file.text()), after the upload
      // answered: the state is read until the page has said what it read (a loaded run read it before).
      let last = '';
      const after = await pollUntil(
        async () => {
          const summary = await state();
          last = summary.text;
          return last.includes('files: note.txt says') ? summary : undefined;
        },
        {
          timeoutMs: 5_000,
          intervalMs: 50,
          onTimeout: () => new Error(`the page never said what it read of the file:\n${last}`),
        },
      );
      expect(after.text).toContain('go clicks: 1, query: inside the frame');
      expect(after.text).toContain('files: note.txt says frame upload');
      expect(find(after, 'q').attributes['value']).toBe('inside the frame');
      expect(find(after, 'keep').attributes['checked']).toBe('true');
    });

    /** The index printed on the line that ends with `ending` (elements named by their text alone). */
    function indexOnLine(summary: StateSummary, ending: string): number {
      const line = summary.text.split('\n').find((candidate) => candidate.trim().endsWith(ending));
      const index = /\[(\d+)\]/.exec(line ?? '')?.[1];
      if (index === undefined) {
        throw new Error(`no indexed line ending "${ending}" in:\n${summary.text}`);
      }
      return Number(index);
    }

    it('indexes elements that are only draggable and drags one onto another by index (HTML5 drag and drop)', async () => {
      const summary = await open('/find/sortable.html');
      expect(summary.text).toContain('<div /> Beta');
      const alpha = indexOnLine(summary, '<div /> Alpha');
      const gamma = indexOnLine(summary, '<div /> Gamma');
      expect(await driver.ok('drag', { index: alpha, to_index: gamma })).toMatchObject({
        method: 'html5',
        retried: null,
      });
      expect((await state()).text).toContain('order: Beta, Gamma, Alpha');
    });

    it('prints one-character controls with their character and presses them by index', async () => {
      const summary = await open('/find/keypad.html');
      const lines = summary.text.split('\n');
      for (const key of ['7', '8', '+', '=', '×']) {
        expect(lines.filter((line) => /^\[\d+\]<button \/> /.test(line) && line.endsWith(` ${key}`))).toHaveLength(1);
      }
      expect(lines.filter((line) => /^\[\d+\]<span \/> 0$/.test(line))).toHaveLength(1);
      for (const key of ['7', '+', '8', '0', '=', '×']) {
        await driver.ok('click', { index: indexOnLine(summary, ` ${key}`) });
      }
      const after = await state();
      expect(after.text).toContain('display: 7+80=87');
      expect(after.text).toContain('dialog: closed');
    });

    it('indexes a link in a shadow root by its slotted text and follows it by index', async () => {
      const summary = await open('/find/shadow-link.html');
      const link = find(summary, 'Read the guide');
      expect(link.attributes['href']).toBe('/a.html');
      await driver.ok('click', { index: link.index });
      expect((await state()).url).toBe(server.url('/a.html'));
    });

    it('never answers ok when a menu that opened on hover (a timer) could take the click', async () => {
      const summary = await open('/find/hover-timeout.html');
      const response = await driver.send('click', { index: find(summary, 'Buy now').index });
      const after = (await state()).text;
      if (response.ok) {
        // The timer fired after the click: the button got it, and nothing else did.
        expect(after).toContain('clicks: buy 1, menu 0');
      } else {
        expect(response.error.code).toBe('ELEMENT_OCCLUDED');
        expect(response.error.message).toMatch(/menu/);
        expect(after).toContain('clicks: buy 0, menu 0');
      }
    });

    it('sends no press when a menu opened on hover (in the next frame) over the button: the error names it', async () => {
      const summary = await open('/find/hover-frame.html');
      const response = await driver.send('click', { index: find(summary, 'Buy now').index });
      expect(response).toMatchObject({ ok: false, error: { code: 'ELEMENT_OCCLUDED' } });
      expect(response.ok ? '' : response.error.message).toMatch(/covered by <div#menu>.*when the pointer came over it/);
      const after = (await state()).text;
      expect(after).toContain('clicks: buy 0, menu 0');
      expect(after).toContain('presses: none');
    });

    it('notices when an iframe that opened on hover covers the button: neither the hover nor the click is answered ok', async () => {
      const hovered = await driver.send('hover', {
        index: find(await open('/find/hover-promo-frame.html'), 'Buy now').index,
      });
      expect(hovered).toMatchObject({ ok: false, error: { code: 'ELEMENT_OCCLUDED' } });
      expect(hovered.ok ? '' : hovered.error.message).toMatch(
        /covered by <iframe#promo>.*when the pointer came over it/,
      );
      const clicked = await driver.send('click', {
        index: find(await open('/find/hover-promo-frame.html'), 'Buy now').index,
      });
      expect(clicked).toMatchObject({ ok: false, error: { code: 'ELEMENT_OCCLUDED' } });
      expect(clicked.ok ? '' : clicked.error.message).toContain('<iframe#promo>');
      expect((await state()).text).toContain('clicks: buy 0');
      // The promotion's document saw no press.
      expect(await driver.evaluateInTab(tab, 'document.title')).toBe('Hover promotion frame');
    });

    it('drags a slider with the mouse while another tab is open, and the drag lands', async () => {
      const other = await driver.openTab(server.url('/b.html'));
      await driver.ok('switch', { tab_id: tab });
      const summary = await open('/find/slider.html');
      const track = find(summary, 'Volume').box;
      expect(
        await driver.ok('drag', {
          index: find(summary, 'Volume').index,
          to_x: track.x + track.width * 0.75,
          to_y: track.y + track.height / 2,
        }),
      ).toMatchObject({ method: 'mouse' });
      expect((await state()).text).toContain('slider: 75');
      await driver.ok('close', { tab_id: other });
    });
  });
}
