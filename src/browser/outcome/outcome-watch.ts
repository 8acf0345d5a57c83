import type { CdpSession } from '../../cdp/session';
import type { SessionManager } from '../../cdp/session-manager';
import type { DomService } from '../../dom/dom-service';
import { pageFunctions } from '../../dom/page-bridge';
import type {
  ChangedElement,
  PageChanges,
  PerceptionHandleFunctions,
  PerceptionValueFunctions,
} from '../../dom/payload';
import {
  failureReason,
  OUTCOME_MAX_WAIT_MS,
  OUTCOME_MIN_WAIT_MS,
  OUTCOME_QUIET_MS,
  type ActionOutcome,
  type OutcomeElement,
} from '../../protocol/outcome';
import type { CommandError } from '../../protocol/commands';
import { errorMessageOf, isTabpilotError } from '../../shared/errors';
import { DIALOG_OPEN_REASON } from '../guards/dialog-condition';
import type { Logger } from '../../shared/logger';
import { fieldOf } from '../../shared/narrow';
import { sleep } from '../../shared/time';
import { PageEvents } from './page-events';

const PAGE = pageFunctions<PerceptionValueFunctions, PerceptionHandleFunctions>();
/** What an outcome says of a document it could not read (a dialog held the page). */
const EMPTY_CHANGES: PageChanges = {
  url: null,
  title: null,
  appeared: [],
  removed: [],
  changed: [],
  texts_appeared: [],
  texts_removed: [],
  more: 0,
  target_gone: false,
};
/** How often the settling asks the page whether it is quiet. */
const POLL_MS = 20;

export interface OutcomeDeps {
  readonly targets: SessionManager;
  readonly dom: DomService;
  tabIdOf(targetId: string): string;
  readonly log: Logger;
}

/** How the action ended, as the outcome reads it: done, or failed with its error. */
export type ActionEnd = { ok: true } | ({ ok: false } & CommandError);

/**
 * An action's verified outcome (protocol/outcome.ts), watched from just before the action until its page
 * settled: the in-page half notes what changed in the document (in-page/changes.ts), this half what the
 * tab did on the wire, in its console and around it (a dialog, a download, a new tab). `begin` before
 * the action, `end` after it, once, whatever happened.
 */
export class OutcomeWatch {
  readonly #deps: OutcomeDeps;
  readonly #targetId: string;
  readonly #session: CdpSession;
  readonly #events: PageEvents;
  readonly #pagesBefore: Set<string>;
  readonly #targetDisabled: boolean;
  /**
   * The URL when a dialog held the page as the watch began (the action answers it): nothing could be
   * asked of the document then, so the outcome says only what the tab did and where it is.
   */
  readonly #heldAt: { url: string } | undefined;

  private constructor(
    deps: OutcomeDeps,
    targetId: string,
    session: CdpSession,
    events: PageEvents,
    start: { disabled: boolean; heldAt: { url: string } | undefined },
  ) {
    this.#deps = deps;
    this.#targetId = targetId;
    this.#session = session;
    this.#events = events;
    this.#targetDisabled = start.disabled;
    this.#heldAt = start.heldAt;
    this.#pagesBefore = new Set(deps.targets.pages().map((page) => page.targetId));
  }

  /** Starts watching the tab; `index` is the element the action names, when it names one. */
  static async begin(deps: OutcomeDeps, targetId: string, index: number | null): Promise<OutcomeWatch> {
    const session = deps.targets.requireSession(targetId);
    const events = new PageEvents(deps.targets, targetId);
    try {
      const entry = index === null ? undefined : deps.dom.entry(targetId, index);
      const localId = entry !== undefined && entry.sessionId === session.sessionId ? entry.localId : null;
      const start = await PAGE.callInFrame(session, 'watchChanges', localId);
      return new OutcomeWatch(deps, targetId, session, events, { disabled: start.target_disabled, heldAt: undefined });
    } catch (error) {
      if (isTabpilotError(error) && error.details?.['reason'] === DIALOG_OPEN_REASON) {
        const heldAt = { url: deps.targets.target(targetId)?.url ?? '' };
        return new OutcomeWatch(deps, targetId, session, events, { disabled: false, heldAt });
      }
      events.dispose();
      throw error;
    }
  }

