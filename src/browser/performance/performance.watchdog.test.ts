import { describe, expect, it } from 'vitest';
import { FakeBrowser, type FakeTarget } from '../../../test/fakes/fake-browser';
import { startedFakeSession } from '../../../test/fakes/fake-session';
import { PerformanceStartEvent, PerformanceStopEvent } from '../../protocol/actions/performance.actions';
import { TabLeaseEndedEvent } from '../../protocol/events/tabs.events';
import type { ArtifactFiles } from '../artifacts/artifact-files';
import { performanceWatchdog } from './performance.watchdog';

/** What the fake browser hands over: one page load of a.test with a late LCP and a long task. */
const TRACE = {
  traceEvents: [
    {
      name: 'TracingStartedInBrowser',
      ph: 'I',
      pid: 1,
      tid: 1,
      ts: 0,
      args: { data: { frames: [{ frame: 'F', processId: 2, url: 'https://a.test/?k=s3cret-value' }] } },
    },
    { name: 'thread_name', ph: 'M', pid: 2, tid: 3, ts: 0, args: { name: 'CrRendererMain' } },
    {
      name: 'navigationStart',
      ph: 'R',
      pid: 2,
      tid: 3,
      ts: 1_000,
      args: { frame: 'F', data: { documentLoaderURL: 'https://a.test/?k=s3cret-value', navigationId: 'N' } },
    },
    {
      name: 'largestContentfulPaint::Candidate',
      ph: 'R',
      pid: 2,
      tid: 3,
      ts: 501_000,
      args: { frame: 'F', data: { navigationId: 'N' } },
    },
    { name: 'RunTask', ph: 'X', pid: 2, tid: 3, ts: 600_000, dur: 80_000 },
  ],
};

function memoryFiles(): ArtifactFiles & { written: Map<string, string> } {
  const written = new Map<string, string>();
  return {
    written,
    check: (path) => Promise.resolve(`out/${path}`),
    folder: (path) => Promise.resolve(path),
    openRandomAccess: () => Promise.reject(new Error('not used')),
    writeFile: (path, bytes) => {
      written.set(path, new TextDecoder().decode(bytes));
      return Promise.resolve(`out/${path}`);
    },
    readFile: () => Promise.reject(new Error('not used')),
  };
}

async function twoTabs() {
  const browser = new FakeBrowser();
  const a = browser.addPage('https://a.test/');
  const b = browser.addPage('https://b.test/');
  const files = memoryFiles();
  const { session } = await startedFakeSession({
    browser,
    watchdogs: [performanceWatchdog],
    host: { tabControl: undefined, artifacts: files },
    config: { sensitive_data: { 'a.test': { key: 's3cret-value' } } },
  });
  const pages: FakeTarget[] = [a, b];
  // Tracing.end is answered, then the trace is handed over on the same session as a stream.
  browser.responders.set('Tracing.end', (_params, sessionId) => {
    const page = pages.find((target) => sessionId !== undefined && target.sessions.has(sessionId));
    setTimeout(() => browser.emitOn(page, 'Tracing.tracingComplete', { dataLossOccurred: false, stream: 'S' }), 0);
    return {};
  });
  browser.responders.set('IO.read', () => ({ data: JSON.stringify(TRACE), eof: true }));
  return { browser, session, files, a: a.targetId, b: b.targetId };
}

describe('PerformanceWatchdog', () => {
  it('traces one tab at a time, and its stop writes the file with the secret replaced and answers the vitals', async () => {
    const { browser, session, files, a, b } = await twoTabs();
    expect(await session.bus.emit(PerformanceStartEvent, { target_id: a, file_name: 'load' })).toEqual({
      file: 'out/load.json',
      reloaded: false,
    });
    await expect(session.bus.emit(PerformanceStartEvent, { target_id: b })).rejects.toMatchObject({
      code: 'FORBIDDEN',
      message: expect.stringMatching(/another tab/) as unknown,
    });
    await expect(session.bus.emit(PerformanceStopEvent, { target_id: b })).rejects.toMatchObject({
      code: 'ELEMENT_NOT_FOUND',
    });
    const answer = await session.bus.emit(PerformanceStopEvent, { target_id: a });
    expect(answer).toMatchObject({
      file: 'out/load.json',
      lcp_ms: 500,
      cls: 0,
      inp_ms: null,
      long_tasks: { count: 1, total_ms: 80, longest_ms: 80 },
    });
    const written = files.written.get('load.json') ?? '';
    expect(written).not.toContain('s3cret-value');
    expect(written).toContain('<secret>key</secret>');
    expect(browser.sentMethods().filter((method) => method === 'IO.close')).toHaveLength(1);
    // Stopped: the other tab may trace now.
    await session.bus.emit(PerformanceStartEvent, { target_id: b });
  });

  it("ends and throws away the trace when the client's lease on the tab ends", async () => {
    const { browser, session, files, a } = await twoTabs();
    await session.bus.emit(PerformanceStartEvent, { target_id: a });
    await session.bus.emit(TabLeaseEndedEvent, { target_ids: [a], client: 'c1' });
    expect(browser.sentMethods()).toContain('Tracing.end');
    expect(browser.sentMethods()).toContain('IO.close');
    expect(browser.sentMethods()).not.toContain('IO.read');
    expect(files.written.size).toBe(0);
    await expect(session.bus.emit(PerformanceStopEvent, { target_id: a })).rejects.toMatchObject({
      code: 'ELEMENT_NOT_FOUND',
    });
  });

  it('refuses FORBIDDEN when the browser is tracing for someone else, and holds no trace after', async () => {
    const { browser, session, a } = await twoTabs();
    browser.responders.set('Tracing.start', () => {
      throw new Error('Tracing has already been started (possibly in another tab).');
    });
    await expect(session.bus.emit(PerformanceStartEvent, { target_id: a })).rejects.toMatchObject({
      code: 'FORBIDDEN',
      message: expect.stringMatching(/recording a trace already/) as unknown,
    });
    browser.responders.delete('Tracing.start');
    await session.bus.emit(PerformanceStartEvent, { target_id: a });
  });
});
