import type { BrowserSession } from '../browser/session';
import { OutcomeWatch } from '../browser/outcome/outcome-watch';
import type { CommandResponse } from '../protocol/commands';
import { errorMessageOf } from '../shared/errors';
import type { Logger } from '../shared/logger';
import { fieldOf } from '../shared/narrow';
import type { ActionContext } from './registry';

/**
 * Starts watching an action's outcome when its request asked for one and the action acts on a page
 * (its declaration's `outcome`, or a server action's, such as batch): on the tab it names, or the
 * client's focused tab. Undefined when there is nothing to watch: no such tab (the action's own answer
 * says why), or a page the watch could not start in (it is logged; the action still runs).
 */
export async function beginOutcome(
  session: BrowserSession,
  ctx: ActionContext,
  params: unknown,
  log: Logger,
): Promise<OutcomeWatch | undefined> {
  const tabId = fieldOf(params, 'tab_id');
  let targetId: string;
  try {
    targetId = await ctx.resolveTab(typeof tabId === 'string' ? tabId : undefined);
  } catch (error) {
    log.debug('no tab to watch the outcome in', { error: errorMessageOf(error) });
    return undefined;
  }
  const index = fieldOf(params, 'index');
  try {
    return await OutcomeWatch.begin(
      { targets: session.targets, dom: session.dom, tabIdOf: (id) => session.tabIdOf(id), log },
      targetId,
      typeof index === 'number' ? index : null,
    );
  } catch (error) {
    log.debug('could not watch the outcome', { error: errorMessageOf(error) });
    return undefined;
  }
}

/** The response with the outcome the watch saw once the page settled (without one if the watch failed). */
export async function withOutcome(
  watch: OutcomeWatch,
  response: CommandResponse,
  signal: AbortSignal,
  log: Logger,
): Promise<CommandResponse> {
  try {
    const outcome = await watch.end(
      response.ok
        ? { ok: true }
        : {
            ok: false,
            code: response.error.code,
            message: response.error.message,
            ...(response.error.details === undefined ? {} : { details: response.error.details }),
          },
      signal,
    );
    return { ...response, outcome };
  } catch (error) {
    log.debug('could not take the outcome', { error: errorMessageOf(error) });
    return response;
  }
}
