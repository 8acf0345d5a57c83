import type { Page } from 'playwright-core';
import { defaultConfig } from '../src/browser/config';
import type { BrowserStateSummary } from '../src/browser/events/state.events';
import type { BrowserSession } from '../src/browser/session';
import { composeNodeSession } from '../src/entries/node/compose';
import type { ClientConnection } from '../src/tools/command-server';
import type { PageServer } from './page-server';
import { median, round } from './stats';
import { launchTwins } from './twin-browser';

const SETTLE = 'new Promise((resolve) => requestAnimationFrame(() => requestAnimationFrame(resolve)))';
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

let requestId = 0;
async function command<T>(client: ClientConnection, action: string, params: Record<string, unknown> = {}): Promise<T> {
  const response = await client.handle({ id: ++requestId, action, params });
  if (!response.ok) {
    throw new Error(`${action}: ${response.error.code} ${response.error.message}`);
  }
  return response.result as T;
}

interface Side {
  session: BrowserSession;
  client: ClientConnection;
  targetId: string;
  page: Page;
}

async function inTabpilot<T>(side: Side, expression: string): Promise<T> {
  const response = await side.session.cdp
    .requireSession(side.targetId)
    .send('Runtime.evaluate', { expression, awaitPromise: true, returnByValue: true });
  return response.result.value as T;
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
  const twins = await launchTwins();
  const base = defaultConfig();
  const { session, server } = composeNodeSession({
    config: { ...base, viewport: { width: 1280, height: 720 }, timeouts: { BrowserStateRequestEvent: 120_000 } },
    cdpUrl: twins.tabpilotCdpUrl,
  });
  await session.start();
  const client = server.connect({ id: 'bench-actions', kind: 'test' }, { send: () => undefined });
  const context = await twins.playwright.newContext({ viewport: { width: 1280, height: 720 } });
  const page = await context.newPage();
  page.setDefaultTimeout(0);
  const side: Side = { session, client, targetId: await session.focusedTargetId(), page };
  const rows: ActionRow[] = [];
  try {
    for (const name of options.pageNames) {
      await command(client, 'navigate', { url: pages.url(name), timeout_ms: 60_000 });
      await page.goto(pages.url(name), { waitUntil: 'load', timeout: 0 });
      // Reload, so neither side's perception state (caches, AX trees) weighs on the actions.
      const state = await command<BrowserStateSummary>(client, 'state', {});
      await command(client, 'refresh');
      await page.reload({ waitUntil: 'load' });
      const fresh = await command<BrowserStateSummary>(client, 'state', {});
      const button =
        fresh.elements.find((entry) => entry.name === 'Bench click target') ??
        state.elements.find((entry) => entry.name === 'Bench click target');
      const input = fresh.elements.find((entry) => entry.attributes['id'] === 'bench-input');
      if (button === undefined || input === undefined) {
        throw new Error(`${name}: the bench controls are not in the state`);
      }
      rows.push(
        await measure(name, 'click (by index / locator.click)', options.clicks, side, {
          tabpilot: () => command(client, 'click', { index: button.index }),
          playwright: () => page.locator('#bench-btn').click(),
          check: async () => ({
            tabpilot: await inTabpilot<number>(side, 'window.__benchClicks'),
            playwright: await page.evaluate('window.__benchClicks'),
          }),
          expect: (before, after) => after === Number(before) + 1,
        }),
      );
      rows.push(
        await measure(name, `type 20 chars, key events / pressSequentially`, options.typings, side, {
          prepare: async () => {
            await inTabpilot(side, "document.getElementById('bench-input').value = ''");
            await page.locator('#bench-input').fill('');
          },
          tabpilot: () =>
            command(client, 'input', { index: input.index, text: TEXT, clear: false, typing: 'key_events' }),
          playwright: () => page.locator('#bench-input').pressSequentially(TEXT),
          check: async () => ({
            tabpilot: await inTabpilot<string>(side, "document.getElementById('bench-input').value"),
            playwright: await page.evaluate("document.getElementById('bench-input').value"),
          }),
          expect: (_before, after) => after === TEXT,
        }),
      );
      rows.push(
        await measure(name, 'type 20 chars, fast path / fill', options.typings, side, {
          tabpilot: () =>
            command(client, 'input', { index: input.index, text: TEXT, clear: true, typing: 'insert_text' }),
          playwright: () => page.locator('#bench-input').fill(TEXT),
          prepare: async () => {
            await inTabpilot(side, "document.getElementById('bench-input').value = 'old'");
            await page.evaluate("document.getElementById('bench-input').value = 'old'");
          },
          check: async () => ({
            tabpilot: await inTabpilot<string>(side, "document.getElementById('bench-input').value"),
            playwright: await page.evaluate("document.getElementById('bench-input').value"),
          }),
          expect: (_before, after) => after === TEXT,
        }),
      );
      process.stdout.write(`  ${name}: done\n`);
    }
  } finally {
    client.close();
    await session.stop();
    await twins.close();
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

async function measure(page: string, op: string, runs: number, side: Side, work: Op): Promise<ActionRow> {
  const samples = { tp: [] as number[], pw: [] as number[], ratio: [] as number[] };
  let invalid = 0;
  for (let run = 0; run < runs; run++) {
    await work.prepare?.();
    const before = await work.check();
    const timeOne = async (who: 'tp' | 'pw'): Promise<number> => {
      if (who === 'tp') {
        await inTabpilot(side, SETTLE);
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
