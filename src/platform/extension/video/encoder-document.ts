import { errorMessageOf } from '../../../shared/errors';
import type { Logger } from '../../../shared/logger';

/** The slices of chrome.offscreen the document needs (fakeable). */
export interface OffscreenDocumentApi {
  createDocument(): Promise<void>;
  closeDocument(): Promise<void>;
  hasDocument(): Promise<boolean>;
}

/** How long the document stays open after the last recording ended, for the next one. */
export const KEEP_DOCUMENT_MS = 30_000;

/**
 * The offscreen document recordings are encoded in, shared by one recording after another. Opening it
 * starts a document in the extension's process while the session's commands run: measured on 2 cores,
 * a click-and-state step was about 10% slower in a recording's first second, while its document
 * started, than once it was up. So the document stays open `keepMs` after the last recording ended
 * and is closed then. A document an earlier worker left (its recordings ended with that worker) is
 * closed the same way, `keepMs` after this one started.
 */
export class EncoderDocument {
  readonly #api: OffscreenDocumentApi;
  readonly #log: Logger;
  readonly #keepMs: number;
  #users = 0;
  #closeTimer: ReturnType<typeof setTimeout> | undefined;
  /** A close under way: a recording that starts meanwhile waits for it, then opens a new document. */
  #closing: Promise<void> | undefined;

  constructor(api: OffscreenDocumentApi, log: Logger, keepMs = KEEP_DOCUMENT_MS) {
    this.#api = api;
    this.#log = log;
    this.#keepMs = keepMs;
    this.#closeLater();
  }

  /** The document is open for a recording until `release`. */
  async acquire(): Promise<void> {
    this.#users++;
    clearTimeout(this.#closeTimer);
    try {
      await this.#closing;
      await this.#api.createDocument().catch((error: unknown) => {
        // One offscreen document per extension: the one still open serves this recording too.
        if (!/single offscreen document/i.test(errorMessageOf(error))) {
          throw error;
        }
      });
    } catch (error) {
      this.release();
      throw error;
    }
  }

  release(): void {
    this.#users = Math.max(0, this.#users - 1);
    if (this.#users === 0) {
      this.#closeLater();
    }
  }

  #closeLater(): void {
    clearTimeout(this.#closeTimer);
    this.#closeTimer = setTimeout(() => {
      this.#closing = this.#closeIfUnused().finally(() => {
        this.#closing = undefined;
      });
    }, this.#keepMs);
  }

  async #closeIfUnused(): Promise<void> {
    try {
      // Asked again after each wait: a recording may have started while the answer was on its way.
      if (this.#users === 0 && (await this.#api.hasDocument()) && this.#users === 0) {
        await this.#api.closeDocument();
      }
    } catch (error) {
      this.#log.warn('closing the video encoder document failed', { error: errorMessageOf(error) });
    }
  }
}
