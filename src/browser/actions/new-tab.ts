import type { CdpSession } from '../../cdp/session';
import type { SessionManager } from '../../cdp/session-manager';
import { isTabpilotError } from '../../shared/errors';
import { pollUntil } from '../../shared/time';

/** How long a tab the page announced (Page.windowOpen) may take to be attached and ready. */
const OPEN_WAIT_MS = 5000;

/**
 * Notices a click that opens a tab, without a fixed sleep after every click (browser-use diffs the tabs
 * 50 ms later and misses slow ones). The page announces a new window (window.open, a target=_blank link,
 * a form) with Page.windowOpen while it handles the input event, so by the time the mouse events are
 * acknowledged we know whether to wait; only then we wait for the new tab's session.
 */
export class NewTabWatch {
  readonly #targets: SessionManager;
  readonly #targetId: string;
  readonly #before: Set<string>;
  readonly #disposers: Array<() => void>;
  #announced = false;

  constructor(targets: SessionManager, targetId: string, sessions: readonly CdpSession[]) {
    this.#targets = targets;
    this.#targetId = targetId;
    this.#before = new Set(targets.targets().map((target) => target.targetId));
    this.#disposers = [...new Set(sessions)].map((session) =>
      session.on('Page.windowOpen', () => {
        this.#announced = true;
      }),
    );
  }

  /** The new tab's target id when the page opened one, else null. Disposes the watch. */
  async opened(signal?: AbortSignal): Promise<string | null> {
    this.dispose();
    if (!this.#announced) {
      return null;
    }
    try {
      return await pollUntil(
        () => {
          const fresh = this.#targets.pages().filter((page) => !this.#before.has(page.targetId));
          return (fresh.find((page) => page.openerId === this.#targetId) ?? fresh[0])?.targetId;
        },
        {
          timeoutMs: OPEN_WAIT_MS,
          intervalMs: 20,
          ...(signal === undefined ? {} : { signal }),
          onTimeout: () => new Error('no new tab'),
        },
      );
    } catch (error) {
      if (isTabpilotError(error)) {
        throw error;
      }
      // The window went to an existing named window, or a popup blocker stopped it: no new tab.
      return null;
    }
  }

  dispose(): void {
    for (const dispose of this.#disposers.splice(0)) {
      dispose();
    }
  }
}
