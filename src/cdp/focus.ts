import { errorMessageOf } from '../shared/errors';
import type { Logger } from '../shared/logger';
import type { TargetRecord } from './target';

/** What the focus keeper needs of the SessionManager. */
export interface FocusHost {
  /** Page targets with a ready session, oldest first. */
  readyPages(): TargetRecord[];
  hasReadyPage(targetId: string): boolean;
  /** Where tabpilot owns the browser, focus recovery may open a blank page. */
  ownsBrowser(): boolean;
  connected(): boolean;
  createPage(url: string): Promise<TargetRecord>;
  focusChanged(previous: string | undefined, current: string | undefined): void;
}

/**
 * The agent's focus: which page it works in, and its recovery when that page goes away (another
 * controlled page, the most recent first; else a blank page where tabpilot owns the browser; else none,
 * so commands say NOT_ATTACHED).
 */
export class FocusKeeper {
  readonly #host: FocusHost;
  readonly #log: Logger;
  #current: string | undefined;
  #recovery: Promise<void> | undefined;

  constructor(host: FocusHost, log: Logger) {
    this.#host = host;
    this.#log = log;
  }

  get current(): string | undefined {
    return this.#current;
  }

  set(targetId: string | undefined): void {
    if (this.#current === targetId) {
      return;
    }
    const previous = this.#current;
    this.#current = targetId;
    this.#host.focusChanged(previous, targetId);
  }

  /** Resolves once no recovery is running. */
  async settled(): Promise<void> {
    while (this.#recovery !== undefined) {
      await this.#recovery;
    }
  }

  /** After a (re)connect: the previous focus when its page is still there, else the fallback. */
  async restore(previous: string | undefined): Promise<void> {
    if (previous !== undefined && this.#host.hasReadyPage(previous)) {
      this.set(previous);
      return;
    }
    await this.#fallback(undefined);
  }

  /** The focused page went away: recover in the background; `settled()` waits for it. */
  lost(targetId: string): void {
    if (this.#current !== targetId) {
      return;
    }
    this.set(undefined);
    if (this.#recovery !== undefined) {
      return;
    }
    this.#recovery = (async () => {
      try {
        await this.#fallback(targetId);
      } catch (error) {
        this.#log.error('focus recovery failed', { error: errorMessageOf(error) });
        this.set(undefined);
      } finally {
        this.#recovery = undefined;
      }
    })();
  }

  async #fallback(excluded: string | undefined): Promise<void> {
    const candidates = this.#host.readyPages().filter((page) => page.targetId !== excluded);
    const last = candidates[candidates.length - 1];
    if (last !== undefined) {
      this.set(last.targetId);
      return;
    }
    if (this.#host.ownsBrowser() && this.#host.connected()) {
      this.set((await this.#host.createPage('about:blank')).targetId);
      return;
    }
    this.set(undefined);
  }
}
