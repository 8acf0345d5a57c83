/**
 * The flow file: what a person showed once (or an agent's run did), as steps a program replays without a
 * model. JSON, versioned, checked by these schemas whenever it is read (docs/flows.md). A step names its
 * element by a locator, never an index (an index names an element only in the state it was read from),
 * and a typed value that is a secret is only ever its placeholder's name.
 */
import { z } from 'zod';
import { TabpilotError } from '../shared/errors';
import { zodMessage } from '../shared/zod-issues';

export const FLOW_FORMAT = 'tabpilot-flow';
export const FLOW_VERSION = 1;

/** The file's bounds: the schema holds every flow to them, and the recorders keep what they make within. */
export const FLOW_LIMITS = {
  steps: 500,
  name: 200,
  expectText: 200,
  key: 60,
  scrollPages: 100,
  scrollPx: 100_000,
} as const;

const Text = z.string().min(1);
/** A parameter's or secret's name: what `--param name=value` and sensitive_data name it by. */
export const PlaceholderName = z
  .string()
  .regex(/^[A-Za-z_][A-Za-z0-9_.-]{0,63}$/, 'letters, digits, _ . - (64 at most)');

export const FlowLocator = z.union([
  z.strictObject({ role: Text, name: Text }),
  z.strictObject({ label: Text }),
  z.strictObject({ text: Text }),
  z.strictObject({ test_id: Text }),
  z.strictObject({ css: Text }),
]);
export type FlowLocator = z.output<typeof FlowLocator>;

/** What the page showed after a step, checked when it is replayed: the URL's path, a short text. */
export const FlowExpectation = z
  .strictObject({
    path: z.string().startsWith('/').optional(),
    text: Text.max(FLOW_LIMITS.expectText).optional(),
  })
  .refine((expect) => expect.path !== undefined || expect.text !== undefined, {
    message: 'name at least one of path and text',
  });
export type FlowExpectation = z.output<typeof FlowExpectation>;

/** A value as the flow keeps it: itself, a parameter given at replay, or a secret's placeholder. */
const Value = z.union([
  z.strictObject({ value: z.string() }),
  z.strictObject({ param: PlaceholderName }),
  z.strictObject({ secret: PlaceholderName }),
]);
export type FlowValue = z.output<typeof Value>;

const Common = {
  /** What the panel's list shows for the step; a person may rename it. */
  title: z.string().max(200).optional(),
  expect: FlowExpectation.optional(),
};

export const FlowStep = z.discriminatedUnion('action', [
  z.strictObject({ action: z.literal('navigate'), url: z.url(), ...Common }),
  z.strictObject({ action: z.literal('click'), locator: FlowLocator, ...Common }),
  z.strictObject({ action: z.literal('fill'), locator: FlowLocator, input: Value, ...Common }),
  z.strictObject({ action: z.literal('select'), locator: FlowLocator, input: Value, ...Common }),
  z.strictObject({ action: z.literal('press'), key: Text.max(FLOW_LIMITS.key), ...Common }),
  // A file is kept by its name; the path it is read from at replay is the parameter's value.
  z.strictObject({ action: z.literal('upload'), locator: FlowLocator, file: Text, param: PlaceholderName, ...Common }),
  z.strictObject({ action: z.literal('switch_tab'), url_includes: Text, ...Common }),
  // The page, or the container of the element a locator names; by pages of its visible size, or by px.
  z.strictObject({
    action: z.literal('scroll_by'),
    direction: z.enum(['up', 'down', 'left', 'right']),
    pages: z.number().positive().max(FLOW_LIMITS.scrollPages).optional(),
    amount: z.number().int().positive().max(FLOW_LIMITS.scrollPx).optional(),
    locator: FlowLocator.optional(),
    ...Common,
  }),
]);
export type FlowStep = z.output<typeof FlowStep>;

export const Flow = z
  .strictObject({
    format: z.literal(FLOW_FORMAT),
    version: z.literal(FLOW_VERSION),
    name: z.string().min(1).max(FLOW_LIMITS.name),
    steps: z.array(FlowStep).min(1).max(FLOW_LIMITS.steps),
    /** A parameter's value when replay is given none. */
    defaults: z.record(PlaceholderName, z.string()).default({}),
  })
  .superRefine((flow, ctx) => {
    const params = new Set<string>();
    flow.steps.forEach((step) => {
      if ((step.action === 'fill' || step.action === 'select') && 'param' in step.input) {
        params.add(step.input.param);
      }
      if (step.action === 'upload') {
        params.add(step.param);
      }
    });
    for (const name of Object.keys(flow.defaults)) {
      if (!params.has(name)) {
        ctx.addIssue({ code: 'custom', path: ['defaults', name], message: 'no step takes this parameter' });
      }
    }
  });
export type Flow = z.output<typeof Flow>;

/** The parameters a flow's steps take, in the order they first appear. */
export function flowParams(flow: Flow): string[] {
  const names: string[] = [];
  for (const step of flow.steps) {
    const name =
      step.action === 'upload'
        ? step.param
        : (step.action === 'fill' || step.action === 'select') && 'param' in step.input
          ? step.input.param
          : undefined;
    if (name !== undefined && !names.includes(name)) {
      names.push(name);
    }
  }
  return names;
}

/** The secrets a flow's steps type, by placeholder name, in the order they first appear. */
export function flowSecrets(flow: Flow): string[] {
  const names: string[] = [];
  for (const step of flow.steps) {
    if ((step.action === 'fill' || step.action === 'select') && 'secret' in step.input) {
      if (!names.includes(step.input.secret)) {
        names.push(step.input.secret);
      }
    }
  }
  return names;
}

/**
 * A flow read from a file or a request, checked whole: INVALID_PARAMS naming the first field that is
 * wrong (`flow.steps.2.locator: ...`), so a hand-edited file says where it went wrong.
 */
export function parseFlow(value: unknown, field = 'flow'): Flow {
  const parsed = Flow.safeParse(value);
  if (!parsed.success) {
    const problem = zodMessage(parsed.error, { whole: 'the flow' });
    throw new TabpilotError('INVALID_PARAMS', `${field}: not a tabpilot flow (version ${FLOW_VERSION}): ${problem}`, {
      details: { field },
    });
  }
  return parsed.data;
}

/** Whether two locators name the same field: the same ways, in the same order, as the page gave them. */
export function sameLocator(a: FlowLocator, b: FlowLocator): boolean {
  return JSON.stringify(a) === JSON.stringify(b);
}

/**
 * Parameter names for the fields a flow fills without keeping what was typed (a password, a file's path):
 * one per field, the same for the same field, `password`, then `password_2`, ...
 */
export class FieldParams {
  readonly #byField = new Map<string, string>();

  nameFor(locator: FlowLocator, base: string): string {
    const key = JSON.stringify(locator);
    const known = this.#byField.get(key);
    if (known !== undefined) {
      return known;
    }
    const taken = new Set(this.#byField.values());
    let name = base;
    for (let n = 2; taken.has(name); n++) {
      name = `${base}_${n}`;
    }
    this.#byField.set(key, name);
    return name;
  }

  /** The field's value turned out to be a secret: it takes no parameter after all. */
  forget(locator: FlowLocator): void {
    this.#byField.delete(JSON.stringify(locator));
  }
}