  /** Waits for the page to settle (bounded), then says what the action did. */
  async end(end: ActionEnd, signal?: AbortSignal): Promise<ActionOutcome> {
    const started = performance.now();
    try {
      const settled = end.ok ? await this.#settle(started, signal) : true;
      const taken = await this.#take();
      return await this.#outcome(end, taken, settled, Math.round(performance.now() - started));
    } finally {
      this.#events.dispose();
    }
  }

  /**
   * Until the document has been quiet OUTCOME_QUIET_MS with no request the action caused still loading,
   * and OUTCOME_MIN_WAIT_MS have passed since the action; or OUTCOME_MAX_WAIT_MS: false then. Another
   * document (a navigation) is settled once what it loads has loaded.
   */
  async #settle(started: number, signal: AbortSignal | undefined): Promise<boolean> {
    for (;;) {
      if (this.#events.dialog !== undefined) {
        // The page waits on its dialog: nothing runs in it until the dialog is answered.
        return true;
      }
      // A page a dialog held as the watch began has no watched document: only what it loads counts.
      let quiet: { quiet_ms: number; watched_ms: number } | null = null;
      if (this.#heldAt === undefined) {
        try {
          quiet = await PAGE.callInFrame(this.#session, 'changesQuiet');
        } catch (error) {
          // A dialog that opened meanwhile holds the page, or the tab went: nothing more will change in it.
          this.#deps.log.debug('the page no longer answers while it settles', { error: errorMessageOf(error) });
          return true;
        }
      }
      const loading = this.#events.loading;
      const quietFor = quiet === null ? OUTCOME_QUIET_MS : quiet.quiet_ms;
      const waited = performance.now() - started;
      if (quietFor >= OUTCOME_QUIET_MS && loading === 0 && waited >= OUTCOME_MIN_WAIT_MS) {
        return true;
      }
      const left = OUTCOME_MAX_WAIT_MS - waited;
      if (left <= 0) {
        return false;
      }
      const wanted = Math.max(OUTCOME_QUIET_MS - quietFor, OUTCOME_MIN_WAIT_MS - waited);
      await sleep(Math.min(left, Math.max(POLL_MS, wanted)), signal);
    }
  }

  /** The document's changes (null: another document), with the indexes its elements have now. */
  async #take(): Promise<{ changes: PageChanges | null; contextId: number }> {
    if (this.#heldAt !== undefined) {
      // The title the tab had is not known (the target's lags behind the page's): it is said with a new URL.
      const { url, title } = await this.#where();
      const moved = url !== undefined && url !== this.#heldAt.url;
      return {
        changes: { ...EMPTY_CHANGES, url: moved ? url : null, title: moved ? (title ?? null) : null },
        contextId: 0,
      };
    }
    if (this.#events.dialog !== undefined) {
      // A page an open dialog holds is not called into (the session refuses it): the changes before the
      // dialog stay in the page, and the next outcome's watch drops them.
      return { changes: EMPTY_CHANGES, contextId: 0 };
    }
    try {
      const { value, contextId } = await PAGE.callInFrameWorld(this.#session, 'takeChanges');
      return { changes: value, contextId };
    } catch (error) {
      // The tab closed or crashed while it settled: nothing is left to read.
      this.#deps.log.debug('could not take the page changes', { error: errorMessageOf(error) });
      return { changes: null, contextId: 0 };
    }
  }

