import type { BrowserStateSummary } from '../src/browser/events/state.events';
import type { PageServer } from './page-server';
import { openSides, SETTLE, type Sides } from './sides';
import { median, round } from './stats';

const TEXT = 'tabpilot types twenty'.slice(0, 20);

export interface ActionRow {
  page: string;
  op: string;
  tabpilot_ms: number;
  playwright_ms: number;
  /** Median of per-run paired ratios tabpilot / Playwright. */
  ratio: number;
  valid: string;
}

/**
 * Clicks and typing beside Playwright (perf-facts.md's method: tabs reloaded before the action phase,
 * settled before every timed call, every click checked against window.__benchClicks and every typing
 * against #bench-input's value).
 */
export async function benchActions(
  pages: PageServer,
  options: { pageNames: string[]; clicks: number; typings: number },
): Promise<ActionRow[]> {
  const side = await openSides('bench-actions');
  const { page } = side;
  const rows: ActionRow[] = [];
  try {
    for (const name of options.pageNames) {
      await side.command('navigate', { url: pages.url(name), timeout_ms: 60_000 });
      await page.goto(pages.url(name), { waitUntil: 'load', timeout: 0 });
      // Reload, so neither side's perception state (caches, AX trees) weighs on the actions.
      const state = await side.command<BrowserStateSummary>('state', {});
      await side.command('refresh');
      await page.reload({ waitUntil: 'load' });
      const fresh = await side.command<BrowserStateSummary>('state', {});
      const button =
        fresh.elements.find((entry) => entry.name === 'Bench click target') ??
        state.elements.find((entry) => entry.name === 'Bench click target');
      const input = fresh.elements.find((entry) => entry.attributes['id'] === 'bench-input');
      if (button === undefined || input === undefined) {
        throw new Error(`${name}: the bench controls are not in the state`);
      }
      rows.push(
        await measure(name, 'click (by index / locator.click)', options.clicks, side, {
          tabpilot: () => side.command('click', { index: button.index }),
          playwright: () => page.locator('#bench-btn').click(),
          check: async () => ({
            tabpilot: await side.evaluate<number>('window.__benchClicks'),
            playwright: await page.evaluate('window.__benchClicks'),
          }),
          expect: (before, after) => after === Number(before) + 1,
        }),
      );
      rows.push(
        await measure(name, `type 20 chars, key events / pressSequentially`, options.typings, side, {
          prepare: async () => {
            await side.evaluate("document.getElementById('bench-input').value = ''");
            await page.locator('#bench-input').fill('');
          },
          tabpilot: () => side.command('input', { index: input.index, text: TEXT, clear: false, typing: 'key_events' }),
          playwright: () => page.locator('#bench-input').pressSequentially(TEXT),
          check: async () => ({
            tabpilot: await side.evaluate<string>("document.getElementById('bench-input').value"),
            playwright: await page.evaluate("document.getElementById('bench-input').value"),
          }),
          expect: (_before, after) => after === TEXT,
        }),
      );
      rows.push(
        await measure(name, 'type 20 chars, fast path / fill', options.typings, side, {
          tabpilot: () => side.command('input', { index: input.index, text: TEXT, clear: true, typing: 'insert_text' }),
          playwright: () => page.locator('#bench-input').fill(TEXT),
          prepare: async () => {
            await side.evaluate("document.getElementById('bench-input').value = 'old'");
            await page.evaluate("document.getElementById('bench-input').value = 'old'");
          },
          check: async () => ({
            tabpilot: await side.evaluate<string>("document.getElementById('bench-input').value"),
            playwright: await page.evaluate("document.getElementById('bench-input').value"),
          }),
          expect: (_before, after) => after === TEXT,
        }),
      );
      process.stdout.write(`  ${name}: done\n`);
    }
  } finally {
    await side.close();
  }
  return rows;
}

interface Op {
  prepare?: () => Promise<void>;
  tabpilot: () => Promise<unknown>;
  playwright: () => Promise<unknown>;
  check: () => Promise<{ tabpilot: unknown; playwright: unknown }>;
  expect: (before: unknown, after: unknown) => boolean;
}

async function measure(page: string, op: string, runs: number, side: Sides, work: Op): Promise<ActionRow> {
  const samples = { tp: [] as number[], pw: [] as number[], ratio: [] as number[] };
  let invalid = 0;
  for (let run = 0; run < runs; run++) {
    await work.prepare?.();
    const before = await work.check();
    const timeOne = async (who: 'tp' | 'pw'): Promise<number> => {
      if (who === 'tp') {
        await side.evaluate(SETTLE);
      } else {
        await side.page.evaluate(SETTLE);
      }
      const started = performance.now();
      await (who === 'tp' ? work.tabpilot() : work.playwright());
      return performance.now() - started;
    };
    const order: Array<'tp' | 'pw'> = run % 2 === 0 ? ['tp', 'pw'] : ['pw', 'tp'];
    const times: Record<'tp' | 'pw', number> = { tp: 0, pw: 0 };
    for (const who of order) {
      times[who] = await timeOne(who);
    }
    const after = await work.check();
    if (!work.expect(before.tabpilot, after.tabpilot) || !work.expect(before.playwright, after.playwright)) {
      invalid++;
    }
    samples.tp.push(times.tp);
    samples.pw.push(times.pw);
    samples.ratio.push(times.tp / times.pw);
  }
  return {
    page,
    op,
    tabpilot_ms: round(median(samples.tp), 1),
    playwright_ms: round(median(samples.pw), 1),
    ratio: round(median(samples.ratio), 2),
    valid: invalid === 0 ? `${runs}/${runs}` : `⚠ ${runs - invalid}/${runs}`,
  };
}
