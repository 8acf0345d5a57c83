import { isRecord } from '../../shared/narrow';
import { numberAt, recordAt, stringAt, type TraceEvent } from './trace-event';

/**
 * The Core Web Vitals and the main thread's long tasks of one tab, read from the trace events alone, as
 * DevTools' Performance panel and web.dev define them:
 *
 * - The page: the frames without a parent in `TracingStartedInBrowser` (the traced tab's main frame) and
 *   the renderer processes it was in there and in each `FrameCommittedInBrowser` since. Events of other
 *   processes (other tabs, extensions, the browser) are left out. Without that event, the frames whose
 *   `navigationStart` says they are the outermost main frame, and every process.
 * - The page load: the last `navigationStart` of the main frame to a document (not about:blank). Without
 *   one (a trace of an interaction on a page already loaded) the load figures are null.
 * - LCP: the last `largestContentfulPaint::Candidate` of that navigation (same navigationId), in ms from
 *   its navigationStart; null when a later `largestContentfulPaint::Invalidate` took it back.
 * - CLS: the `LayoutShift` events of the page (after the navigation's document committed, when one was
 *   traced: the document it replaces lives on until then, and its shifts carry no navigationId; a loaded
 *   CI run counted the old page's shift beside the new one's) not caused by
 *   recent input, each weighing `weighted_score_delta` (its share of the viewport, subframes scaled), in
 *   session windows: a window closes at a 1 s gap between shifts or 5 s after its first; CLS is the
 *   largest window's sum.
 * - INP: each `EventTiming` begin with an interactionId > 0 is one event of an interaction; the
 *   interaction lasts its longest event's duration. INP is the longest interaction, or with many, the
 *   one past the longest n/50 (web-vitals' p98); null when the trace holds no interaction.
 * - Long tasks: `RunTask` events over 50 ms on the page's renderer main thread (`CrRendererMain`).
 * - dom_content_loaded_ms and load_ms: the main frame's first `MarkDOMContent` and `MarkLoad` after
 *   navigationStart, in ms from it.
 */
export interface TraceVitals {
  lcp_ms: number | null;
  cls: number;
  inp_ms: number | null;
  interactions: number;
  long_tasks: { count: number; total_ms: number; longest_ms: number };
  dom_content_loaded_ms: number | null;
  load_ms: number | null;
}

export const LONG_TASK_MS = 50;
const SHIFT_GAP_US = 1_000_000;
const SHIFT_WINDOW_US = 5_000_000;

interface TracedPage {
  mainFrames: Set<string>;
  /** The renderer processes of the main frame; empty when the trace does not say (every process counts). */
  pids: Set<number>;
}

interface Navigation {
  ts: number;
  navigationId: string | undefined;
}

function pageOf(events: readonly TraceEvent[]): TracedPage {
  const page: TracedPage = { mainFrames: new Set(), pids: new Set() };
  for (const event of events) {
    if (event.name !== 'TracingStartedInBrowser') {
      continue;
    }
    const frames = recordAt(event.args, 'data')['frames'];
    for (const frame of Array.isArray(frames) ? frames : []) {
      if (!isRecord(frame)) {
        continue;
      }
      const id = stringAt(frame, 'frame');
      if (id !== undefined && stringAt(frame, 'parent') === undefined) {
        page.mainFrames.add(id);
        const pid = numberAt(frame, 'processId');
        if (pid !== undefined) {
          page.pids.add(pid);
        }
      }
    }
  }
  if (page.mainFrames.size === 0) {
    // No TracingStartedInBrowser: the frames whose navigations say they are the outermost main frame.
    for (const event of events) {
      const frame = stringAt(event.args, 'frame');
      if (
        event.name === 'navigationStart' &&
        frame !== undefined &&
        recordAt(event.args, 'data')['isOutermostMainFrame'] === true
      ) {
        page.mainFrames.add(frame);
      }
    }
  }
  for (const event of events) {
    const data = recordAt(event.args, 'data');
    const frame = stringAt(data, 'frame');
    const pid = numberAt(data, 'processId');
    if (
      event.name === 'FrameCommittedInBrowser' &&
      frame !== undefined &&
      page.mainFrames.has(frame) &&
      pid !== undefined
    ) {
      page.pids.add(pid);
    }
  }
  return page;
}