  async #outcome(
    end: ActionEnd,
    taken: { changes: PageChanges | null; contextId: number },
    settled: boolean,
    waitedMs: number,
  ): Promise<ActionOutcome> {
    const { changes, contextId } = taken;
    const events = this.#events;
    const outcome: ActionOutcome = { verdict: 'no_visible_change', settled, waited_ms: waitedMs };
    if (changes === null) {
      outcome.new_document = true;
      Object.assign(outcome, await this.#where());
    } else {
      const index = (element: ChangedElement, give: boolean): OutcomeElement => ({
        index: this.#deps.dom.outcomeIndex(this.#targetId, contextId, this.#session.sessionId, element, give),
        label: element.label,
      });
      assignList(
        outcome,
        'appeared',
        changes.appeared.map((element) => index(element, true)),
      );
      assignList(
        outcome,
        'removed',
        changes.removed.map((element) => index(element, false)),
      );
      assignList(
        outcome,
        'changed',
        changes.changed.map((element) => index(element, true)),
      );
      assignList(outcome, 'texts_appeared', changes.texts_appeared);
      assignList(outcome, 'texts_removed', changes.texts_removed);
      if (changes.more > 0) outcome.more = changes.more;
      if (changes.url !== null) outcome.url = changes.url;
      if (changes.title !== null) outcome.title = changes.title;
    }
    if (events.dialog !== undefined) outcome.dialog = events.dialog;
    if (events.download !== undefined) outcome.download = events.download;
    const opened = this.#deps.targets.pages().find((page) => !this.#pagesBefore.has(page.targetId));
    if (opened !== undefined) outcome.new_tab_id = this.#deps.tabIdOf(opened.targetId);
    assignList(outcome, 'failed_requests', events.failedRequests);
    assignList(outcome, 'errors', events.errors);
    if (changedAnything(outcome)) {
      outcome.verdict = 'changed';
    }
    if (!end.ok) {
      outcome.verdict = 'failed';
      outcome.reason = outcome.new_document === true ? 'navigated_away' : failureReason(end.code, end.details);
      outcome.detail = end.message;
    } else if (events.failedRequests.length > 0) {
      outcome.reason = 'request_failed';
    } else if (events.errors.length > 0) {
      outcome.reason = 'page_error';
    } else if (outcome.verdict === 'no_visible_change' && this.#targetDisabled) {
      outcome.reason = 'disabled';
    }
    return outcome;
  }

  /** The tab's URL and title in its new document. */
  async #where(): Promise<{ url?: string; title?: string }> {
    try {
      const { result } = await this.#session.send('Runtime.evaluate', {
        expression: '({ url: location.href, title: document.title })',
        returnByValue: true,
      });
      const url = fieldOf(result.value, 'url');
      const title = fieldOf(result.value, 'title');
      return {
        ...(typeof url === 'string' ? { url } : {}),
        ...(typeof title === 'string' ? { title } : {}),
      };
    } catch (error) {
      this.#deps.log.debug('could not read where the tab is', { error: errorMessageOf(error) });
      const target = this.#deps.targets.target(this.#targetId);
      return target === undefined ? {} : { url: target.url, title: target.title };
    }
  }
}

type ListField = 'appeared' | 'removed' | 'changed' | 'texts_appeared' | 'texts_removed' | 'failed_requests' | 'errors';

/** Sets a list only when it has items: an empty list costs a model tokens and tells nothing. */
function assignList<K extends ListField>(outcome: ActionOutcome, field: K, items: NonNullable<ActionOutcome[K]>): void {
  if (items.length > 0) {
    outcome[field] = items;
  }
}

/** Whether the page or the browser shows any change (a failed request alone is not one). */
function changedAnything(outcome: ActionOutcome): boolean {
  return (
    outcome.new_document === true ||
    outcome.url !== undefined ||
    outcome.title !== undefined ||
    outcome.appeared !== undefined ||
    outcome.removed !== undefined ||
    outcome.changed !== undefined ||
    outcome.texts_appeared !== undefined ||
    outcome.texts_removed !== undefined ||
    outcome.dialog !== undefined ||
    outcome.download !== undefined ||
    outcome.new_tab_id !== undefined
  );
}
