import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { BrowserStateSummary } from '../../../src/protocol/events/state.events';
import type { HistoryStats } from '../../../src/bus/history';
import type { DomRetention } from '../../../src/dom/dom-service';
import type { WorldRetention } from '../../../src/dom/payload';
import type { TimelineRetention } from '../../../src/platform/extension/timeline-recorder';
import type { Driver } from '../harness/drivers';
import { FixtureServer } from '../harness/fixture-server';
import { addMemoryPages } from '../harness/memory-pages';

/** What a transport holds after a run, read back through the debug accessors (counts, never RSS). */
export interface Retention {
  dom: DomRetention;
  world: WorldRetention;
  history: HistoryStats;
  /** The extension's timeline, the bytes chrome.storage.session counts for it and its quota; null in Node. */
  timeline: (TimelineRetention & { stored_bytes: number; storage_quota: number }) | null;
}

const STATES = 200;
const HISTORY = { max_events: 200, max_bytes: 150_000, max_event_bytes: 40_000 };

/**
 * A long run leaves nothing behind: 200 whole-page states of a page whose elements and cross-site frame
 * keep being replaced, with tabs opened and closed along the way, and what tabpilot holds stays at its
 * bounds (the latest state's elements, one world per live frame, the history's count and byte budget,
 * the timeline's byte budget in memory and in chrome.storage.session).
 */
export function defineMemoryContract(
  name: string,
  start: () => Promise<Driver>,
  readRetention: (driver: Driver, tabId: string) => Promise<Retention>,
): void {
  describe(`memory contract over ${name}`, () => {
    let driver: Driver;
    const server = new FixtureServer();
    addMemoryPages(server);

    beforeAll(async () => {
      await server.start();
      driver = await start();
    });

    afterAll(async () => {
      await driver?.close();
      await server.stop();
    });

    it('keeps the registry, the frame worlds, the history and the timeline at their bounds over 200 states', async () => {
      const tab = await driver.openTab(server.url('/m/churn.html'));
      await driver.setConfig({ history: HISTORY });
      let last: BrowserStateSummary | undefined;
      for (let state = 1; state <= STATES; state++) {
        if (state % 25 === 0) {
          await driver.evaluateInTab(tab, `replaceFrame(${state})`);
        }
        if (state % 50 === 0) {
          const other = await driver.openTab(server.url('/m/churn.html'));
          await driver.ok('state', { tab_id: other, viewport_expansion: -1, max_chars: 0 });
          await driver.ok('close', { tab_id: other });
        }
        await driver.evaluateInTab(tab, 'renew()');
        last = await driver.ok<BrowserStateSummary>('state', { tab_id: tab, viewport_expansion: -1, max_chars: 0 });
      }
      const elements = last?.elements.length ?? 0;
      expect(last?.text).toContain(`Round ${STATES + 1} button 19`);
      expect(last?.text).toContain(`Frame ${STATES} button`);
      const held = await readRetention(driver, tab);
      // Perception: the one open tab's latest state, and a world for its page and its live frame only.
      expect(held.dom.pages).toBe(1);
      expect(held.dom.indexed).toBe(elements);
      expect(held.dom.selector_entries).toBe(elements);
      expect(held.dom.worlds).toBeLessThanOrEqual(2);
      // The isolated world: ids for 4,000+ elements given out, but only two states' elements held.
      expect(held.world.ids_given).toBeGreaterThan(STATES * 20);
      expect(held.world.indexed).toBeLessThanOrEqual(elements);
      expect(held.world.previous).toBeLessThanOrEqual(elements);
      // History: within its count and bytes, with the oldest states summarised rather than dropped.
      expect(held.history.events).toBeLessThanOrEqual(HISTORY.max_events);
      expect(held.history.bytes).toBeLessThanOrEqual(HISTORY.max_bytes);
      expect(held.history.summarized).toBeGreaterThan(0);
      expect(held.history.live).toBeLessThanOrEqual(2);
      if (held.timeline !== null) {
        // The run records more than the budget holds: the timeline sits at its byte bound, not over it.
        expect(held.timeline.bytes).toBeLessThanOrEqual(held.timeline.max_bytes);
        expect(held.timeline.bytes).toBeGreaterThan(held.timeline.max_bytes * 0.75);
        expect(held.timeline.entries).toBeLessThanOrEqual(held.timeline.max_entries);
        // What the worker saved for a restart (the same entries) stays well inside chrome.storage.session.
        expect(held.timeline.stored_bytes).toBeGreaterThan(0);
        expect(held.timeline.stored_bytes).toBeLessThanOrEqual(held.timeline.storage_quota / 2);
      }
    }, 600_000);
  });
}