function inPage(event: TraceEvent, page: TracedPage): boolean {
  return page.pids.size === 0 || page.pids.has(event.pid);
}

function inMainFrame(event: TraceEvent, page: TracedPage): boolean {
  const data = recordAt(event.args, 'data');
  const frame = stringAt(event.args, 'frame') ?? stringAt(data, 'frame');
  if (page.mainFrames.size > 0 && frame !== undefined) {
    return page.mainFrames.has(frame);
  }
  return data['isOutermostMainFrame'] === true || data['isMainFrame'] === true;
}

function lastNavigation(events: readonly TraceEvent[], page: TracedPage): Navigation | undefined {
  let last: Navigation | undefined;
  for (const event of events) {
    if (event.name !== 'navigationStart' || !inMainFrame(event, page)) {
      continue;
    }
    const data = recordAt(event.args, 'data');
    const url = stringAt(data, 'documentLoaderURL') ?? '';
    if (url === '' || url === 'about:blank' || data['isLoadingMainFrame'] === false) {
      continue;
    }
    if (last === undefined || event.ts >= last.ts) {
      last = { ts: event.ts, navigationId: stringAt(data, 'navigationId') };
    }
  }
  return last;
}

/**
 * When the navigation's document took the main frame: its first `CommitLoad` there at or after its
 * navigationStart (the renderer writes it, so a trace through chrome.debugger has it too); the
 * navigationStart itself when the trace has none.
 */
function committedAt(events: readonly TraceEvent[], page: TracedPage, navigation: Navigation): number {
  let committed: number | undefined;
  for (const event of events) {
    if (event.name === 'CommitLoad' && event.ts >= navigation.ts && inMainFrame(event, page)) {
      committed = Math.min(committed ?? event.ts, event.ts);
    }
  }
  return committed ?? navigation.ts;
}

/** Whether an event belongs to the navigation: its navigationId when both have one, else its time. */
function ofNavigation(event: TraceEvent, navigation: Navigation): boolean {
  const id = stringAt(recordAt(event.args, 'data'), 'navigationId');
  return id !== undefined && navigation.navigationId !== undefined
    ? id === navigation.navigationId
    : event.ts >= navigation.ts;
}

function msBetween(from: number, to: number): number {
  return roundTo((to - from) / 1000, 1);
}

function roundTo(value: number, digits: number): number {
  const scale = 10 ** digits;
  return Math.round(value * scale) / scale;
}

function largestContentfulPaint(
  events: readonly TraceEvent[],
  page: TracedPage,
  navigation: Navigation,
): number | null {
  let candidate: TraceEvent | undefined;
  let invalidated = false;
  for (const event of events) {
    const isCandidate = event.name === 'largestContentfulPaint::Candidate';
    if (!isCandidate && event.name !== 'largestContentfulPaint::Invalidate') {
      continue;
    }
    if (!inMainFrame(event, page) || !ofNavigation(event, navigation) || event.ts < navigation.ts) {
      continue;
    }
    if (candidate === undefined || event.ts >= candidate.ts) {
      if (isCandidate) {
        candidate = event;
        invalidated = false;
      } else {
        invalidated = true;
      }
    }
  }
  return candidate === undefined || invalidated ? null : msBetween(navigation.ts, candidate.ts);
}

function firstMark(
  events: readonly TraceEvent[],
  name: string,
  page: TracedPage,
  navigation: Navigation,
): number | null {
  let first: number | undefined;
  for (const event of events) {
    if (event.name === name && event.ts >= navigation.ts && inMainFrame(event, page)) {
      first = first === undefined ? event.ts : Math.min(first, event.ts);
    }
  }
  return first === undefined ? null : msBetween(navigation.ts, first);
}

/** The largest session window of layout shifts (web.dev's CLS). */
export function cumulativeLayoutShift(shifts: ReadonlyArray<{ ts: number; score: number }>): number {
  let largest = 0;
  let window = 0;
  let windowStart = 0;
  let previous = Number.NEGATIVE_INFINITY;
  for (const shift of [...shifts].sort((a, b) => a.ts - b.ts)) {
    if (shift.ts - previous > SHIFT_GAP_US || shift.ts - windowStart > SHIFT_WINDOW_US) {
      window = 0;
      windowStart = shift.ts;
    }
    window += shift.score;
    previous = shift.ts;
    largest = Math.max(largest, window);
  }
  return roundTo(largest, 4);
}

