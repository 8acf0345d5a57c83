import { z } from 'zod';
import type { ServerAction, ServerActionSpec } from '../tools/server-action';
import { TabpilotError } from '../shared/errors';
import type { RunOwners } from './run-owners';
import type { StepShot, StepShotStore } from './step-shots';

const RunStepParams = z.strictObject({
  run_id: z.string().min(1).meta({ details: "A run's id (one going, or a past one runs lists)" }),
  step: z.number().int().min(1).meta({ details: 'The step, as its AgentStepEvent and run_history number it' }),
});

export const RUN_SCREENSHOT_ACTION: ServerActionSpec<typeof RunStepParams> = {
  name: 'run_screenshot',
  summary: "A run step's picture of the page.",
  description:
    "The picture of the page a run's step acted on (agent.step_screenshots): {run_id, step, format, data} with data the image as base64. A step's AgentStepEvent and run_history say whether it has one; the oldest pictures are dropped first past their byte budget, so an old run may have none left (INVALID_PARAMS). A native or MCP client gets the pictures of its own runs only (FORBIDDEN).",
  params: RunStepParams,
  category: 'session',
  hints: { readOnly: true, destructive: false, idempotent: true, openWorld: false },
  mcp: { answer: 'step_picture' },
  immediate: true,
};

/**
 * run_screenshot over `shots`: a step's picture from the run going or a past one, while it is kept; a
 * program gets the pictures of its own runs only (FORBIDDEN for another's).
 */
export function runScreenshotAction(shots: StepShotStore, owners: RunOwners): ServerAction<typeof RunStepParams> {
  return {
    ...RUN_SCREENSHOT_ACTION,
    run: async (params, caller): Promise<StepShot & { run_id: string; step: number }> => {
      await owners.check(caller.client, params.run_id, 'run_screenshot');
      const shot = await shots.get(params.run_id, params.step);
      if (shot === undefined) {
        throw new TabpilotError(
          'INVALID_PARAMS',
          `no picture of step ${params.step} of run ${params.run_id} is kept (the step had none, or it was dropped for newer ones)`,
          { details: { field: 'step', run_id: params.run_id, step: params.step } },
        );
      }
      return { run_id: params.run_id, step: params.step, format: shot.format, data: shot.data };
    },
  };
}
