import { describe, expect, it } from 'vitest';
import { traceEventOf, type TraceEvent } from './trace-event';
import { cumulativeLayoutShift, interactionToNextPaint, vitalsOf } from './trace-vitals';

const PAGE_PID = 10;
const OTHER_PID = 20;
const MAIN_TID = 1;
const FRAME = 'MAIN';
const NAV = 1_000_000;

function event(fields: Partial<TraceEvent> & { name: string }): TraceEvent {
  return { ph: 'I', ts: NAV, pid: PAGE_PID, tid: MAIN_TID, cat: '', args: {}, ...fields };
}

/** A page load traced from its navigation start: the tab's frame in PAGE_PID, another renderer beside it. */
function pageLoad(): TraceEvent[] {
  return [
    event({
      name: 'TracingStartedInBrowser',
      pid: 1,
      tid: 1,
      ts: NAV - 500_000,
      args: { data: { frames: [{ frame: FRAME, processId: PAGE_PID, url: 'http://a.test/' }] } },
    }),
    event({ name: 'thread_name', ph: 'M', ts: 0, args: { name: 'CrRendererMain' } }),
    event({ name: 'thread_name', ph: 'M', ts: 0, pid: OTHER_PID, args: { name: 'CrRendererMain' } }),
    event({
      name: 'navigationStart',
      args: {
        frame: FRAME,
        data: { documentLoaderURL: 'http://a.test/', isLoadingMainFrame: true, navigationId: 'N1' },
      },
    }),
    event({ name: 'MarkDOMContent', ts: NAV + 120_000, args: { data: { frame: FRAME } } }),
    event({ name: 'MarkLoad', ts: NAV + 300_000, args: { data: { frame: FRAME } } }),
  ];
}

function lcpCandidate(ms: number, frame = FRAME, navigationId = 'N1'): TraceEvent {
  return event({
    name: 'largestContentfulPaint::Candidate',
    ts: NAV + ms * 1000,
    args: { frame, data: { navigationId } },
  });
}

function shift(ms: number, score: number, extra: Record<string, unknown> = {}): TraceEvent {
  return event({
    name: 'LayoutShift',
    ts: NAV + ms * 1000,
    args: { frame: FRAME, data: { weighted_score_delta: score, score, had_recent_input: false, ...extra } },
  });
}

function eventTiming(ms: number, interactionId: number, duration: number, pid = PAGE_PID): TraceEvent[] {
  const data = { interactionId, duration, type: 'pointerup', frame: FRAME };
  return [
    event({ name: 'EventTiming', ph: 'b', pid, ts: NAV + ms * 1000, args: { data } }),
    event({ name: 'EventTiming', ph: 'e', pid, ts: NAV + (ms + duration) * 1000, args: {} }),
  ];
}

function task(ms: number, durationMs: number, pid = PAGE_PID, tid = MAIN_TID): TraceEvent {
  return event({ name: 'RunTask', ph: 'X', pid, tid, ts: NAV + ms * 1000, dur: durationMs * 1000 });
}

