import type { CdpSession } from '../../cdp/session';
import type { SessionManager } from '../../cdp/session-manager';
import { TabpilotError } from '../../shared/errors';
import { bestEffort, type Logger } from '../../shared/logger';
import type { IndexedDbOutcome, SavedDatabase } from '../actions/in-page-api';
import { atDocumentStart, callInFrame } from '../actions/in-page-call';

function originOf(url: string): string | null {
  const origin = URL.canParse(url) ? new URL(url).origin : 'null';
  return origin === 'null' ? null : origin;
}

function failed(origin: string, outcome: IndexedDbOutcome<unknown>): TabpilotError | undefined {
  if (outcome.ok) {
    return undefined;
  }
  return new TabpilotError(
    outcome.reason === 'blocked' ? 'TIMEOUT' : 'INTERNAL',
    `IndexedDB of ${origin}: ${outcome.error}`,
    {
      details: { origin },
    },
  );
}

/** A restore script being added to one session; it settles with what removes it, once Chromium answers. */
type AddedScript = Promise<{ session: CdpSession; identifier: string }>;

interface Pending {
  dispose: () => void;
  scripts: AddedScript[];
}

/**
 * Puts saved IndexedDB databases into their origins. An origin open in a controlled tab gets them at
 * once, through that page. An origin not open gets them in the first top-level document of it that opens
 * in any controlled tab, by a script that runs at the document's start, before the page's own scripts
 * open their databases (a database the page opens or deletes later waits for the restore's requests,
 * which came first). The script runs as the document commits, before Chromium reports the commit
 * (Page.frameNavigated); on that report the script is taken away, so later documents keep what the page
 * wrote.
 */
export class IndexedDbRestorer {
  readonly #targets: SessionManager;
  readonly #log: Logger;
  readonly #pending = new Map<string, Pending>();
  #listening: (() => void) | undefined;

  constructor(targets: SessionManager, log: Logger) {
    this.#targets = targets;
    this.#log = log;
  }

  /** Restores one origin's databases: now when a live page has that origin (answering its failure), else when one opens. */
  async restore(origin: string, databases: SavedDatabase[], live: readonly string[]): Promise<'now' | 'pending'> {
    this.#drop(origin);
    const page = live.find((targetId) => originOf(this.#targets.target(targetId)?.url ?? '') === origin);
    const session = page === undefined ? undefined : this.#targets.sessionFor(page);
    if (session !== undefined) {
      const error = failed(origin, await callInFrame(session, 'restoreIndexedDb', databases));
      if (error !== undefined) {
        throw error;
      }
      return 'now';
    }
    this.#listen();
    const scripts: AddedScript[] = [];
    const dispose = this.#targets.addSessionSetup(async (session, record) => {
      if (record.type === 'page') {
        // In the page bridge's world, like every call tabpilot makes in a page.
        const added = atDocumentStart(session, 'top', 'restoreIndexedDbAtStart', origin, databases).then(
          (identifier) => ({ session, identifier }),
        );
        scripts.push(added);
        await added;
      }
    });
    this.#pending.set(origin, { dispose, scripts });
    return 'pending';
  }

  /** Takes every waiting restore away (the session stops). */
  dispose(): void {
    for (const origin of [...this.#pending.keys()]) {
      this.#drop(origin);
    }
    this.#listening?.();
    this.#listening = undefined;
  }

  #listen(): void {
    this.#listening ??= this.#targets.on('Page.frameNavigated', ({ frame }) => {
      const origin = frame.parentId === undefined ? originOf(frame.url) : null;
      if (origin !== null && this.#pending.has(origin)) {
        this.#log.info('IndexedDB restored as its origin opened', { origin });
        this.#drop(origin);
      }
    });
  }

  #drop(origin: string): void {
    const pending = this.#pending.get(origin);
    if (pending === undefined) {
      return;
    }
    this.#pending.delete(origin);
    pending.dispose();
    // Chromium can answer an add after the document it ran in committed: such a script is removed once
    // its identifier comes, or it would restore the databases again in every later document.
    for (const added of pending.scripts) {
      void bestEffort(
        added.then(({ session, identifier }) =>
          session.send('Page.removeScriptToEvaluateOnNewDocument', { identifier }),
        ),
        this.#log,
        'removing the IndexedDB restore script',
      );
    }
  }
}
