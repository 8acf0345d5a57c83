import type { CliStartFigures } from './cli.bench';
import type { GrowthRow } from './memory.bench';
import { MEMORY_TARGETS, PAGE_FLAT_MB } from './memory/targets';
import type { UnforcedRow } from './memory/unforced';
import type { NativeFigures } from './native.bench';
import type { StopRow } from './stop.bench';

/**
 * `--targets`: the parts that carry a numeric target, run together, and one table of area, target,
 * figure and verdict (printed, and written to bench/out/targets.json). Each row's figure is what its part
 * measured in this run; nothing is carried over from an earlier one.
 */

/** The parts `--targets` runs: every part that states a target. */
export const TARGET_PARTS = ['stop', 'native', 'cli', 'memory'] as const;

/** The issue's target for the native hop: what the socket → host → worker path adds over the panel's port. */
export const NATIVE_HOP_TARGET_MS = 2;

export interface TargetRow {
  area: string;
  target: string;
  figure: string;
  verdict: 'met' | 'missed' | 'beside (no target)';
}

export interface TargetInputs {
  stop?: StopRow[];
  native?: NativeFigures;
  cli?: CliStartFigures;
  memory?: { growth: GrowthRow[]; unforced: UnforcedRow[] };
  states: number;
}

/** A growth with its sign: +3.2, -0.4. */
const signed = (value: number | null): string => (value === null ? 'n/a' : `${value >= 0 ? '+' : ''}${value}`);

const met = (ok: boolean): TargetRow['verdict'] => (ok ? 'met' : 'missed');

function stopRows(rows: readonly StopRow[]): TargetRow[] {
  return rows.map((row) => ({
    area: `Stop (#30): ${row.path}, ${row.case}`,
    target: row.target,
    figure: `median ${row.median_ms} ms, p90 ${row.p90_ms} ms (${row.rounds} rounds)`,
    verdict: row.verdict === 'met' ? 'met' : 'missed',
  }));
}

function nativeRows(native: NativeFigures): TargetRow[] {
  const pipelined = native.pipelined.map((entry) => `${entry.path} ${entry.total_ms} ms`).join(', ');
  const big = native.big_answer.map((entry) => `${entry.path} ${entry.median_ms} ms`).join(', ');
  const bytes = native.big_answer[0]?.bytes ?? 0;
  return [
    {
      area: 'Native hop (#30): socket → host → worker, over the panel port',
      target: `at most +${NATIVE_HOP_TARGET_MS} ms (median)`,
      figure: `median ${signed(native.native_hop_added_median_ms)} ms, p90 ${signed(native.native_hop_added_p90_ms)} ms`,
      verdict: met(native.native_hop_added_median_ms <= NATIVE_HOP_TARGET_MS),
    },
    {
      area: 'Native hop (#30): 1,000 pipelined tabs',
      target: '',
      figure: pipelined,
      verdict: 'beside (no target)',
    },
    {
      area: `Native hop (#30): a ${(bytes / 1024 / 1024).toFixed(1)} MB answer`,
      target: '',
      figure: big,
      verdict: 'beside (no target)',
    },
  ];
}

function cliRows(cli: CliStartFigures): TargetRow[] {
  return cli.rows
    .filter((row) => row.target !== '')
    .map((row) => ({
      area: `CLI cold start: ${row.command}`,
      target: row.target,
      figure: `median ${row.median_ms} ms, p90 ${row.p90_ms} ms (${row.runs} runs)`,
      verdict: row.verdict === 'met' ? 'met' : 'missed',
    }));
}

function memoryRows(memory: { growth: GrowthRow[]; unforced: UnforcedRow[] }, states: number): TargetRow[] {
  const rows: TargetRow[] = [];
  for (const growth of memory.growth) {
    const target = MEMORY_TARGETS[growth.subject_key];
    const unforced = memory.unforced.find((row) => row.subject_key === growth.subject_key);
    if (target === undefined) {
      // The peer: its figures beside tabpilot's, measured the same way.
      rows.push({
        area: `Memory: ${growth.subject}, after ${states} states`,
        target: '',
        figure: `RSS ${signed(growth.rss_growth_mb)} MB (forced GC)${unforced === undefined ? '' : `, RSS ${unforced.process_rss_mb} MB at 0 / half / all (no forced GC)`}; page ${signed(growth.page_heap_growth_mb)} MB`,
        verdict: 'beside (no target)',
      });
      continue;
    }
    const forced = target.field === 'rss' ? growth.rss_growth_mb : growth.heap_growth_mb;
    const what = target.field === 'rss' ? 'RSS' : 'JS heap';
    rows.push({
      area: `Memory: ${growth.subject}, ${what} after ${states} states, forced GC`,
      target: `at most +${target.mb} MB over idle`,
      figure: `${signed(forced)} MB`,
      verdict: met(forced !== null && forced <= target.mb),
    });
    if (unforced !== undefined) {
      const series = target.field === 'rss' ? unforced.process_rss_mb : unforced.process_heap_mb;
      rows.push({
        area: `Memory: ${growth.subject}, ${what} after ${states} states, no forced GC`,
        target: `at most +${target.mb} MB over idle`,
        figure: `${signed(unforced.growth_mb)} MB (${series} MB at 0 / half / all)`,
        verdict: unforced.verdict === 'met' ? 'met' : 'missed',
      });
    }
    rows.push({
      area: `Memory: the page under ${growth.subject}, first state to last, forced GC`,
      target: `flat (at most +${PAGE_FLAT_MB} MB)`,
      figure: `${signed(growth.page_heap_growth_mb)} MB${unforced === undefined ? '' : ` (no forced GC: ${unforced.page_heap_mb} MB at 0 / half / all)`}`,
      verdict: met(growth.page_heap_growth_mb !== null && growth.page_heap_growth_mb <= PAGE_FLAT_MB),
    });
  }
  return rows;
}

export function targetRows(inputs: TargetInputs): TargetRow[] {
  return [
    ...(inputs.stop === undefined ? [] : stopRows(inputs.stop)),
    ...(inputs.native === undefined ? [] : nativeRows(inputs.native)),
    ...(inputs.cli === undefined ? [] : cliRows(inputs.cli)),
    ...(inputs.memory === undefined ? [] : memoryRows(inputs.memory, inputs.states)),
  ];
}
