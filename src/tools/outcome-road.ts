import type { BrowserSession } from '../browser/session';
import { OutcomeWatch } from '../browser/outcome/outcome-watch';
import type { CommandResponse } from '../protocol/commands';
import { errorMessageOf } from '../shared/errors';
import type { Logger } from '../shared/logger';

/**
 * One request's verified outcome, when it asked for one: the registry starts the watch on the tab its
 * action acts on (ActionContext.watchOutcome), after the gate chose the tab; the connection ends it
 * with the action's answer. A batch's first acting step starts it, so the batch has one outcome.
 */
export class OutcomeSlot {
  readonly #session: BrowserSession;
  readonly #log: Logger;
  #watch: OutcomeWatch | undefined;

  constructor(session: BrowserSession, log: Logger) {
    this.#session = session;
    this.#log = log;
  }

  /** Starts the watch, once; a page it cannot start in is logged, and the action runs all the same. */
  readonly begin = async (targetId: string, index: number | null): Promise<void> => {
    if (this.#watch !== undefined) {
      return;
    }
    const session = this.#session;
    try {
      this.#watch = await OutcomeWatch.begin(
        { targets: session.targets, dom: session.dom, tabIdOf: (id) => session.tabIdOf(id), log: this.#log },
        targetId,
        index,
      );
    } catch (error) {
      this.#log.debug('could not watch the outcome', { error: errorMessageOf(error) });
    }
  };

  /** The response with the outcome the watch saw once the page settled (as it was without a watch). */
  async answer(response: CommandResponse, signal: AbortSignal): Promise<CommandResponse> {
    const watch = this.#watch;
    if (watch === undefined) {
      return response;
    }
    try {
      const outcome = await watch.end(response.ok ? { ok: true } : { ok: false, ...response.error }, signal);
      return { ...response, outcome };
    } catch (error) {
      this.#log.debug('could not take the outcome', { error: errorMessageOf(error) });
      return response;
    }
  }
}
