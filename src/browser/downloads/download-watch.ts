import type { CdpSession } from '../../cdp/session';
import type { SessionManager } from '../../cdp/session-manager';
import { errorMessageOf } from '../../shared/errors';
import type { Logger } from '../../shared/logger';
import { pollUntil } from '../../shared/time';
import type { DownloadedFiles } from '../artifacts/downloaded-files';
import type { ClickDownload } from '../../protocol/events/artifacts.events';

/** How long a click's navigation may take to turn out a download (the server answers with a file). */
const DECIDE_MS = 3_000;
/** How long a click waits for the download it started to finish (browser-use: 30 s). */
const FINISH_MS = 30_000;

export type { ClickDownload } from '../../protocol/events/artifacts.events';

/**
 * Notices a download a click started, the way NewTabWatch notices a tab: no fixed wait after every
 * click. A download starts either at once (a link with `download`, a blob: or data: URL:
 * Page.downloadWillBegin arrives with the input) or from a navigation the click requested, which then
 * either commits (a page, no download) or turns into a download; only then does the click wait, until the
 * one or the other (bounded).
 */
export class DownloadWatch {
  readonly #files: DownloadedFiles;
  readonly #renderers: readonly CdpSession[];
  readonly #log: Logger;
  readonly #disposers: Array<() => void>;
  /** The click is on a link that downloads by itself (see the constructor). */
  readonly #expected: boolean;
  /** The download the input started, as Page.downloadWillBegin named it (it may finish before it is read). */
  #began: { guid: string; url: string; suggestedFilename: string } | undefined;
  #navigating = false;
  #settled = false;

  /**
   * `expected`: the click is on a link that downloads without navigating (a `download` attribute, a blob:
   * or data: URL), whose Page.downloadWillBegin may come a moment after the click.
   */
  constructor(
    targets: SessionManager,
    files: DownloadedFiles,
    targetId: string,
    options: { expected: boolean; renderers: readonly CdpSession[]; log: Logger },
  ) {
    this.#expected = options.expected;
    this.#files = files;
    this.#renderers = [...new Set(options.renderers)];
    this.#log = options.log;
    const mine = (source: { target: { targetId: string; pageTargetId: string | undefined } | undefined }): boolean =>
      source.target !== undefined && (source.target.pageTargetId ?? source.target.targetId) === targetId;
    this.#disposers = [
      targets.on('Page.downloadWillBegin', (params, source) => {
        if (mine(source)) {
          this.#began ??= { guid: params.guid, url: params.url, suggestedFilename: params.suggestedFilename };
        }
      }),
      targets.on('Page.frameRequestedNavigation', (_params, source) => {
        if (mine(source)) {
          this.#navigating = true;
        }
      }),
      targets.on('Page.frameNavigated', (params, source) => {
        if (mine(source) && (params.frame.parentId ?? null) === null) {
          this.#settled = true;
        }
      }),
    ];
  }

  /**
   * Page.frameRequestedNavigation comes from the renderer, while the click's input is acknowledged by the
   * browser process, so it may still be on its way. A round trip to each renderer the click reached
   * brings whatever the renderer sent before it: a navigation the click requested is known after this.
   */
  async #flush(answered: readonly CdpSession[]): Promise<void> {
    await Promise.all(
      this.#renderers
        .filter((session) => !answered.includes(session))
        .map((session) =>
          session.send('Runtime.evaluate', { expression: '0' }).catch((error: unknown) => {
            // The page navigated or its frame went away: it had started something, which the events say.
            this.#log.debug('a renderer round trip after a click failed', { error: errorMessageOf(error) });
          }),
        ),
    );
  }

  /** Stops listening (the click failed, or its outcome is known). */
  dispose(): void {
    for (const dispose of this.#disposers.splice(0)) {
      dispose();
    }
  }

  /**
   * The download the click started, when it started one. Disposes the watch. `answered`: renderers that
   * already answered a call sent after the input (the click's verdict), so what they sent before is in.
   * `prevented`: the page prevented the click's default, so a link that downloads by itself did not: its
   * download is not waited for (one the page's script starts in its place may still come in time).
   */
  async outcome(signal?: AbortSignal, click: ClickFacts = {}): Promise<ClickDownload | null> {
    const linkDownloads = this.#expected && click.prevented !== true;
    try {
      if (this.#began === undefined && !this.#navigating && !linkDownloads) {
        await this.#flush(click.answered ?? []);
      }
      if (this.#began === undefined && (this.#navigating || linkDownloads)) {
        await pollUntil(() => (this.#began !== undefined || this.#settled ? true : undefined), {
          timeoutMs: DECIDE_MS,
          intervalMs: 20,
          ...(signal === undefined ? {} : { signal }),
          onTimeout: () => new Error('neither a download nor a page came in time'),
        }).catch((error: unknown) => {
          // Stop and a client's cancel end the wait, and the input's routine with it.
          if (signal?.aborted === true) {
            throw error;
          }
          this.#log.debug('no download began after the input', { error: errorMessageOf(error) });
        });
      }
    } finally {
      this.dispose();
    }
    const began = this.#began;
    if (began === undefined) {
      return null;
    }
    const file = await this.#files.waitFor(began.guid, FINISH_MS, signal);
    return {
      url: file?.url ?? began.url,
      suggested_filename: began.suggestedFilename,
      path: file?.path ?? null,
      file_size: file?.file_size ?? null,
      mime_type: file?.mime_type ?? null,
      in_progress: file === undefined,
    };
  }
}

/** What the input's sender knows once it was sent. */
interface ClickFacts {
  /** Renderers that already answered a call sent after the input, so what they sent before is in. */
  answered?: readonly CdpSession[];
  /** The page prevented the click's default (a link then follows nothing). */
  prevented?: boolean;
}
