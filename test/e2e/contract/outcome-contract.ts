import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { CommandResponse } from '../../../src/protocol/commands';
import type { ActionOutcome } from '../../../src/protocol/outcome';
import { outcomeText } from '../../../src/protocol/outcome-text';
import type { StateSummary } from '../../../src/tools/actions';
import type { Driver } from '../harness/drivers';
import { FixtureServer } from '../harness/fixture-server';
import { addOutcomePages } from '../harness/outcome-pages';

/** About 150 tokens at four characters a token: a typical step's outcome must fit. */
const TYPICAL_OUTCOME_CHARS = 600;

/**
 * Verified outcomes over both transports: what a click, a typed value and a link changed, a click that
 * changed nothing, and each closed reason (covered_by, page_error, request_failed, disabled). A failed
 * action is never reported as anything but failed.
 */
export function defineOutcomeContract(name: string, start: () => Promise<Driver>): void {
  describe(`outcome contract over ${name}`, () => {
    let driver: Driver;
    const server = new FixtureServer();
    addOutcomePages(server);

    beforeAll(async () => {
      await server.start();
      driver = await start();
      await driver.openTab(server.url('/outcome/page.html'));
    });

    afterAll(async () => {
      await driver?.close();
      await server.stop();
    });

    /** The page afresh, and the index of each element by its name. */
    async function open(): Promise<Map<string, number>> {
      await driver.ok('navigate', { url: server.url('/outcome/page.html') });
      const state = await driver.ok<StateSummary>('state', {});
      return new Map(state.elements.map((element) => [element.name, element.index]));
    }

    async function observed(
      action: string,
      params: Record<string, unknown>,
    ): Promise<CommandResponse & { outcome: ActionOutcome }> {
      const response = await driver.send(action, params, { outcome: true });
      if (response.outcome === undefined) {
        throw new Error(`${action} answered without an outcome: ${JSON.stringify(response)}`);
      }
      return { ...response, outcome: response.outcome };
    }

    function indexOf(indexes: Map<string, number>, element: string): number {
      const index = indexes.get(element);
      if (index === undefined) {
        throw new Error(`no element named ${element} in the state: ${[...indexes.keys()].join(', ')}`);
      }
      return index;
    }

    it('names the elements a click brought, with indexes a click takes, in a few dozen tokens', async () => {
      const indexes = await open();
      const { ok, outcome } = await observed('click', { index: indexOf(indexes, 'Open menu') });
      expect(ok).toBe(true);
      expect(outcome.verdict).toBe('changed');
      expect(outcome.reason).toBeUndefined();
      expect(outcome.settled).toBe(true);
      const labels = (outcome.appeared ?? []).map((element) => element.label);
      expect(labels).toEqual(['button "Rename"', 'button "Delete"']);
      expect(outcomeText(outcome).length).toBeLessThanOrEqual(TYPICAL_OUTCOME_CHARS);
      const rename = outcome.appeared?.[0]?.index;
      expect(typeof rename).toBe('number');
      const again = await observed('click', { index: rename });
      expect(again.ok).toBe(true);
    });

    it('says no_visible_change for a click that changed nothing, and answers no outcome unasked', async () => {
      const indexes = await open();
      const { ok, outcome } = await observed('click', { index: indexOf(indexes, 'Nothing') });
      expect(ok).toBe(true);
      expect(outcome).toMatchObject({ verdict: 'no_visible_change', settled: true });
      expect(outcome.reason).toBeUndefined();
      const unasked = await driver.send('click', { index: indexOf(indexes, 'Nothing') });
      expect(unasked.ok).toBe(true);
      expect(unasked.outcome).toBeUndefined();
    });

    it('fails with covered_by when a late overlay takes the press, never as a success', async () => {
      const indexes = await open();
      const response = await observed('click', { index: indexOf(indexes, 'Late') });
      expect(response.ok).toBe(false);
      expect(response.outcome.verdict).toBe('failed');
      expect(response.outcome.reason).toBe('covered_by');
      expect(response.outcome.detail).toContain('covered');
    });

    it('reports page_error when the handler throws, and request_failed when its request answers 500', async () => {
      let indexes = await open();
      const broken = await observed('click', { index: indexOf(indexes, 'Broken') });
      expect(broken.ok).toBe(true);
      expect(broken.outcome.verdict).toBe('no_visible_change');
      expect(broken.outcome.reason).toBe('page_error');
      expect(broken.outcome.errors?.join(' ')).toContain('TypeError');

      indexes = await open();
      const save = await observed('click', { index: indexOf(indexes, 'Save') });
      expect(save.ok).toBe(true);
      expect(save.outcome.reason).toBe('request_failed');
      expect(save.outcome.failed_requests).toEqual(['POST /outcome/api → 500']);
      expect(save.outcome.texts_appeared).toEqual(['Save failed: 500']);
      expect(save.outcome.verdict).toBe('changed');
    });

    it('says disabled for a click on a button disabled since the state, the value a field took, and a new page', async () => {
      const indexes = await open();
      const lock = await observed('click', { index: indexOf(indexes, 'Lock') });
      expect(lock.outcome.changed).toEqual([{ index: indexOf(indexes, 'Send'), label: 'button "Send" disabled' }]);
      const send = await observed('click', { index: indexOf(indexes, 'Send') });
      expect(send.ok).toBe(true);
      expect(send.outcome).toMatchObject({ verdict: 'no_visible_change', reason: 'disabled' });

      const typed = await observed('input', { index: indexOf(indexes, 'Name'), text: 'Ada' });
      expect(typed.ok).toBe(true);
      expect(typed.outcome.verdict).toBe('changed');
      expect(typed.outcome.changed).toEqual([{ index: indexOf(indexes, 'Name'), label: 'textbox "Name" value "Ada"' }]);

      const next = await observed('click', { index: indexOf(indexes, 'Next page') });
      expect(next.ok).toBe(true);
      expect(next.outcome).toMatchObject({ verdict: 'changed', new_document: true, title: 'Next' });
      expect(next.outcome.url).toBe(server.url('/outcome/next.html'));
    });

    it('names what a click removed and what it hid, and fails hovering the hidden one as offscreen', async () => {
      const indexes = await open();
      const dismissed = await observed('click', { index: indexOf(indexes, 'Dismiss') });
      expect(dismissed.outcome.verdict).toBe('changed');
      expect(dismissed.outcome.removed).toEqual([{ index: indexOf(indexes, 'Dismiss'), label: 'button "Dismiss"' }]);
      expect(dismissed.outcome.texts_removed).toEqual(['DismissPanel text']);
      const folded = await observed('click', { index: indexOf(indexes, 'Fold') });
      expect(folded.outcome.removed).toEqual([{ index: indexOf(indexes, 'Folded'), label: 'button "Folded"' }]);
      const hover = await observed('hover', { index: indexOf(indexes, 'Folded') });
      expect(hover.ok).toBe(false);
      expect(hover.outcome).toMatchObject({ verdict: 'failed', reason: 'offscreen' });
    });

    it('names the dialog, the new tab and the download an action brought', async () => {
      const indexes = await open();
      const hello = await observed('click', { index: indexOf(indexes, 'Say hello') });
      expect(hello.outcome).toMatchObject({ verdict: 'changed', dialog: { type: 'alert', message: 'Hello there' } });
      // Left open, the dialog waits for handle_dialog, whose answer has an outcome too, though the page
      // could not be watched while the dialog held it.
      await driver.setConfig({ dialogs: { auto_answer: false, confirm: 'dismiss' } });
      try {
        const held = await observed('click', { index: indexOf(indexes, 'Say hello') });
        expect(held.outcome).toMatchObject({ verdict: 'changed', dialog: { type: 'alert', message: 'Hello there' } });
        const answered = await observed('handle_dialog', { accept: true });
        expect(answered.ok, JSON.stringify(answered)).toBe(true);
        expect(answered.outcome, JSON.stringify(answered.outcome)).toMatchObject({
          verdict: 'no_visible_change',
          settled: true,
        });
      } finally {
        await driver.setConfig({ dialogs: { auto_answer: true, confirm: 'dismiss' } });
      }
      const tabs = await driver.ok<{ focused_tab_id: string }>('tabs', {});
      const opened = await observed('click', { index: indexOf(indexes, 'Next in a new tab') });
      expect(opened.outcome.verdict).toBe('changed');
      expect(typeof opened.outcome.new_tab_id).toBe('string');
      expect(opened.outcome.new_tab_id).not.toBe(tabs.focused_tab_id);
      await driver.ok('close', { tab_id: opened.outcome.new_tab_id });
      await driver.ok('switch', { tab_id: tabs.focused_tab_id });
      const notes = await observed('click', { index: indexOf(indexes, 'Get the notes') });
      expect(notes.outcome).toMatchObject({ verdict: 'changed', download: 'notes.txt' });
    });

    it('names the download Enter on a focused download link began, and does not wait for one the page prevented', async () => {
      const indexes = await open();
      await driver.ok('click', { index: indexOf(indexes, 'Focus the notes') });
      // The server answers after the outcome's settling: Enter waits for the link's download to begin.
      const entered = await observed('send_keys', { keys: 'Enter' });
      expect(entered.outcome).toMatchObject({ verdict: 'changed', download: 'notes.txt' });
      // The answer has it too, as a click's does: saved, with its path.
      expect(entered.ok && entered.result).toMatchObject({
        download: { suggested_filename: 'notes.txt', in_progress: false, path: expect.stringMatching(/notes/) },
      });
      await driver.ok('click', { index: indexOf(indexes, 'Focus the kept notes') });
      const started = performance.now();
      const kept = await observed('send_keys', { keys: 'Enter' });
      // The page prevented the link's click: nothing downloads, and the press does not wait out the 3 s a
      // download link's download may take to begin.
      expect(performance.now() - started).toBeLessThan(2_000);
      expect(kept.outcome.verdict).toBe('no_visible_change');
      expect(kept.outcome.download).toBeUndefined();
      expect(kept.ok && kept.result).not.toHaveProperty('download');
    });

    it('gives a batch one outcome for all its steps', async () => {
      const indexes = await open();
      const { ok, outcome } = await observed('batch', {
        steps: [
          { action: 'input', params: { index: indexOf(indexes, 'Name'), text: 'Grace' } },
          { action: 'click', params: { index: indexOf(indexes, 'Open menu') } },
        ],
      });
      expect(ok).toBe(true);
      expect(outcome.verdict).toBe('changed');
      expect(outcome.changed).toEqual([{ index: indexOf(indexes, 'Name'), label: 'textbox "Name" value "Grace"' }]);
      expect((outcome.appeared ?? []).map((element) => element.label)).toEqual(['button "Rename"', 'button "Delete"']);
    });

    it('fails with detached for an index that is gone, and gives every failure the failed verdict', async () => {
      await open();
      const response = await observed('click', { index: 9999 });
      expect(response.ok).toBe(false);
      expect(response.outcome).toMatchObject({ verdict: 'failed', reason: 'detached' });
    });
  });
}
