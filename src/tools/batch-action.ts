import { z } from 'zod';
import { errorMessageOf, TabpilotError } from '../shared/errors';
import { toCommandError } from './command-error';
import type { CommandError } from '../protocol/commands';
import type { ServerAction, ServerActionCaller, ServerActionSpec } from './server-action';

/** Steps in one batch: enough for a form, few enough that one answer stays readable. */
export const MAX_BATCH_STEPS = 20;
/** How long an expectation may take to hold by default: a page answers a click in its own time. */
const DEFAULT_EXPECT_MS = 5_000;
/** When an expectation is looked at again after a step, from the step's end: soon first, then less often. */
const CHECK_AT_MS = [0, 100, 250, 500, 1_000, 2_000, 3_500, 5_000, 7_500, 10_000, 15_000, 20_000, 30_000];

const Expectation = z
  .strictObject({
    text_appears: z.string().min(1).optional().meta({ details: 'This text is shown on the page (any case)' }),
    text_disappears: z
      .string()
      .min(1)
      .optional()
      .meta({ details: 'This text is no longer shown on the page (any case)' }),
    url_includes: z.string().min(1).optional().meta({ details: "The tab's URL contains this" }),
    timeout_ms: z
      .number()
      .int()
      .min(0)
      .max(30_000)
      .default(DEFAULT_EXPECT_MS)
      .meta({ details: 'How long it may take to hold' }),
  })
  .refine(
    (expect) =>
      expect.text_appears !== undefined || expect.text_disappears !== undefined || expect.url_includes !== undefined,
    { message: 'name at least one of text_appears, text_disappears, url_includes' },
  );

export type Expectation = z.output<typeof Expectation>;

const BatchStep = z.strictObject({
  action: z.string().min(1).meta({ details: 'An action name, as a request names it' }),
  params: z.record(z.string(), z.unknown()).default({}).meta({ details: "The action's params" }),
  expect: Expectation.optional().meta({
    details: 'What must hold after the step; the batch stops at the first that does not',
  }),
});

export const BatchParams = z.strictObject({
  steps: z.array(BatchStep).min(1).max(MAX_BATCH_STEPS),
});

type StepOutcome =
  | { action: string; ok: true; result: unknown }
  | { action: string; ok: false; error: CommandError }
  | { action: string; ok: true; result: unknown; expectation_failed: string };

export interface BatchResult {
  steps: StepOutcome[];
  completed: number;
  /** The 1-based step the batch stopped at, or null when every step ran and held. */
  stopped_at: number | null;
  reason: string | null;
}

/** The tab a step acted on, as it names it: its own tab_id, or the one its answer names (a new tab). */
function tabOfStep(params: Record<string, unknown>, result: unknown): string | undefined {
  if (typeof params['tab_id'] === 'string') {
    return params['tab_id'];
  }
  if (typeof result === 'object' && result !== null && 'tab_id' in result && typeof result.tab_id === 'string') {
    return result.tab_id;
  }
  return undefined;
}

const ListedTabs = z.looseObject({
  tabs: z.array(z.looseObject({ tab_id: z.string(), url: z.string() })),
  focused_tab_id: z.string().nullable(),
});
const SearchAnswer = z.looseObject({ total: z.number() });

/**
 * Whether an expectation holds now, asked through the client's own road (`search_page`, `tabs`), so it
 * reads only what the client may: undefined when it holds, else what is missing.
 */
async function unmet(
  expect: Expectation,
  tabId: string | undefined,
  caller: ServerActionCaller,
): Promise<string | undefined> {
  const onTab = tabId === undefined ? {} : { tab_id: tabId };
  const shown = async (text: string): Promise<boolean> => {
    const answer = SearchAnswer.parse(
      await caller.runAction('search_page', { ...onTab, pattern: text, max_results: 1, context_chars: 0 }),
    );
    return answer.total > 0;
  };
  if (expect.url_includes !== undefined) {
    const listed = ListedTabs.parse(await caller.runAction('tabs', {}));
    const wanted = tabId ?? listed.focused_tab_id;
    const url = listed.tabs.find((tab) => tab.tab_id === wanted)?.url ?? '';
    if (!url.includes(expect.url_includes)) {
      return `the URL ${JSON.stringify(url)} does not contain ${JSON.stringify(expect.url_includes)}`;
    }
  }
  if (expect.text_appears !== undefined && !(await shown(expect.text_appears))) {
    return `the page does not show ${JSON.stringify(expect.text_appears)}`;
  }
  if (expect.text_disappears !== undefined && (await shown(expect.text_disappears))) {
    return `the page still shows ${JSON.stringify(expect.text_disappears)}`;
  }
  return undefined;
}

