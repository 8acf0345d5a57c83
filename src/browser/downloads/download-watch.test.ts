import { describe, expect, it } from 'vitest';
import { FakeBrowser } from '../../../test/fakes/fake-browser';
import { startedFakeSession } from '../../../test/fakes/fake-session';
import { TabpilotError } from '../../shared/errors';
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

  /**
   * A page whose link's download begins `afterMs` after the click (its server answers then), and its watch;
   * `savedAs`: the name the file is saved under (another than the one the page suggests when that is taken).
   */
  async function linkDownloadingAfter(afterMs: number, savedAs = 'notes.txt'): Promise<DownloadWatch> {
    const browser = new FakeBrowser();
    const page = browser.addPage('https://a.test/');
    const { session } = await startedFakeSession({ browser, watchdogs: [] });
    const files = new DownloadedFiles();
    browser.responders.set('Runtime.evaluate', () => ({ result: { type: 'number', value: 0 } }));
    const download = { guid: 'g2', url: 'https://a.test/notes.txt', target_id: page.targetId };
    setTimeout(() => {
      browser.emitOn(page, 'Page.downloadWillBegin', {
        frameId: page.targetId,
        guid: download.guid,
        url: download.url,
        suggestedFilename: 'notes.txt',
      });
      files.began({ ...download, suggested_filename: 'notes.txt', received_bytes: 0, total_bytes: 0 });
      files.finished({
        ...download,
        path: `/downloads/${savedAs}`,
        file_name: savedAs,
        file_size: 5,
        mime_type: 'text/plain',
      });
    }, afterMs);
    return new DownloadWatch(session.targets, files, page.targetId, {
      expected: true,
      renderers: [session.targets.requireSession(page.targetId)],
      log: silentLogger,
    });
  }

  it('waits for the download a link with download starts once its slow server answers', async () => {
    const watch = await linkDownloadingAfter(200);
    expect(await watch.outcome(undefined, { answered: [] })).toMatchObject({
      path: '/downloads/notes.txt',
      in_progress: false,
    });
  });

  it('does not wait for a download link whose click the page prevented: it started nothing itself', async () => {
    // The same late download is not waited for, so it is not claimed: the link did not follow its URL.
    const watch = await linkDownloadingAfter(200);
    expect(await watch.outcome(undefined, { answered: [], prevented: true })).toBeNull();
  });

  it('ends its wait when the input is cancelled (Stop), failing rather than answering none', async () => {
    const watch = await linkDownloadingAfter(2_000);
    const stop = new AbortController();
    setTimeout(() => stop.abort(new TabpilotError('CANCELLED', 'stopped')), 50);
    await expect(watch.outcome(stop.signal, { answered: [] })).rejects.toMatchObject({ code: 'CANCELLED' });
  });

  it('names the file as the page suggested it even when the download finished before the click read it', async () => {
    const watch = await linkDownloadingAfter(0, 'notes (1).txt');
    await new Promise((resolve) => setTimeout(resolve, 30));
    expect(await watch.outcome(undefined, { answered: [] })).toMatchObject({
      url: 'https://a.test/notes.txt',
      suggested_filename: 'notes.txt',
      path: '/downloads/notes (1).txt',
      in_progress: false,
    });
  });
});
