import type { CommandServer } from '../tools/command-server';
import type { ServerActionSpec } from '../tools/server-action';
import {
  APPROVE_ACTION,
  controlActions,
  PAUSE_RUN_ACTION,
  RESUME_RUN_ACTION,
  STOP_RUN_ACTION,
} from './control-actions';
import { historyActions, RERUN_ACTION, RUN_HISTORY_ACTION, RUNS_ACTION } from './history-actions';
import { RUN_SCREENSHOT_ACTION, runScreenshotAction } from './run-screenshot-action';
import { RUN_ACTION, runAction, type RunActionOptions } from './run-action';
import { RunControl } from './run-control';
import { RunOwners } from './run-owners';
import type { RunStore } from './run-store';
import type { StepShotStore } from './step-shots';

/** Every agent action a session serves, described (for an MCP tool list made before the session is). */
export const AGENT_ACTIONS: readonly ServerActionSpec[] = [
  RUN_ACTION,
  PAUSE_RUN_ACTION,
  RESUME_RUN_ACTION,
  STOP_RUN_ACTION,
  APPROVE_ACTION,
  RUNS_ACTION,
  RUN_HISTORY_ACTION,
  RERUN_ACTION,
  RUN_SCREENSHOT_ACTION,
];

/**
 * The built-in agent's whole protocol surface on one server: run; pause_run, resume_run, stop_run and
 * approve, which steer the run going; runs, run_history and rerun over `store`, where each finished
 * run is kept (in memory in Node, chrome.storage.local in the extension); run_screenshot over `shots`,
 * where each step's picture is kept as the step is recorded.
 */
export function installAgentActions(
  server: CommandServer,
  options: RunActionOptions & { store: RunStore; shots: StepShotStore },
): void {
  const shared = {
    control: new RunControl(options.log.child('approvals')),
    store: options.store,
    shots: options.shots,
    owners: new RunOwners(options.store),
  };
  server.addServerAction(runAction(server, options, shared));
  for (const action of [
    ...controlActions(shared.control),
    ...historyActions(shared),
    runScreenshotAction(shared.shots, shared.owners),
  ]) {
    server.addServerAction(action);
  }
}
