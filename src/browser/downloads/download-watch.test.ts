import { describe, expect, it } from 'vitest';
import { FakeBrowser } from '../../../test/fakes/fake-browser';
import { startedFakeSession } from '../../../test/fakes/fake-session';
import { silentLogger } from '../../shared/logger';
import { DownloadedFiles } from '../artifacts/downloaded-files';
import { DownloadWatch } from './download-watch';

describe('DownloadWatch', () => {
  it('hears a navigation the renderer requested after the input was acknowledged, and waits for its download', async () => {
    const browser = new FakeBrowser();
    const page = browser.addPage('https://a.test/');
    const { session } = await startedFakeSession({ browser, watchdogs: [] });
    const files = new DownloadedFiles();
    // The renderer's event comes before the answer to the round trip, as on one devtools session; the
    // download starts later, from the browser process.
    browser.responders.set('Runtime.evaluate', () => {
      browser.emitOn(page, 'Page.frameRequestedNavigation', {
        frameId: page.targetId,
        reason: 'anchorClick',
        url: 'https://a.test/report.csv',
        disposition: 'currentTab',
      });
      setTimeout(() => {
        browser.emitOn(page, 'Page.downloadWillBegin', {
          frameId: page.targetId,
          guid: 'g1',
          url: 'https://a.test/report.csv',
          suggestedFilename: 'report.csv',
        });
        files.began({
          guid: 'g1',
          url: 'https://a.test/report.csv',
          suggested_filename: 'report.csv',
          target_id: page.targetId,
          received_bytes: 0,
          total_bytes: 0,
        });
        files.finished({
          guid: 'g1',
          url: 'https://a.test/report.csv',
          path: '/downloads/report.csv',
          file_name: 'report.csv',
          file_size: 14,
          mime_type: 'text/csv',
          target_id: page.targetId,
        });
      }, 30);
      return { result: { type: 'number', value: 0 } };
    });
    const watch = new DownloadWatch(session.targets, files, page.targetId, {
      expected: false,
      renderers: [session.targets.requireSession(page.targetId)],
      log: silentLogger,
    });
    expect(await watch.outcome()).toMatchObject({ path: '/downloads/report.csv', file_size: 14, in_progress: false });
  });

  it('reports none for a click that neither navigated nor downloaded, without waiting', async () => {
    const browser = new FakeBrowser();
    const page = browser.addPage('https://a.test/');
    const { session } = await startedFakeSession({ browser, watchdogs: [] });
    browser.responders.set('Runtime.evaluate', () => ({ result: { type: 'number', value: 0 } }));
    const watch = new DownloadWatch(session.targets, new DownloadedFiles(), page.targetId, {
      expected: false,
      renderers: [session.targets.requireSession(page.targetId)],
      log: silentLogger,
    });
    expect(await watch.outcome()).toBeNull();
  });
});
