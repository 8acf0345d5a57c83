import { batchAction } from './batch-action';
import { replayAction } from './flows/replay-action';
import type { ServerAction } from './server-action';

/**
 * The server actions every CommandServer serves itself, beside the registry's: `batch` and `replay`,
 * whose steps each run as the client's own request would. `isAction`: whether a name is a registry action.
 */
export function ownServerActions(isAction: (name: string) => boolean): ServerAction[] {
  return [batchAction(isAction), replayAction()];
}
