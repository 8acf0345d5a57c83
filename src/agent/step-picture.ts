import type { AgentStepScreenshot } from '../protocol/events/agent.events';
import { errorMessageOf } from '../shared/errors';
import type { Logger } from '../shared/logger';
import type { StateSummary } from '../tools/actions';
import type { AgentStepReport } from './agent';
import type { StepShot } from './step-shots';

/** What the Agent's onStep is given: the step, the state its actions were chosen on, and the picture of that page. */
export type StepListener = (
  report: AgentStepReport,
  state: StateSummary | null,
  shot: StepShot | null,
) => void | Promise<void>;

/**
 * A step's own picture when the model takes none: a JPEG scaled by the browser (the clip's scale) so
 * its longer side is at most 480 px, a few KB to a few tens of KB, taken right after the state.
 */
export const STEP_SHOT = { format: 'jpeg', quality: 60, max_side: 480 } as const;

/**
 * The step's picture of the page its state is of: the model's screenshot with vision, else one taken
 * right after the state, while the model thinks (the agent waits for it before any action runs, so it
 * shows the page the model read; taken beside the state it would slow the state's own capture). None
 * with agent.step_screenshots off, or for a step whose state could not be read.
 */
export function stepShotOf(
  state: StateSummary | null,
  config: { step_screenshots: boolean; use_vision: boolean },
  host: { runAction(name: string, params: unknown): Promise<unknown> },
  log: Logger,
): Promise<StepShot | null> {
  if (!config.step_screenshots || state === null) {
    return Promise.resolve(null);
  }
  return config.use_vision ? Promise.resolve(visionShot(state)) : takeStepShot(host, log);
}

/** A small picture of the focused tab through the action road; none when it cannot be taken (the step goes on without). */
export async function takeStepShot(
  host: { runAction(name: string, params: unknown): Promise<unknown> },
  log: Logger,
): Promise<StepShot | null> {
  try {
    const shot = (await host.runAction('screenshot', { ...STEP_SHOT })) as Partial<StepShot> | null;
    return typeof shot?.data === 'string' && shot.data !== ''
      ? { format: shot.format ?? 'jpeg', data: shot.data }
      : null;
  } catch (error) {
    log.debug('no picture of the page for this step', { error: errorMessageOf(error) });
    return null;
  }
}

/** The model's own screenshot in a state (asked for with use_vision), as the step's picture. */
export function visionShot(state: {
  screenshot: string | null;
  screenshot_format: StepShot['format'] | null;
}): StepShot | null {
  return state.screenshot === null ? null : { format: state.screenshot_format ?? 'jpeg', data: state.screenshot };
}

/** What the step's event says of its picture: that there is one, its format and its size. */
export function screenshotOf(shot: StepShot | null): AgentStepScreenshot | null {
  return shot === null ? null : { format: shot.format, bytes: base64Bytes(shot.data) };
}

/** The decoded size of base64 text (3 bytes per 4 characters, less the padding). */
function base64Bytes(data: string): number {
  const padding = data.endsWith('==') ? 2 : data.endsWith('=') ? 1 : 0;
  return Math.max(0, Math.floor((data.length / 4) * 3) - padding);
}
