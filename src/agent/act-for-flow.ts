import type { ElementLocator } from '../dom/payload';
import type { ActionOutcome } from '../protocol/outcome';
import { toActionResult, type ActionResult } from '../tools/action-result';
import { errorMessageOf } from '../shared/errors';
import type { Logger } from '../shared/logger';
import { fieldOf } from '../shared/narrow';
import type { StateSummary } from '../tools/actions';
import type { AgentHost } from './agent';
import { actOn } from './batch-moves';
import type { ModelAction } from './model';
import type { ActedAction } from './run-flow';

/**
 * The locator of the element an action's `index` names (what the run's flow keeps), asked for right
 * before the action runs, in the tab of the state it was chosen on: that tab passed the client's gate
 * when its state was read, so an action naming another tab gets none. Null without an index, or when
 * it cannot be taken (the action still runs; its flow has no step for it, and a replay says so).
 */
export async function elementOf(
  host: AgentHost,
  action: ModelAction,
  state: StateSummary | null,
  log: Logger,
): Promise<ElementLocator | null> {
  const index = fieldOf(action.params, 'index');
  const given = fieldOf(action.params, 'tab_id');
  const tabId = state?.tab_id;
  if (host.locate === undefined || typeof index !== 'number' || typeof tabId !== 'string') {
    return null;
  }
  if (given !== undefined && given !== tabId) {
    return null;
  }
  try {
    return await host.locate(tabId, index);
  } catch (error) {
    log.warn(`could not name element ${index} for the run's flow`, { error: errorMessageOf(error) });
    return null;
  }
}

/**
 * Runs one of the model's actions (actOn) and tells `onActed` how it ran, with the locator of its
 * element taken before it ran (a click may take its element away): what the run's flow is made of.
 */
export async function actTelling(
  host: AgentHost,
  action: ModelAction,
  state: StateSummary | null,
  log: Logger,
  onActed: ((acted: ActedAction) => void) | undefined,
): Promise<{ result: ActionResult; outcome: ActionOutcome | undefined }> {
  const element = onActed === undefined ? null : await elementOf(host, action, state, log);
  const ran: { raw?: unknown; outcome?: ActionOutcome } = {};
  const result = await toActionResult(action.name, async () => {
    const acted = await actOn(host, action);
    ran.raw = acted.result;
    ran.outcome = acted.outcome;
    return acted.shown;
  });
  onActed?.({
    name: action.name,
    params: action.params,
    success: result.success,
    outcome: ran.outcome,
    result: ran.raw,
    element,
    url: state?.url ?? '',
  });
  return { result, outcome: ran.outcome };
}
