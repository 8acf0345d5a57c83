import type { Reading } from './sequence';
import { MEMORY_TARGETS } from './targets';

/**
 * Memory as a person's machine sees it: each figure read without forcing a collection (garbage V8 has
 * not collected yet included), after 0, half and all of the whole-page states. Each is read just before
 * the forced-collection reading at the same point, so the forced one does not clear what it shows; a
 * forced collection earlier in the run (after the first state) is the only one behind it.
 */
export interface UnforcedRow {
  subject: string;
  /** The subject's option name (node, extension, playwright-mcp). */
  subject_key: string;
  /** `process_rss_mb` (Node processes) or the worker's JS heap, at 0 / half / all states. */
  process_rss_mb: string;
  process_heap_mb: string;
  page_heap_mb: string;
  /** Growth from 0 states to all, of the figure the target is set on (RSS for Node, heap for the worker). */
  growth_mb: number | null;
  target: string;
  verdict: string;
}

function series(values: ReadonlyArray<number | null>): string {
  return values.map((value) => (value === null ? '-' : value.toFixed(1))).join(' / ');
}

export function unforcedRow(key: string, subject: string, points: readonly Reading[], states: number): UnforcedRow {
  const first = points[0];
  const last = points[points.length - 1];
  const target = MEMORY_TARGETS[key];
  let growth: number | null = null;
  if (first !== undefined && last !== undefined) {
    const pick = (reading: Reading): number | null =>
      (target?.field ?? 'rss') === 'rss' ? reading.process_rss_mb : reading.process_heap_mb;
    const from = pick(first);
    const to = pick(last);
    growth = from === null || to === null ? null : Number((to - from).toFixed(1));
  }
  return {
    subject,
    subject_key: key,
    process_rss_mb: series(points.map((reading) => reading.process_rss_mb)),
    process_heap_mb: series(points.map((reading) => reading.process_heap_mb)),
    page_heap_mb: series(points.map((reading) => reading.page_heap_mb)),
    growth_mb: growth,
    target:
      target === undefined
        ? 'none set (the peer)'
        : `${target.field} at most +${target.mb} MB after ${states} states, no forced GC`,
    verdict: target === undefined ? '' : growth !== null && growth <= target.mb ? 'met' : 'missed',
  };
}