function layoutShifts(
  events: readonly TraceEvent[],
  page: TracedPage,
  since: number,
): Array<{ ts: number; score: number }> {
  const shifts: Array<{ ts: number; score: number }> = [];
  for (const event of events) {
    if (event.name !== 'LayoutShift' || event.ts < since || !inPage(event, page)) {
      continue;
    }
    const data = recordAt(event.args, 'data');
    const score = numberAt(data, 'weighted_score_delta') ?? numberAt(data, 'score');
    if (data['had_recent_input'] !== true && score !== undefined) {
      shifts.push({ ts: event.ts, score });
    }
  }
  return shifts;
}

/** The duration of each interaction (its longest event), longest first. */
function interactionDurations(events: readonly TraceEvent[], page: TracedPage, since: number): number[] {
  const interactions = new Map<string, number>();
  for (const event of events) {
    if (
      event.name !== 'EventTiming' ||
      (event.ph !== 'b' && event.ph !== 'X') ||
      event.ts < since ||
      !inPage(event, page)
    ) {
      continue;
    }
    const data = recordAt(event.args, 'data');
    const id = numberAt(data, 'interactionId') ?? 0;
    const duration = numberAt(data, 'duration');
    if (id > 0 && duration !== undefined) {
      const key = `${event.pid}:${id}`;
      interactions.set(key, Math.max(interactions.get(key) ?? 0, duration));
    }
  }
  return [...interactions.values()].sort((a, b) => b - a);
}

/** web-vitals' INP: the longest interaction, passing over one of the longest for every 50. */
export function interactionToNextPaint(longestFirst: readonly number[]): number | null {
  if (longestFirst.length === 0) {
    return null;
  }
  const inp = longestFirst[Math.min(Math.floor(longestFirst.length / 50), longestFirst.length - 1)];
  return inp === undefined ? null : roundTo(inp, 1);
}

function longTasks(events: readonly TraceEvent[], page: TracedPage): TraceVitals['long_tasks'] {
  const mainThreads = new Set<string>();
  for (const event of events) {
    if (
      event.ph === 'M' &&
      event.name === 'thread_name' &&
      event.args['name'] === 'CrRendererMain' &&
      inPage(event, page)
    ) {
      mainThreads.add(`${event.pid}:${event.tid}`);
    }
  }
  const tasks = { count: 0, total_ms: 0, longest_ms: 0 };
  for (const event of events) {
    if (event.name !== 'RunTask' || event.dur === undefined || !mainThreads.has(`${event.pid}:${event.tid}`)) {
      continue;
    }
    const ms = event.dur / 1000;
    if (ms > LONG_TASK_MS) {
      tasks.count += 1;
      tasks.total_ms += ms;
      tasks.longest_ms = Math.max(tasks.longest_ms, ms);
    }
  }
  return { count: tasks.count, total_ms: roundTo(tasks.total_ms, 1), longest_ms: roundTo(tasks.longest_ms, 1) };
}

/** The vitals of the traced tab (see TraceVitals for the rules). */
export function vitalsOf(events: readonly TraceEvent[]): TraceVitals {
  const page = pageOf(events);
  const navigation = lastNavigation(events, page);
  const since = navigation?.ts ?? Number.NEGATIVE_INFINITY;
  const interactions = interactionDurations(events, page, since);
  return {
    lcp_ms: navigation === undefined ? null : largestContentfulPaint(events, page, navigation),
    cls: cumulativeLayoutShift(
      layoutShifts(events, page, navigation === undefined ? since : committedAt(events, page, navigation)),
    ),
    inp_ms: interactionToNextPaint(interactions),
    interactions: interactions.length,
    long_tasks: longTasks(events, page),
    dom_content_loaded_ms: navigation === undefined ? null : firstMark(events, 'MarkDOMContent', page, navigation),
    load_ms: navigation === undefined ? null : firstMark(events, 'MarkLoad', page, navigation),
  };
}
