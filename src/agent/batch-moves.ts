import { declarationOf } from '../protocol/actions';
import type { ActionOutcome } from '../protocol/outcome';
import { outcomeText } from '../protocol/outcome-text';
import type { AgentHost } from './agent';
import type { ModelAction } from './model';

/** After this action the page (or the tab) is another one: the rest of the batch is skipped. */
export function changesPage(name: string): boolean {
  return declarationOf(name)?.changesPage === true;
}

/** The tab shows another page (or URL), or another tab opened: the rest of a batch was chosen for the old one. */
export function movedOn(outcome: ActionOutcome): boolean {
  return outcome.new_document === true || outcome.url !== undefined || outcome.new_tab_id !== undefined;
}

/**
 * Runs one of the model's actions; an acting action shows the model its outcome's text in place of its
 * raw result: what changed, with indexes, in a few dozen tokens.
 */
export async function actOn(
  host: AgentHost,
  action: ModelAction,
): Promise<{ shown: unknown; result: unknown; outcome: ActionOutcome | undefined }> {
  if (host.act === undefined) {
    const result = await host.runAction(action.name, action.params);
    return { shown: result, result, outcome: undefined };
  }
  const { result, outcome } = await host.act(action.name, action.params);
  return { shown: outcome === undefined ? result : { text: outcomeText(outcome) }, result, outcome };
}