/** Looks again at the times of CHECK_AT_MS until the expectation holds or its time is up (a replay's too). */
export async function awaitExpectation(
  expect: Expectation,
  tabId: string | undefined,
  caller: ServerActionCaller,
): Promise<string | undefined> {
  const start = performance.now();
  let missing: string | undefined;
  for (const at of CHECK_AT_MS.filter((ms) => ms < expect.timeout_ms).concat(expect.timeout_ms)) {
    const wait = start + at - performance.now();
    if (wait > 0) {
      await new Promise((resolve) => setTimeout(resolve, wait));
    }
    caller.signal.throwIfAborted();
    missing = await unmet(expect, tabId, caller);
    if (missing === undefined) {
      return undefined;
    }
  }
  return `after ${expect.timeout_ms} ms ${missing ?? 'it did not hold'}`;
}

/**
 * `batch`: several actions in one request, each run as the client's own request would run (its gate, its
 * tabs, the person's Stop), one after another, each optionally followed by what must hold after it. It
 * stops at the first step whose action fails or whose expectation does not hold, and says which and why;
 * the steps after it do not run. One round trip where there were as many as steps. `isAction`: whether a
 * name is a registry action (a batch runs no server action, itself included, nor a client action).
 */
export const BATCH_ACTION: ServerActionSpec<typeof BatchParams> = {
  name: 'batch',
  title: 'Run several actions',
  summary: 'Run actions in order in one call; stops at the first failure.',
  description: `Run up to ${MAX_BATCH_STEPS} actions in order in one request, each optionally with what must hold after it (text shown or gone, the URL), stopping at the first step that fails or whose expectation does not hold, with its reason. Each step's answer is the action's own.`,
  params: BatchParams,
  category: 'session',
  hints: { readOnly: false, destructive: true, idempotent: false, openWorld: true },
  outcome: true,
  mcp: { answer: 'batch' },
};

export function batchAction(isAction: (name: string) => boolean): ServerAction<typeof BatchParams> {
  return {
    ...BATCH_ACTION,
    run: async (params, caller) => {
      params.steps.forEach((step, index) => {
        if (!isAction(step.action)) {
          throw new TabpilotError(
            'INVALID_PARAMS',
            `batch: steps.${index}.action: ${JSON.stringify(step.action)} is not an action a batch can run (see describe)`,
            { details: { action: 'batch', field: `steps.${index}.action` } },
          );
        }
      });
      const outcomes: StepOutcome[] = [];
      for (const [index, step] of params.steps.entries()) {
        caller.signal.throwIfAborted();
        let result: unknown;
        try {
          result = await caller.runAction(step.action, step.params);
        } catch (error) {
          const failure = toCommandError(error);
          outcomes.push({ action: step.action, ok: false, error: failure });
          return stopped(outcomes, index, `${step.action} failed: ${failure.code}: ${failure.message}`);
        }
        const missing =
          step.expect === undefined
            ? undefined
            : await awaitExpectation(step.expect, tabOfStep(step.params, result), caller).catch((error: unknown) => {
                caller.signal.throwIfAborted();
                return `its expectation could not be checked: ${errorMessageOf(error)}`;
              });
        if (missing !== undefined) {
          outcomes.push({ action: step.action, ok: true, result, expectation_failed: missing });
          return stopped(outcomes, index, `after ${step.action}, ${missing}`);
        }
        outcomes.push({ action: step.action, ok: true, result });
      }
      return { steps: outcomes, completed: outcomes.length, stopped_at: null, reason: null } satisfies BatchResult;
    },
  };
}

function stopped(outcomes: StepOutcome[], index: number, reason: string): BatchResult {
  return { steps: outcomes, completed: index, stopped_at: index + 1, reason };
}
