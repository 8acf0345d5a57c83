import { ExtensionSubject } from './memory/extension.subject';
import { PlaywrightMcpSubject } from './memory/playwright-mcp.subject';
import type { MemoryRow, MemorySubject, Reading } from './memory/sequence';
import { TabpilotCliSubject } from './memory/tabpilot-cli.subject';
import { MEMORY_TARGETS, PAGE_FLAT_MB } from './memory/targets';
import { unforcedRow, type UnforcedRow } from './memory/unforced';
import type { PageServer } from './page-server';

export interface MemoryOptions {
  /** Whole-page states of the huge page; readings after half of them and after all. */
  states: number;
  /** Mixed commands after the states (ten kinds in turn, over the form and listing pages). */
  mixed: number;
  subjects: string[];
}

export interface GrowthRow {
  subject: string;
  /** The subject's option name (node, extension, playwright-mcp). */
  subject_key: string;
  /** Process growth over the idle reading (the huge page open, no state yet). */
  rss_growth_mb: number | null;
  heap_growth_mb: number;
  /** What the first perception left in the page (tabpilot: the collector and its element registry). */
  page_heap_first_state_mb: number | null;
  /** The page's growth from the first perception to the last. */
  page_heap_growth_mb: number | null;
  after_mixed_rss_growth_mb: number | null;
  after_mixed_heap_growth_mb: number;
  target: string;
  /** Tool calls that answered with an error (counted, not fatal). */
  failed_calls: number;
}

const SUBJECTS: Record<string, () => Promise<MemorySubject>> = {
  node: () => TabpilotCliSubject.start(),
  extension: () => ExtensionSubject.start(),
  'playwright-mcp': () => PlaywrightMcpSubject.start(),
};

/**
 * Memory over a long run, every subject in turn in one bench run: tabpilot's Node CLI (RSS and JS heap
 * of its process), the extension (its worker's JS heap, through CDP on the worker target) and Playwright
 * MCP's server process, each in a Chromium of its own started with the same flags. Each subject opens the
 * huge page, takes `states` whole-page perceptions of it, then runs `mixed` mixed commands. Every
 * reading follows a forced full collection, so it shows what is retained, not garbage not yet collected;
 * the page's heap is read the same way by a measuring client of the bench's own. Beside them, readings
 * without a forced collection after 0, half and all states (`unforced`: what a person's machine sees).
 */
export async function benchMemory(
  pages: PageServer,
  options: MemoryOptions,
): Promise<{ readings: MemoryRow[]; growth: GrowthRow[]; unforced: UnforcedRow[] }> {
  const urls = { huge: pages.url('huge'), form: pages.url('form'), listing: pages.url('listing') };
  const readings: MemoryRow[] = [];
  const growth: GrowthRow[] = [];
  const unforced: UnforcedRow[] = [];
  for (const key of options.subjects) {
    const start = SUBJECTS[key];
    if (start === undefined) {
      throw new Error(`unknown memory subject ${key} (known: ${Object.keys(SUBJECTS).join(', ')})`);
    }
    const subject = await start();
    try {
      const row = (point: string, value: Reading): MemoryRow => {
        const out = { subject: subject.name, point, ...value };
        readings.push(out);
        process.stdout.write(`  ${subject.name}, ${point}: ${JSON.stringify(value)}\n`);
        return out;
      };
      row('started', await subject.measure());
      await subject.openHuge(urls.huge);
      const unforcedPoints: Reading[] = [];
      // Before the forced reading at the same point, so that collection does not clear what it shows.
      const readUnforced = async (state: number): Promise<void> => {
        unforcedPoints.push(row(`${state} states, no forced GC`, await subject.measure(false)));
      };
      await readUnforced(0);
      const idle = row('huge page, 0 states', await subject.measure());
      const half = Math.floor(options.states / 2);
      let chars = 0;
      let first = idle;
      let last = idle;
      for (let state = 1; state <= options.states; state++) {
        chars = await subject.wholePage();
        if (state === half || state === options.states) {
          await readUnforced(state);
        }
        if (state === 1 || state === half || state === options.states) {
          last = row(`${state} states (${chars} chars each)`, await subject.measure());
          if (state === 1) {
            first = last;
          }
        }
      }
      const afterStates = last;
      for (let step = 0; step < options.mixed; step++) {
        await subject.mixed(step, urls);
      }
      const afterMixed = row(`+${options.mixed} mixed commands`, await subject.measure());
      growth.push({
        ...growthRow(key, subject.name, { idle, first, afterStates, afterMixed }, options.states),
        failed_calls: subject.failures ?? 0,
      });
      unforced.push(unforcedRow(key, subject.name, unforcedPoints, options.states));
    } finally {
      await subject.close();
    }
  }
  return { readings, growth, unforced };
}

function growthRow(
  key: string,
  name: string,
  points: { idle: Reading; first: Reading; afterStates: Reading; afterMixed: Reading },
  states: number,
): Omit<GrowthRow, 'failed_calls'> {
  const { idle, first, afterStates, afterMixed } = points;
  const diff = (a: number | null, b: number | null): number | null =>
    a === null || b === null ? null : Number((a - b).toFixed(1));
  const rss = diff(afterStates.process_rss_mb, idle.process_rss_mb);
  const heap = diff(afterStates.process_heap_mb, idle.process_heap_mb) ?? 0;
  const page = diff(afterStates.page_heap_mb, first.page_heap_mb);
  const target = MEMORY_TARGETS[key];
  let verdict = 'none set (the peer)';
  if (target !== undefined) {
    const value = target.field === 'rss' ? rss : heap;
    const processOk = value !== null && value <= target.mb;
    const pageOk = page !== null && page <= PAGE_FLAT_MB;
    verdict = `${target.field} ≤ +${target.mb} MB after ${states} states: ${processOk ? 'met' : '⚠ missed'}; page flat (≤ ${PAGE_FLAT_MB} MB): ${pageOk ? 'met' : '⚠ missed'}`;
  }
  return {
    subject: name,
    subject_key: key,
    rss_growth_mb: rss,
    heap_growth_mb: heap,
    page_heap_first_state_mb: diff(first.page_heap_mb, idle.page_heap_mb),
    page_heap_growth_mb: page,
    after_mixed_rss_growth_mb: diff(afterMixed.process_rss_mb, idle.process_rss_mb),
    after_mixed_heap_growth_mb: diff(afterMixed.process_heap_mb, idle.process_heap_mb) ?? 0,
    target: verdict,
  };
}
