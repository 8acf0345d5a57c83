import { errorMessageOf } from '../../shared/errors';
import { pollUntil } from '../../shared/time';
import type { DownloadedFile } from '../artifacts/downloaded-files';
import { requireArtifacts } from '../host';
import { DOWNLOADS_FIELD, type DownloadsContext, type DownloadTracker } from './download-tracker';
import { baseName, pdfNameOf } from './mime';
import { fetchPdfInPage } from './pdf-saver';

/**
 * With `auto_download_pdfs`, saves each PDF a tab shows in the viewer once (per URL, until a save fails)
 * into the session's files, and lists it as an auto download.
 */
export class PdfAutoSave {
  readonly #ctx: DownloadsContext;
  readonly #tracker: DownloadTracker;
  readonly #saved = new Set<string>();

  constructor(ctx: DownloadsContext, tracker: DownloadTracker) {
    this.#ctx = ctx;
    this.#tracker = tracker;
  }

  /** A tab's main frame shows the PDF at `url`. */
  shown(url: string, targetId: string): void {
    if (!this.#ctx.session.config.auto_download_pdfs || this.#saved.has(url)) {
      return;
    }
    this.#saved.add(url);
    void this.#save(url, targetId).catch((error: unknown) => {
      this.#saved.delete(url);
      this.#ctx.log.warn('could not save the PDF the tab shows', { url, error: errorMessageOf(error) });
    });
  }

  async #save(url: string, targetId: string): Promise<void> {
    const { session } = this.#ctx;
    // The viewer replaces the document's session as it loads: chrome.debugger lets go of the tab as
    // the viewer's frame starts (the first answer can be "Detached") and takes it back a moment
    // later, so the tab may have no session at all for a while (a loaded machine's first try often
    // falls in that gap). Ask the tab's current session, once it has one, a few times.
    const bytes = await pollUntil(
      () => {
        const cdp = session.targets.sessionFor(targetId);
        return cdp === undefined ? undefined : fetchPdfInPage(cdp, url).catch(() => undefined);
      },
      {
        timeoutMs: 10_000,
        intervalMs: 250,
        onTimeout: () => new Error(`the PDF at ${url} could not be read from its tab`),
      },
    );
    const name = uniqueName(pdfNameOf(url), session.downloads.list());
    const folder = this.#tracker.browserSaves ? `${session.config.downloads_path ?? 'downloads'}/` : '';
    const path = await requireArtifacts(session.host).writeFile(`${folder}${name}`, bytes, {
      field: DOWNLOADS_FIELD,
      atomic: true,
      mimeType: 'application/pdf',
    });
    this.#tracker.finish(
      {
        guid: null,
        url,
        path,
        file_name: baseName(path),
        file_size: bytes.length,
        mime_type: 'application/pdf',
        target_id: targetId,
      },
      true,
    );
  }
}

/** `name`, or `name (1).ext`, ... when the session already has a file of that name. */
function uniqueName(name: string, files: readonly DownloadedFile[]): string {
  const taken = new Set(files.map((file) => file.file_name));
  if (!taken.has(name)) {
    return name;
  }
  const dot = name.lastIndexOf('.');
  const [stem, extension] = dot > 0 ? [name.slice(0, dot), name.slice(dot)] : [name, ''];
  for (let n = 1; ; n += 1) {
    const candidate = `${stem} (${n})${extension}`;
    if (!taken.has(candidate)) {
      return candidate;
    }
  }
}
