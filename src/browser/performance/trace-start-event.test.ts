import { describe, expect, it } from 'vitest';
import { traceFileBytes, traceFileName } from './trace-file';
import { rawEventsOf } from './trace-recording';
import { withTracingStarted } from './trace-start-event';
import { vitalsOf } from './trace-vitals';
import { traceEventOf, type TraceEvent } from './trace-event';

/** What chrome.debugger hands over: the tab's renderer only, a busy main thread and a quiet one elsewhere. */
const RENDERER_ONLY = [
  { name: 'thread_name', ph: 'M', pid: 7, tid: 1, ts: 0, args: { name: 'CrRendererMain' } },
  { name: 'thread_name', ph: 'M', pid: 9, tid: 1, ts: 0, args: { name: 'CrRendererMain' } },
  {
    name: 'navigationStart',
    ph: 'R',
    pid: 7,
    tid: 1,
    ts: 5_000,
    args: { frame: 'TAB', data: { documentLoaderURL: 'http://a.test/' } },
  },
  { name: 'largestContentfulPaint::Candidate', ph: 'R', pid: 7, tid: 1, ts: 605_000, args: { frame: 'TAB', data: {} } },
  { name: 'RunTask', ph: 'X', pid: 7, tid: 1, ts: 2_000, dur: 10 },
  { name: 'RunTask', ph: 'X', pid: 9, tid: 1, ts: 3_000, dur: 10 },
  { name: 'RunTask', ph: 'X', pid: 7, tid: 1, ts: 4_000, dur: 10 },
];

function parsed(events: readonly unknown[]): TraceEvent[] {
  return events.map(traceEventOf).filter((event) => event !== undefined);
}

describe('withTracingStarted', () => {
  it("puts back the browser's TracingStartedInBrowser: the tab's frame in the busiest renderer, a browser pid of its own", () => {
    const events = withTracingStarted(RENDERER_ONLY, { frameId: 'TAB', url: 'http://a.test/' });
    const started = parsed(events).find((event) => event.name === 'TracingStartedInBrowser');
    expect(started).toMatchObject({
      ph: 'I',
      pid: 10,
      ts: 2_000,
      args: { data: { frames: [{ frame: 'TAB', url: 'http://a.test/', processId: 7, isOutermostMainFrame: true }] } },
    });
    expect(events).toHaveLength(RENDERER_ONLY.length + 2);
    // With it the vitals know the page: its frame's LCP.
    expect(vitalsOf(parsed(events)).lcp_ms).toBe(600);
  });

  it('leaves a trace that has one as it is', () => {
    const withOne = [{ name: 'TracingStartedInBrowser', ph: 'I', pid: 1, tid: 1, ts: 1, args: {} }, ...RENDERER_ONLY];
    expect(withTracingStarted(withOne, { frameId: 'TAB', url: '' })).toEqual(withOne);
  });
});

describe('the trace file', () => {
  it('is the JSON DevTools loads, with each configured secret replaced by its placeholder', () => {
    const bytes = traceFileBytes(
      [{ name: 'navigationStart', args: { data: { documentLoaderURL: 'http://a.test/?t=hunter2-token' } } }],
      Date.UTC(2026, 0, 2),
      [{ name: 'token', value: 'hunter2-token' }],
    );
    const text = new TextDecoder().decode(bytes);
    expect(text).not.toContain('hunter2-token');
    expect(JSON.parse(text)).toEqual({
      traceEvents: [
        { name: 'navigationStart', args: { data: { documentLoaderURL: 'http://a.test/?t=<secret>token</secret>' } } },
      ],
      metadata: { source: 'tabpilot', startTime: '2026-01-02T00:00:00.000Z', dataOrigin: 'TraceEvents' },
    });
  });

  it('is named .json, and is read back from either of the formats the browser writes', () => {
    expect(traceFileName('traces/load')).toBe('traces/load.json');
    expect(traceFileName('a.JSON')).toBe('a.JSON');
    expect(rawEventsOf('[{"name":"a"}]')).toEqual([{ name: 'a' }]);
    expect(rawEventsOf('{"traceEvents":[{"name":"b"}],"metadata":{}}')).toEqual([{ name: 'b' }]);
    expect(() => rawEventsOf('{"metadata":{}}')).toThrow(expect.objectContaining({ code: 'INTERNAL' }));
  });
});
