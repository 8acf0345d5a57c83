import { z } from 'zod';
import { defineEvent } from '../define-event';
import { TargetId } from '../events/navigation.events';
import { OutputFileName } from '../output-file-name';
import { declareAction } from './declare-action';
import { MOVES, WRITES_FILE } from './hints';
import { both } from './words';

const Ms = z.number().nullable();

export const PerformanceStartEvent = defineEvent('PerformanceStartEvent', {
  payload: {
    target_id: TargetId,
    reload: z.boolean().default(false).meta({
      details: 'Reload the page once tracing runs, to trace its load from navigation start (LCP needs a load)',
    }),
    file_name: OutputFileName.default('trace.json').meta({
      details:
        'The trace file performance_stop writes, relative to the output folder (output_dir in Node, Downloads/tabpilot in the extension); .json is added when missing',
    }),
  },
  result: z.strictObject({
    /** Where performance_stop will write the trace. */
    file: z.string(),
    reloaded: z.boolean(),
  }),
  timeoutMs: 30_000,
  description:
    "Start a performance trace of the tab (the categories of Chrome DevTools' Performance panel); reload: true reloads the page to trace its load. Then act on the page (click, type, scroll) and call performance_stop for the Core Web Vitals and the file. One trace at a time in the browser (another start is FORBIDDEN); it is thrown away if the tab is released or closed first.",
});

export const PerformanceStopEvent = defineEvent('PerformanceStopEvent', {
  payload: { target_id: TargetId },
  result: z.strictObject({
    /** The trace file, which Chrome DevTools' Performance panel opens (Load profile). */
    file: z.string(),
    bytes: z.number().int(),
    duration_ms: z.number(),
    /** Largest Contentful Paint from navigation start; null when no page load was traced. */
    lcp_ms: Ms,
    /** Cumulative Layout Shift: the largest session window of shifts not caused by input. */
    cls: z.number(),
    /** Interaction to Next Paint: the slowest interaction (p98 with 50 or more); null without one. */
    inp_ms: Ms,
    interactions: z.number().int(),
    /** Tasks over 50 ms on the page's main thread. */
    long_tasks: z.strictObject({ count: z.number().int(), total_ms: z.number(), longest_ms: z.number() }),
    dom_content_loaded_ms: Ms,
    load_ms: Ms,
  }),
  timeoutMs: 60_000,
  description:
    "Stop the tab's performance trace: write the trace file (Chrome DevTools' Performance panel opens it) and answer the Core Web Vitals read from it (lcp_ms, cls, inp_ms), the main thread's long tasks (over 50 ms), and the load's DOMContentLoaded and load times; figures of a page load are null when none was traced. Without a trace running in the tab: ELEMENT_NOT_FOUND, as stop_har.",
});

/** A performance trace of the client's own tab. */
export const PERFORMANCE_ACTIONS = [
  declareAction(PerformanceStartEvent, {
    name: 'performance_start',
    notForAgent: true,
    title: 'Start trace',
    summary: 'Trace the tab until performance_stop (reload: trace its load).',
    category: 'page',
    hints: MOVES,
    tabGate: 'act',
    panel: {
      label: 'Start performance trace',
      success: (_p, r) => (r.reloaded ? 'tracing the page load' : 'tracing the page'),
      activity: () => both('starting a performance trace', 'started a performance trace'),
    },
  }),
  declareAction(PerformanceStopEvent, {
    name: 'performance_stop',
    notForAgent: true,
    title: 'Stop trace',
    summary: 'Answers LCP, CLS, INP, long tasks and the trace file for DevTools.',
    category: 'page',
    hints: WRITES_FILE,
    tabGate: 'read',
    panel: {
      label: 'Stop performance trace',
      success: (_p, r) =>
        `LCP ${r.lcp_ms ?? '-'} ms, CLS ${r.cls}, INP ${r.inp_ms ?? '-'} ms, ${r.long_tasks.count} long tasks: ${r.file}`,
      activity: () => both('finishing the performance trace', 'finished the performance trace'),
    },
  }),
] as const;
