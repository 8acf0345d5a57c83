import { ACTIONS, type ActionResult } from '../protocol/actions';
import { ActionRegistry } from './registry';

/** The registry every surface serves (the panel, the CLI, native clients, the MCP server). */
export function createDefaultRegistry(): ActionRegistry {
  return new ActionRegistry(ACTIONS);
}

/** The `state` action's result as a client receives it. */
export type StateSummary = ActionResult<'state'>;