describe('vitalsOf', () => {
  it('reads a page load: LCP is the last candidate of the navigation, DCL and load from navigation start', () => {
    const vitals = vitalsOf([...pageLoad(), lcpCandidate(80), lcpCandidate(900), lcpCandidate(2500, 'SUBFRAME')]);
    expect(vitals.lcp_ms).toBe(900);
    expect(vitals.dom_content_loaded_ms).toBe(120);
    expect(vitals.load_ms).toBe(300);
  });

  it("leaves out an earlier navigation's candidates and takes back an LCP a later invalidation cancelled", () => {
    const earlier = lcpCandidate(3000, FRAME, 'N0');
    expect(vitalsOf([...pageLoad(), lcpCandidate(400), earlier]).lcp_ms).toBe(400);
    const invalidated = event({
      name: 'largestContentfulPaint::Invalidate',
      ts: NAV + 700_000,
      args: { frame: FRAME, data: { navigationId: 'N1' } },
    });
    expect(vitalsOf([...pageLoad(), lcpCandidate(400), invalidated]).lcp_ms).toBeNull();
  });

  it('has no load figures without a traced navigation (an interaction on a loaded page)', () => {
    const vitals = vitalsOf([pageLoad()[0] as TraceEvent, ...eventTiming(100, 7, 180)]);
    expect(vitals).toMatchObject({ lcp_ms: null, dom_content_loaded_ms: null, load_ms: null, inp_ms: 180 });
  });

  it("CLS: shifts after input are left out, other renderers' too, the largest session window counts", () => {
    const vitals = vitalsOf([
      ...pageLoad(),
      shift(100, 0.1),
      shift(600, 0.05),
      shift(700, 0.5, { had_recent_input: true }),
      { ...shift(800, 0.9), pid: OTHER_PID },
      // Past a 1 s gap: a new window, larger than the first.
      shift(3000, 0.12),
      shift(3500, 0.08),
    ]);
    expect(vitals.cls).toBe(0.2);
  });

  it('CLS: the page it replaces shifting before the new document committed is not counted', () => {
    const commit = event({ name: 'CommitLoad', ts: NAV + 50_000, args: { data: { frame: FRAME } } });
    const vitals = vitalsOf([...pageLoad(), shift(20, 0.3), commit, shift(300, 0.25)]);
    expect(vitals.cls).toBe(0.25);
    // Without a commit in the trace, every shift from navigation start counts.
    expect(vitalsOf([...pageLoad(), shift(20, 0.3), shift(300, 0.25)]).cls).toBe(0.55);
  });

  it('INP: the longest interaction, each lasting its longest event; none gives null', () => {
    const vitals = vitalsOf([
      ...pageLoad(),
      ...eventTiming(1000, 1, 40),
      ...eventTiming(1001, 1, 168),
      ...eventTiming(2000, 2, 96),
      // Not an interaction (a hover), and another renderer's.
      ...eventTiming(2100, 0, 400),
      ...eventTiming(2200, 3, 500, OTHER_PID),
    ]);
    expect(vitals).toMatchObject({ inp_ms: 168, interactions: 2 });
    expect(vitalsOf(pageLoad()).inp_ms).toBeNull();
  });

  it("long tasks: RunTask over 50 ms on the page's renderer main thread only", () => {
    const vitals = vitalsOf([
      ...pageLoad(),
      task(10, 30),
      task(100, 200),
      task(400, 75.5),
      task(600, 50),
      // Another thread of the page's renderer, and another renderer's main thread.
      task(700, 300, PAGE_PID, 2),
      task(800, 400, OTHER_PID),
    ]);
    expect(vitals.long_tasks).toEqual({ count: 2, total_ms: 275.5, longest_ms: 200 });
  });

  it('counts every renderer when the trace does not say which is the page (no TracingStartedInBrowser)', () => {
    const navigation = event({
      name: 'navigationStart',
      args: { frame: FRAME, data: { documentLoaderURL: 'http://a.test/', isOutermostMainFrame: true } },
    });
    const events = [...pageLoad().slice(1, 3), navigation, lcpCandidate(500), task(100, 120, OTHER_PID)];
    expect(vitalsOf(events)).toMatchObject({ lcp_ms: 500, long_tasks: { count: 1 } });
  });
});

describe('cumulativeLayoutShift', () => {
  it('closes a window 5 s after its first shift even without a 1 s gap', () => {
    const steady = Array.from({ length: 11 }, (_, i) => ({ ts: i * 900_000, score: 0.01 }));
    // 0 .. 4.5 s in one window (6 shifts), then a new one from 5.4 s (5 shifts).
    expect(cumulativeLayoutShift(steady)).toBe(0.06);
  });

  it('is 0 without shifts', () => {
    expect(cumulativeLayoutShift([])).toBe(0);
  });
});

describe('interactionToNextPaint', () => {
  it('passes over one of the longest for every 50 interactions (p98)', () => {
    const longestFirst = [900, 800, ...Array.from({ length: 98 }, () => 100)];
    expect(interactionToNextPaint(longestFirst)).toBe(100);
    expect(interactionToNextPaint([900, 800, ...Array.from({ length: 48 }, () => 100)])).toBe(800);
    expect(interactionToNextPaint([120])).toBe(120);
  });
});

describe('traceEventOf', () => {
  it('reads the format fields and refuses what lacks them', () => {
    expect(
      traceEventOf({ name: 'RunTask', ph: 'X', ts: 5, pid: 1, tid: 2, dur: 60, cat: 'x', args: { a: 1 } }),
    ).toEqual({
      name: 'RunTask',
      ph: 'X',
      ts: 5,
      pid: 1,
      tid: 2,
      dur: 60,
      cat: 'x',
      args: { a: 1 },
    });
    expect(traceEventOf({ name: 'RunTask', ph: 'X', ts: 5, pid: '1', tid: 2 })).toBeUndefined();
    expect(traceEventOf('RunTask')).toBeUndefined();
  });
});
