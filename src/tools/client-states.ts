import { fieldOf } from '../shared/narrow';
import type { StateSummary } from './actions';
import { changesBetween, changesText, snapshotOf, type StateSnapshot } from './state-changes';

/**
 * One client's last state of each of its tabs, so `state {changes_only: true}` can answer with what
 * changed for this client (another client's states in between change nothing here). Lives as long as
 * the client's connection; a released tab is forgotten.
 */
/**
 * A state the client received, with its snapshot once one is needed: only a `changes_only` request
 * compares, and a whole-page state's snapshot costs milliseconds a client that never asks should not pay.
 */
class Received {
  readonly #state: StateSummary;
  #snapshot: StateSnapshot | null | undefined;

  constructor(state: StateSummary) {
    this.#state = state;
  }

  get snapshot(): StateSnapshot | null {
    if (this.#snapshot === undefined) {
      this.#snapshot = snapshotOf(this.#state);
    }
    return this.#snapshot;
  }
}

export class ClientStates {
  readonly #last = new Map<string, Received>();

  /** What the client receives of an action's result: a state as it asked (see answer); a release forgets. */
  received(action: string, params: unknown, result: unknown): unknown {
    if (action === 'state') {
      // The registry validated the params and answered a state: its declared result.
      return this.answer(result as StateSummary, fieldOf(params, 'changes_only') === true);
    }
    if (action === 'release') {
      this.forget();
    }
    return result;
  }

  /**
   * Remembers the state the client is about to receive and gives it the answer: as it is, or with
   * changes_only its changes since the client's last state of the tab (the whole state when there is
   * nothing to compare with).
   */
  answer(state: StateSummary, changesOnly: boolean): StateSummary {
    const received = new Received(state);
    const before = this.#last.get(state.tab_id);
    this.#last.set(state.tab_id, received);
    if (!changesOnly) {
      return state;
    }
    const now = received.snapshot;
    const changes = changesBetween(before?.snapshot ?? undefined, now);
    if (changes.full || now === null) {
      return { ...state, changes };
    }
    const shown = new Set([...changes.added, ...changes.changed]);
    return {
      ...state,
      text: changesText(changes, now),
      elements: state.elements.filter((element) => shown.has(element.index)),
      pagination_buttons: [],
      changes,
    };
  }

  /** The client let go of its tabs (one or all): its next state of any tab is whole. */
  forget(): void {
    this.#last.clear();
  }
}
