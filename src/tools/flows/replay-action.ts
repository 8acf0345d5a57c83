import { z } from 'zod';
import { flowParams, parseFlow, type Flow, type FlowExpectation } from '../../protocol/flow';
import { errorMessageOf, TabpilotError } from '../../shared/errors';
import { awaitExpectation, type Expectation } from '../batch-action';
import { toCommandError } from '../command-error';
import type { ServerAction, ServerActionCaller, ServerActionSpec } from '../server-action';
import { describeStep, runStep, StepProblem } from './run-step';

/** How long a step's expectation may take to hold: a page answers a click in its own time. */
const EXPECT_MS = 5_000;

export const ReplayParams = z.strictObject({
  flow: z.unknown().meta({ details: "A flow file's JSON (docs/flows.md), checked whole before any step runs" }),
  params: z
    .record(z.string(), z.string())
    .default({})
    .meta({ details: "Values of the flow's parameters, by name; a parameter not given takes the flow's default" }),
  tab_id: z.string().optional().meta({ details: "The tab it starts in; default the client's focused tab" }),
});

export interface ReplayResult {
  flow: string;
  steps: number;
  /** Steps that ran and whose expectation held. */
  completed: number;
  /** The 1-based step the replay stopped at, or null when every step ran and held. */
  stopped_at: number | null;
  reason: string | null;
  /** The picture of the tab when it stopped (a file under the output folder), or null. */
  screenshot: string | null;
}

/** The flow's parameters with the given values over its defaults; a parameter with neither is refused. */
function valuesFor(flow: Flow, given: Readonly<Record<string, string>>): Record<string, string> {
  const wanted = flowParams(flow);
  for (const name of Object.keys(given)) {
    if (!wanted.includes(name)) {
      throw new TabpilotError(
        'INVALID_PARAMS',
        `params.${name}: the flow has no such parameter (it has: ${wanted.join(', ') || 'none'})`,
        {
          details: { field: `params.${name}` },
        },
      );
    }
  }
  const values = { ...flow.defaults, ...given };
  const missing = wanted.filter((name) => values[name] === undefined);
  if (missing.length > 0) {
    throw new TabpilotError('INVALID_PARAMS', `params: the flow needs a value for ${missing.join(', ')}`, {
      details: { field: 'params' },
    });
  }
  return values;
}

function asBatchExpectation(expect: FlowExpectation): Expectation {
  return {
    timeout_ms: EXPECT_MS,
    ...(expect.path === undefined ? {} : { url_includes: expect.path }),
    ...(expect.text === undefined ? {} : { text_appears: expect.text }),
  };
}

/** A picture of the tab where the replay stopped, saved under the output folder; null if it cannot be taken. */
async function pictureOf(
  tabId: string | undefined,
  step: number,
  caller: ServerActionCaller,
): Promise<{ path: string | null; problem?: string }> {
  try {
    const shot = z.looseObject({ path: z.string().nullable() }).parse(
      await caller.runAction('screenshot', {
        ...(tabId === undefined ? {} : { tab_id: tabId }),
        file_name: `replay-step-${step}.png`,
      }),
    );
    return { path: shot.path };
  } catch (error) {
    caller.signal.throwIfAborted();
    return { path: null, problem: errorMessageOf(error) };
  }
}

export const REPLAY_ACTION: ServerActionSpec<typeof ReplayParams> = {
  name: 'replay',
  title: 'Replay a flow',
  summary: 'Replay a recorded flow without a model; stops at the first step that fails.',
  description:
    "Replay a flow (a person's recording or an agent's run, docs/flows.md) without a model: each step finds its element by its locator and runs as the client's own action would (its gate, its tabs, the person's Stop), then its expectation (the URL's path, a text the page showed) is checked. It stops at the first step that fails or whose expectation does not hold, with the step's number, the reason and a picture of the tab. Parameters fill typed values; secrets are filled in from sensitive_data by the server and never appear in the flow.",
  params: ReplayParams,
  category: 'session',
  hints: { readOnly: false, destructive: true, idempotent: false, openWorld: true },
};

/**
 * Runs a flow's steps for `caller` (the `replay` action, and `rerun` of an agent's run): stops at the
 * first step that fails or whose expectation does not hold, with its number, the reason and a picture.
 */
export async function replayFlow(
  params: z.output<typeof ReplayParams>,
  caller: ServerActionCaller,
): Promise<ReplayResult> {
  const flow = parseFlow(params.flow);
  const values = valuesFor(flow, params.params);
  let tabId = params.tab_id;
  const base = { flow: flow.name, steps: flow.steps.length };
  for (const [index, step] of flow.steps.entries()) {
    caller.signal.throwIfAborted();
    let reason: string | undefined;
    try {
      tabId = await runStep(step, tabId, values, caller);
      if (step.expect !== undefined) {
        const missing = await awaitExpectation(asBatchExpectation(step.expect), tabId, caller);
        reason = missing === undefined ? undefined : `afterwards ${missing}`;
      }
    } catch (error) {
      caller.signal.throwIfAborted();
      reason = error instanceof StepProblem ? error.message : `${toCommandError(error).code}: ${errorMessageOf(error)}`;
    }
    if (reason !== undefined) {
      const picture = await pictureOf(tabId, index + 1, caller);
      return {
        ...base,
        completed: index,
        stopped_at: index + 1,
        reason: `step ${index + 1} (${describeStep(step)}): ${reason}${picture.problem === undefined ? '' : ` (no picture: ${picture.problem})`}`,
        screenshot: picture.path,
      };
    }
  }
  return { ...base, completed: flow.steps.length, stopped_at: null, reason: null, screenshot: null };
}

export function replayAction(): ServerAction<typeof ReplayParams> {
  return { ...REPLAY_ACTION, run: replayFlow };
}
