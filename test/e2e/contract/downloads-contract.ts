import { existsSync, readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { BrowserStateSummary } from '../../../src/protocol/events/state.events';
import { pollUntil } from '../../../src/shared/time';
import { DOWNLOADS, PDF_BYTES, addDownloadPages } from '../harness/download-pages';
import type { Driver } from '../harness/drivers';
import { FixtureServer } from '../harness/fixture-server';

export interface DownloadsContractHooks {
  /** The folder downloads land in on this transport. */
  folder: string;
  configure(driver: Driver, fields: Record<string, unknown>): Promise<void>;
}

interface ClickResult {
  method: 'mouse' | 'script';
  download: { path: string | null; file_size: number | null; mime_type: string | null; in_progress: boolean } | null;
}

/**
 * Downloads, the same over both transports: each way a page starts one is tracked from start to finish
 * (the three events, in order, with path, size and MIME type), the file's bytes are read back from the
 * folder the transport puts it in, the click says it downloaded, the state lists the files, a download
 * can be uploaded again without upload_paths, and a PDF the tab shows is saved.
 */
export function defineDownloadsContract(
  name: string,
  start: () => Promise<Driver>,
  hooks: DownloadsContractHooks,
): void {
  describe(`downloads over ${name}`, () => {
    const server = new FixtureServer();
    addDownloadPages(server);
    let driver: Driver;

    beforeAll(async () => {
      await server.start();
      driver = await start();
      await driver.openTab('about:blank');
      await driver.ok('subscribe', {
        events: ['DownloadStartedEvent', 'DownloadProgressEvent', 'FileDownloadedEvent'],
      });
    });
    afterAll(async () => {
      await driver?.close();
      await server.stop();
    });

    const clickByName = async (label: string): Promise<ClickResult> => {
      const state = await driver.ok<BrowserStateSummary>('state');
      const element = state.elements.find((candidate) => candidate.name === label);
      if (element === undefined) {
        throw new Error(`no element "${label}" in:\n${state.text}`);
      }
      return driver.ok<ClickResult>('click', { index: element.index });
    };

    const downloaded = async (
      fileName: string,
      byBrowser = true,
    ): Promise<{ path: string; data: Record<string, unknown> }> => {
      const seen: Array<{ event: string; data: Record<string, unknown> }> = [];
      const done = await pollUntil(
        async () => {
          seen.push(...((await driver.takeEvents()) as typeof seen));
          return seen.find(
            (message) => message.event === 'FileDownloadedEvent' && message.data['file_name'] === fileName,
          );
        },
        {
          timeoutMs: 15_000,
          intervalMs: 100,
          onTimeout: () => new Error(`${fileName} was never downloaded: ${JSON.stringify(seen)}`),
        },
      );
      if (!byBrowser) {
        return { path: String(done.data['path']), data: done.data };
      }
      const guid = done.data['guid'];
      const started = seen.findIndex(
        (message) => message.event === 'DownloadStartedEvent' && message.data['guid'] === guid,
      );
      const progress = seen.findIndex(
        (message) => message.event === 'DownloadProgressEvent' && message.data['guid'] === guid,
      );
      expect(started, `${fileName} DownloadStartedEvent`).toBeGreaterThanOrEqual(0);
      expect(progress, `${fileName} DownloadProgressEvent`).toBeGreaterThan(started);
      return { path: String(done.data['path']), data: done.data };
    };

    const expectFile = (path: string, expected: Buffer | string, fileName: string): void => {
      expect(path.startsWith(hooks.folder), `${path} is in ${hooks.folder}`).toBe(true);
      expect(path.endsWith(fileName)).toBe(true);
      expect(existsSync(path)).toBe(true);
      expect(readFileSync(path)).toEqual(Buffer.from(expected));
    };

    it('tracks a download from a link with the download attribute from start to finish', async () => {
      await driver.ok('navigate', { url: server.url('/dl/index.html') });
      const click = await clickByName('Attribute link');
      const { path, data } = await downloaded(DOWNLOADS.attribute.file);
      expectFile(path, DOWNLOADS.attribute.text, DOWNLOADS.attribute.file);
      expect(data).toMatchObject({
        file_size: DOWNLOADS.attribute.text.length,
        file_type: 'txt',
        auto_download: false,
      });
      expect(String(data['mime_type'])).toMatch(/^text\/plain/);
      // The link's download attribute is in the state, so the click waits for the download it starts
      // a moment later (CI once missed it when the click did not know and so did not wait).
      expect(click.download).toMatchObject({ path, in_progress: false });
      // The same link again: the second file (saved where the first was, or beside it) is the second
      // click's, found by its own download, not lost behind the first one's path.
      const again = await clickByName('Attribute link');
      expect(again.download).toMatchObject({ in_progress: false, file_size: DOWNLOADS.attribute.text.length });
      expect(readFileSync(String(again.download?.path))).toEqual(Buffer.from(DOWNLOADS.attribute.text));
    });

    it('tracks downloads of a data: URL, a blob: URL and an attachment response, reading each file back', async () => {
      for (const [label, spec] of [
        ['Data link', DOWNLOADS.data],
        ['Blob button', DOWNLOADS.blob],
        ['Attachment link', DOWNLOADS.attachment],
      ] as const) {
        const click = await clickByName(label);
        const { path, data } = await downloaded(spec.file);
        expectFile(path, spec.text, spec.file);
        expect(data['file_size'], spec.file).toBe(Buffer.byteLength(spec.text));
        if (label !== 'Blob button') {
          // A data: link, and a link whose navigation turns into a download: the click waits and says so.
          expect(click.download, label).toMatchObject({
            path,
            file_size: Buffer.byteLength(spec.text),
            in_progress: false,
          });
        }
      }
    });

    it('does not wait for a download link whose click the page prevented, and tracks what its script downloads', async () => {
      await driver.ok('navigate', { url: server.url('/dl/index.html') });
      const click = await clickByName('Prevented link');
      // The link did not follow its URL, so the click did not wait for its download. The download the page
      // started in its place, from a slow server, begins after the click answered: it is the events' and
      // the state's, not the click's (a click that waited would have claimed it).
      expect(click.download).toBeNull();
      const { path } = await downloaded(DOWNLOADS.byScript.file);
      expectFile(path, DOWNLOADS.byScript.text, DOWNLOADS.byScript.file);
    });

    it('does not wait for a download link clicked by script whose click the page prevented', async () => {
      await driver.ok('navigate', { url: server.url('/dl/index.html') });
      const state = await driver.ok<BrowserStateSummary>('state');
      const link = state.elements.find((element) => element.name === 'Tiny prevented link');
      expect(link).toBeDefined();
      await clickByName('Shrink the tiny link');
      // The link has no box now: the click dispatches it by script, and the page prevents its default.
      const click = await driver.ok<ClickResult>('click', { index: link?.index });
      expect(click.method).toBe('script');
      expect(click.download).toBeNull();
      const { path } = await downloaded(DOWNLOADS.byScriptTiny.file);
      expectFile(path, DOWNLOADS.byScriptTiny.text, DOWNLOADS.byScriptTiny.file);
    });

    it('tracks a navigation to a file, and lists every download in the state', async () => {
      await driver.send('navigate', { url: server.url(`/dl/${DOWNLOADS.navigation.file}`) });
      const { path } = await downloaded(DOWNLOADS.navigation.file);
      expectFile(path, DOWNLOADS.navigation.bytes, DOWNLOADS.navigation.file);
      await driver.ok('navigate', { url: server.url('/dl/index.html') });
      const state = await driver.ok<BrowserStateSummary>('state');
      for (const spec of Object.values(DOWNLOADS)) {
        expect(
          state.downloaded_files.some((file) => file.endsWith(spec.file)),
          spec.file,
        ).toBe(true);
      }
    });

    it('uploads a downloaded file again without its folder in upload_paths', async () => {
      await hooks.configure(driver, { upload_paths: [] });
      const state = await driver.ok<BrowserStateSummary>('state');
      const file = state.downloaded_files.find((path) => path.endsWith(DOWNLOADS.attachment.file)) ?? '';
      const input = state.elements.find((element) => element.attributes['id'] === 'upload');
      expect(input).toBeDefined();
      await driver.ok('upload_file', { index: input?.index, path: file });
      await pollUntil(
        async () =>
          (await driver.ok<BrowserStateSummary>('state')).text.includes(
            `${DOWNLOADS.attachment.file} ${DOWNLOADS.attachment.text.length}`,
          )
            ? true
            : undefined,
        { timeoutMs: 10_000, intervalMs: 100, onTimeout: () => new Error('the page never got the uploaded file') },
      );
      const refused = await driver.send('upload_file', { index: input?.index, path: '/etc/hostname' });
      expect(refused).toMatchObject({ ok: false, error: { code: 'FORBIDDEN' } });
    });

    it('saves a PDF the tab shows in its viewer (auto_download_pdfs)', async () => {
      await driver.send('navigate', { url: server.url('/dl/manual.pdf') });
      const { path, data } = await downloaded('manual.pdf', false);
      expectFile(path, PDF_BYTES, 'manual.pdf');
      expect(data).toMatchObject({ auto_download: true, mime_type: 'application/pdf', file_type: 'pdf' });
    });
  });
}
