import { describe, expect, it } from 'vitest';
import { silentLogger } from '../../shared/logger';
import { defaultBrowserConfig } from '../config';
import { FakeBrowser } from '../../../test/fakes/fake-browser';
import { startedFakeSession } from '../../../test/fakes/fake-session';
import { CrashMonitor, type BrowserError } from './crash-monitor';

async function monitorOfOnePage(crash: Partial<ReturnType<typeof defaultBrowserConfig>['crash']> = {}) {
  const browser = new FakeBrowser();
  const page = browser.addPage('https://example.test/');
  const { session } = await startedFakeSession({
    browser,
    watchdogs: [],
    config: { crash: { ...defaultBrowserConfig().crash, ...crash } },
  });
  const reported: BrowserError[] = [];
  const monitor = new CrashMonitor(session, silentLogger, (error) => reported.push(error));
  return { session, page, monitor, reported };
}

describe('CrashMonitor', () => {
  it('reports a crash once however many CDP events announced it, and a later crash again', async () => {
    const { session, page, monitor } = await monitorOfOnePage();
    monitor.markCrashed(page.targetId);
    monitor.markCrashed(page.targetId);
    expect(session.conditions.status(page.targetId).status).toBe('crashed');
    expect(monitor.takeCrashReport(page.targetId, 'killed')).toMatchObject({
      error_type: 'TargetCrash',
      details: { target_id: page.targetId },
    });
    expect(monitor.takeCrashReport(page.targetId, 'killed')).toBeUndefined();
    monitor.recovered(page.targetId);
    expect(session.conditions.status(page.targetId).status).toBe('ok');
    monitor.markCrashed(page.targetId);
    expect(monitor.takeCrashReport(page.targetId, 'oom')?.message).toContain('(oom)');
  });

  it('has nothing to report for a page it saw no crash of, or one forgotten since', async () => {
    const { session, page, monitor } = await monitorOfOnePage();
    expect(monitor.takeCrashReport(page.targetId, 'killed')).toBeUndefined();
    monitor.markCrashed(page.targetId);
    monitor.forget(page.targetId);
    expect(monitor.takeCrashReport(page.targetId, 'killed')).toBeUndefined();
    expect(session.conditions.status(page.targetId).status).toBe('ok');
  });

  it('reports a request open past the bound once, notes it for the state, and unnotes it when it ends', async () => {
    const { session, page, monitor, reported } = await monitorOfOnePage({ network_timeout_ms: 1 });
    monitor.requestStarted('s:1', {
      targetId: page.targetId,
      url: 'https://example.test/slow',
      method: 'GET',
      resourceType: 'Fetch',
    });
    await new Promise((resolve) => setTimeout(resolve, 10));
    monitor.sweepRequests();
    monitor.sweepRequests();
    expect(reported.map((error) => error.error_type)).toEqual(['NetworkTimeout']);
    expect(session.conditions.notesOf(page.targetId).join(' ')).toContain('https://example.test/slow');
    monitor.requestEnded('s:1', page.targetId);
    expect(session.conditions.notesOf(page.targetId)).toEqual([]);
  });
});
