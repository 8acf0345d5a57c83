import type { PageServer } from './page-server';
import { openSides, SETTLE, type Sides } from './sides';
import { median, round } from './stats';

/** The in-page floor: touch every element once (visibility and box), open shadow roots included. */
const FLOOR = `(() => { let n = 0; const visit = (root) => { for (const el of root.querySelectorAll('*')) { el.checkVisibility(); el.getBoundingClientRect(); n++; if (el.shadowRoot) visit(el.shadowRoot); } }; visit(document); return n; })()`;

export interface PerceptionRow {
  page: string;
  op: 'cold' | 'warm';
  tabpilot_ms: number;
  tabpilot_default_ms: number;
  playwright_ms: number;
  floor_ms: number;
  /** Median of per-run paired ratios tabpilot / Playwright (whole-page state). */
  ratio_vs_playwright: number;
}

export interface SizeRow {
  page: string;
  tabpilot_chars: number;
  tabpilot_default_chars: number;
  playwright_chars: number;
  ratio: number;
  tabpilot_markers: string;
  playwright_markers: string;
}

async function timed<T>(work: () => Promise<T>): Promise<{ ms: number; value: T }> {
  const started = performance.now();
  const value = await work();
  return { ms: performance.now() - started, value };
}

async function tabpilotState(sides: Sides, wholePage: boolean): Promise<string> {
  const params = wholePage ? { viewport_expansion: -1, max_chars: 0 } : {};
  return (await sides.command<{ text: string }>('state', params)).text;
}

/**
 * Perception beside Playwright, in one run with interleaved iterations (perf-facts.md's method): per
 * page, the first call after a navigation (cold) and later calls (warm), for tabpilot's `state` (whole
 * page, budget off; and the default view), Playwright's MCP snapshot `page.ariaSnapshot({mode: 'ai'})`,
 * and the in-page floor. Output size and coverage markers from the generator's manifest.
 */
export async function benchPerception(
  pages: PageServer,
  markers: Record<string, string[]>,
  options: { runs: number; pageNames: string[] },
): Promise<{ timings: PerceptionRow[]; sizes: SizeRow[]; commandLine: string[] }> {
  const sides = await openSides('bench-perception');
  const { page } = sides;
  const timings: PerceptionRow[] = [];
  const sizes: SizeRow[] = [];
  try {
    for (const name of options.pageNames) {
      const url = pages.url(name);
      const goTabpilot = async (): Promise<void> => {
        await sides.command('navigate', { url, timeout_ms: 60_000 });
        await sides.evaluate(SETTLE);
      };
      const goPlaywright = async (): Promise<void> => {
        await page.goto(url, { waitUntil: 'load', timeout: 0 });
        await page.evaluate(SETTLE);
      };
      const samples = {
        tp: [] as number[],
        tpDefault: [] as number[],
        pw: [] as number[],
        floor: [] as number[],
        ratio: [] as number[],
      };
      let lastTp = '';
      let lastTpDefault = '';
      let lastPw = '';
      // Cold: the first call right after its own fresh navigation, every adapter in turn (rotating start).
      for (let run = 0; run < options.runs; run++) {
        const order = ['tp', 'tpDefault', 'pw', 'floor'];
        const rotated = [...order.slice(run % order.length), ...order.slice(0, run % order.length)];
        const run_ = { tp: 0, pw: 0 };
        for (const who of rotated) {
          if (who === 'pw') {
            await goPlaywright();
            const { ms, value } = await timed(() => page.ariaSnapshot({ mode: 'ai', timeout: 0 }));
            samples.pw.push(ms);
            run_.pw = ms;
            lastPw = value;
          } else {
            await goTabpilot();
            if (who === 'tp') {
              const { ms, value } = await timed(() => tabpilotState(sides, true));
              samples.tp.push(ms);
              run_.tp = ms;
              lastTp = value;
            } else if (who === 'tpDefault') {
              const { ms, value } = await timed(() => tabpilotState(sides, false));
              samples.tpDefault.push(ms);
              lastTpDefault = value;
            } else {
              samples.floor.push((await timed(() => sides.evaluate<number>(FLOOR))).ms);
            }
          }
        }
        samples.ratio.push(run_.tp / run_.pw);
      }
      timings.push(row(name, 'cold', samples));
      // Warm: both tabs on the page, one discarded call each, then interleaved calls.
      await goPlaywright();
      await goTabpilot();
      await page.ariaSnapshot({ mode: 'ai', timeout: 0 });
      await tabpilotState(sides, true);
      const warm = {
        tp: [] as number[],
        tpDefault: [] as number[],
        pw: [] as number[],
        floor: [] as number[],
        ratio: [] as number[],
      };
      for (let run = 0; run < options.runs; run++) {
        const first = run % 2 === 0;
        const measurePw = async (): Promise<number> => {
          await page.evaluate(SETTLE);
          return (await timed(() => page.ariaSnapshot({ mode: 'ai', timeout: 0 }))).ms;
        };
        const measureTp = async (): Promise<number> => {
          await sides.evaluate(SETTLE);
          return (await timed(() => tabpilotState(sides, true))).ms;
        };
        const pw = first ? await measurePw() : 0;
        const tp = await measureTp();
        const pwAfter = first ? pw : await measurePw();
        await sides.evaluate(SETTLE);
        warm.tpDefault.push((await timed(() => tabpilotState(sides, false))).ms);
        await sides.evaluate(SETTLE);
        warm.floor.push((await timed(() => sides.evaluate<number>(FLOOR))).ms);
        warm.tp.push(tp);
        warm.pw.push(pwAfter);
        warm.ratio.push(tp / pwAfter);
      }
      timings.push(row(name, 'warm', warm));
      const pageMarkers = markers[name] ?? [];
      const covered = (text: string): string =>
        `${pageMarkers.filter((marker) => text.includes(marker)).length}/${pageMarkers.length}`;
      sizes.push({
        page: name,
        tabpilot_chars: lastTp.length,
        tabpilot_default_chars: lastTpDefault.length,
        playwright_chars: lastPw.length,
        ratio: round(lastTp.length / Math.max(lastPw.length, 1)),
        tabpilot_markers: covered(lastTp),
        playwright_markers: covered(lastPw),
      });
      process.stdout.write(`  ${name}: done\n`);
    }
  } finally {
    await sides.close();
  }
  return { timings, sizes, commandLine: sides.commandLine };
}

function row(
  page: string,
  op: 'cold' | 'warm',
  samples: { tp: number[]; tpDefault: number[]; pw: number[]; floor: number[]; ratio: number[] },
): PerceptionRow {
  return {
    page,
    op,
    tabpilot_ms: round(median(samples.tp), 1),
    tabpilot_default_ms: round(median(samples.tpDefault), 1),
    playwright_ms: round(median(samples.pw), 1),
    floor_ms: round(median(samples.floor), 1),
    ratio_vs_playwright: round(median(samples.ratio), 2),
  };
}
