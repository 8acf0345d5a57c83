import { traceEventOf } from './trace-event';

/** The traced tab: its page target id (its main frame's id in the trace) and URL. */
export interface TracedTab {
  frameId: string;
  url: string;
}

/**
 * A trace as DevTools reads a page's recording: it takes the browser process, the main frame and its
 * renderers from `TracingStartedInBrowser`, and without one loads the file as a generic trace (no page,
 * no Web Vitals). Through chrome.debugger the browser records only the tab's renderer, so that event is
 * missing; it is put back here, as the browser writes it for a page: the tab's main frame in the renderer
 * whose main thread (CrRendererMain) did the most, in a browser process of its own (a pid no event uses,
 * so no renderer thread is taken for the browser's). A trace that has one is left as it is.
 */
export function withTracingStarted(events: readonly unknown[], tab: TracedTab): unknown[] {
  const parsed = events.map(traceEventOf);
  if (parsed.some((event) => event?.name === 'TracingStartedInBrowser')) {
    return [...events];
  }
  /** The renderer main threads, by pid:tid, with their pid. */
  const mainThreads = new Map<string, number>();
  const counts = new Map<string, number>();
  let firstTs = Number.POSITIVE_INFINITY;
  let highestPid = 0;
  for (const event of parsed) {
    if (event === undefined) {
      continue;
    }
    highestPid = Math.max(highestPid, event.pid);
    if (event.ph === 'M') {
      if (event.name === 'thread_name' && event.args['name'] === 'CrRendererMain') {
        mainThreads.set(`${event.pid}:${event.tid}`, event.pid);
      }
      continue;
    }
    if (event.ts > 0) {
      firstTs = Math.min(firstTs, event.ts);
    }
    const thread = `${event.pid}:${event.tid}`;
    counts.set(thread, (counts.get(thread) ?? 0) + 1);
  }
  const [busiest] = [...mainThreads].sort(([a], [b]) => (counts.get(b) ?? 0) - (counts.get(a) ?? 0));
  if (busiest === undefined || !Number.isFinite(firstTs)) {
    return [...events];
  }
  const [, rendererPid] = busiest;
  const browserPid = highestPid + 1;
  return [
    {
      name: 'TracingStartedInBrowser',
      cat: 'disabled-by-default-devtools.timeline',
      ph: 'I',
      s: 't',
      pid: browserPid,
      tid: browserPid,
      ts: firstTs,
      args: {
        data: {
          frameTreeNodeId: 0,
          persistentIds: true,
          frames: [
            {
              frame: tab.frameId,
              url: tab.url,
              name: '',
              processId: rendererPid,
              isOutermostMainFrame: true,
              isInPrimaryMainFrame: true,
            },
          ],
        },
      },
    },
    { name: 'process_name', cat: '__metadata', ph: 'M', pid: browserPid, tid: 0, ts: 0, args: { name: 'Browser' } },
    ...events,
  ];
}
