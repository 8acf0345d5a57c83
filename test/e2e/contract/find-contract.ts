import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { CommandResponse } from '../../../src/protocol/commands';
import type { StateSummary } from '../../../src/tools/actions';
import type { Driver } from '../harness/drivers';
import { addFindPages } from '../harness/find-pages';
import { FixtureServer } from '../harness/fixture-server';

interface FoundMatch {
  match: string;
  index: number;
  tag: string;
  context: string;
  visible: boolean;
  frame: string | null;
}

interface FindResult {
  matches: FoundMatch[];
  total: number;
}

/**
 * `find` over both transports: the whole page (below the fold, in a same-origin and a cross-site frame),
 * never hidden text or a password, indexes that `click` takes, `scroll_to`, regexes and bad patterns.
 */
export function defineFindContract(name: string, start: () => Promise<Driver>): void {
  describe(`find contract over ${name}`, () => {
    let driver: Driver;
    const server = new FixtureServer();
    addFindPages(server);

    beforeAll(async () => {
      await server.start();
      driver = await start();
      await driver.openTab(server.url('/find/page.html'));
    });

    afterAll(async () => {
      await driver?.close();
      await server.stop();
    });

    async function open(): Promise<void> {
      await driver.ok('navigate', { url: server.url('/find/page.html') });
    }

    function find(params: Record<string, unknown>): Promise<FindResult> {
      return driver.ok<FindResult>('find', params);
    }

    async function failure(params: Record<string, unknown>): Promise<CommandResponse & { ok: false }> {
      const response = await driver.send('find', params);
      if (response.ok) {
        throw new Error(`find succeeded but should have failed: ${JSON.stringify(response.result)}`);
      }
      return response;
    }

    it('finds a text in the whole page and its frames, and never where no person sees it', async () => {
      await open();
      const found = await find({ text: 'zephyr' });
      expect(found.total).toBe(5);
      // 40 characters either side, over the page's text as read (the frame's text where its iframe is).
      expect(found.matches.map((match) => match.context)).toEqual([
        'Zephyr at the top of the page Add a zephyr add',
        'Zephyr at the top of the page Add a zephyr added 0 zephyr in same frame Press in s',
        'he top of the page Add a zephyr added 0 zephyr in same frame Press in same The deep ze',
        'yr in same frame Press in same The deep zephyr lies here',
        'zephyr in cross frame Press in cross',
      ]);
      const [top, button, same, deep, cross] = found.matches;
      expect(top).toMatchObject({ match: 'Zephyr', tag: 'p', visible: true, frame: null });
      // The text is in a <b> inside the button: the match's element is the button, what a click takes.
      expect(button).toMatchObject({ match: 'zephyr', tag: 'button', visible: true, frame: null });
      expect(same).toMatchObject({ tag: 'p', visible: true, frame: server.url('/find/child.html?who=same') });
      expect(deep).toMatchObject({ tag: 'p', visible: false, frame: null });
      expect(cross).toMatchObject({ tag: 'p', visible: true, frame: server.crossUrl('/find/child.html?who=cross') });
      expect(new Set(found.matches.map((match) => match.index)).size).toBe(5);
      for (const hidden of ['display none', 'visibility hidden', 'aria hidden', 'password']) {
        expect((await find({ text: `zephyr ${hidden}` })).total, hidden).toBe(0);
      }
      expect((await find({ text: 'zephyr-password' })).total).toBe(0);
    });

    it('gives indexes that click takes, before any state of the page', async () => {
      await open();
      const button = (await find({ text: 'add a zephyr' })).matches[0];
      expect(button?.tag).toBe('button');
      await driver.ok('click', { index: button?.index });
      expect((await find({ text: 'added 1' })).total).toBe(1);
      // A state afterwards numbers the same button the same way.
      const state = await driver.ok<StateSummary>('state');
      expect(state.elements.find((element) => element.name === 'Add a zephyr')?.index).toBe(button?.index);
      await driver.ok('click', { index: button?.index });
      expect((await find({ text: 'added 2' })).total).toBe(1);
    });

    it('gives indexes in a cross-site frame that click takes', async () => {
      await open();
      const press = (await find({ text: 'press in cross' })).matches;
      expect(press).toHaveLength(1);
      expect(press[0]).toMatchObject({ tag: 'button', frame: server.crossUrl('/find/child.html?who=cross') });
      await driver.ok('click', { index: press[0]?.index });
      expect((await find({ text: 'pressed in cross' })).total).toBe(1);
    });

    it('scrolls a match below the fold into view', async () => {
      await open();
      const before = await find({ text: 'deep zephyr' });
      expect(before.matches[0]?.visible).toBe(false);
      const after = await find({ text: 'deep zephyr', scroll_to: 1 });
      expect(after.matches[0]).toMatchObject({ visible: true, index: before.matches[0]?.index });
      // Scrolled down 4000 px: the top of the page is out of view now.
      const top = await find({ text: 'at the top' });
      expect(top.matches[0]?.visible).toBe(false);
      const nothing = await failure({ text: 'deep zephyr', scroll_to: 2 });
      expect(nothing.error.code).toBe('INVALID_PARAMS');
      expect(nothing.error.message).toContain('scroll_to');
    });

    it('tells a match scrolled out of a container from one in view, and scrolls the container to it', async () => {
      await driver.ok('navigate', { url: server.url('/find/box.html') });
      expect((await find({ text: 'scrolled box' })).matches[0]).toMatchObject({ tag: 'div', visible: false });
      expect((await find({ text: 'scrolled box', scroll_to: 1 })).matches[0]?.visible).toBe(true);
    });

    it('takes a regex and case sensitivity, counts past max_results, and refuses a bad pattern', async () => {
      await open();
      const frames = await find({ regex: 'zeph[a-z]+ in (same|cross) frame' });
      expect(frames.matches.map((match) => match.match)).toEqual(['zephyr in same frame', 'zephyr in cross frame']);
      expect((await find({ text: 'Zephyr', case_sensitive: true })).total).toBe(1);
      const few = await find({ text: 'zephyr', max_results: 2 });
      expect(few.matches).toHaveLength(2);
      expect(few.total).toBe(5);

      const bad = await failure({ regex: 'zephyr(' });
      expect(bad.error.code).toBe('INVALID_PARAMS');
      expect(bad.error.message).toContain('regex');
      for (const params of [{}, { text: 'a', regex: 'b' }, { text: 'a', max_results: 201 }]) {
        expect((await failure(params)).error.code, JSON.stringify(params)).toBe('INVALID_PARAMS');
      }
    });
  });
}
