import { AGENT_ACTIONS } from '../../agent/agent-actions';
import { createDefaultRegistry } from '../../tools/actions';
import { BATCH_ACTION } from '../../tools/batch-action';
import { describeClientActions } from '../../tools/command-server';
import { REPLAY_ACTION } from '../../tools/flows/replay-action';
import { describeServerAction } from '../../tools/server-action';

/**
 * Every action a session serves, exactly as its `describe` lists them (the registry's, the built-in
 * agent's, the server's own), computed without a session. The build writes it next to the CLI
 * (dist/node/action-catalog.json) so the CLI knows every action's params without asking the host.
 */
export interface CatalogEntry {
  name: string;
  description: string;
  category?: string;
  params_schema: unknown;
}

export function actionCatalog(): CatalogEntry[] {
  return [
    ...createDefaultRegistry().describe(),
    describeServerAction(BATCH_ACTION),
    describeServerAction(REPLAY_ACTION),
    ...AGENT_ACTIONS.map(describeServerAction),
    ...describeClientActions(),
  ];
}
