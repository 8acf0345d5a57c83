import type { PanelStatus, WorkerToPanel } from '../../protocol/panel-messages';
import { errorMessageOf } from '../../shared/errors';
import type { Logger } from '../../shared/logger';

/** One open panel, as the hub sees it. */
export interface PanelLink {
  post(message: WorkerToPanel): void;
}

const STATUS_DELAY_MS = 80;

/**
 * Every open panel (one per window that shows it, plus panel pages opened as tabs): the worker's live
 * state is pushed to all of them, so they agree. Status pushes are coalesced.
 */
export class PanelHub {
  readonly #links = new Set<PanelLink>();
  readonly #readStatus: () => Promise<PanelStatus>;
  readonly #log: Logger;
  /** Who else follows the status (the toolbar badge), panels open or not. */
  readonly #statusListeners = new Set<(status: PanelStatus) => void>();
  #statusTimer: ReturnType<typeof setTimeout> | undefined;

  constructor(readStatus: () => Promise<PanelStatus>, log: Logger) {
    this.#readStatus = readStatus;
    this.#log = log;
  }

  add(link: PanelLink): () => void {
    this.#links.add(link);
    return () => this.#links.delete(link);
  }

  get size(): number {
    return this.#links.size;
  }

  broadcast(message: WorkerToPanel): void {
    for (const link of this.#links) {
      link.post(message);
    }
  }

  /** Sends the current status to one panel now. */
  async sendStatus(link: PanelLink): Promise<void> {
    link.post({ type: 'status', status: await this.#readStatus() });
  }

  /** Calls the listener with every status the hub reads (coalesced as for the panels). */
  onStatus(listener: (status: PanelStatus) => void): () => void {
    this.#statusListeners.add(listener);
    return () => this.#statusListeners.delete(listener);
  }

  /** Something the status shows may have changed: tell every panel and listener, shortly and once. */
  statusChanged(): void {
    if (this.#links.size === 0 && this.#statusListeners.size === 0) {
      return;
    }
    if (this.#statusTimer !== undefined) {
      return;
    }
    this.#statusTimer = setTimeout(() => {
      this.#statusTimer = undefined;
      this.#readStatus().then(
        (status) => {
          this.broadcast({ type: 'status', status });
          for (const listener of this.#statusListeners) {
            listener(status);
          }
        },
        (error: unknown) => this.#log.warn('could not read the panel status', { error: errorMessageOf(error) }),
      );
    }, STATUS_DELAY_MS);
  }
}
