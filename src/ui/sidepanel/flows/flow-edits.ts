/**
 * The edits a person makes to a kept flow in the side panel (rename it, delete a step, make a typed value
 * a parameter), as pure functions: each answers a new flow checked whole by the flow schema, or refuses
 * with INVALID_PARAMS naming what is wrong, leaving the flow as it was.
 */
import { parseFlow, PlaceholderName, type Flow, type FlowStep } from '../../../protocol/flow';
import { TabpilotError } from '../../../shared/errors';

function refuse(field: string, message: string): TabpilotError {
  return new TabpilotError('INVALID_PARAMS', `${field}: ${message}`, { details: { field } });
}

function stepAt(flow: Flow, index: number): FlowStep {
  const step = Number.isInteger(index) ? flow.steps[index] : undefined;
  if (step === undefined) {
    throw refuse('step', `the flow has no step ${index + 1} (it has ${flow.steps.length})`);
  }
  return step;
}

/** Parameters the steps still take keep their default; a default no step takes is not a valid flow. */
function withTakenDefaults(flow: Flow): Flow {
  const taken = new Set(
    flow.steps.flatMap((step) =>
      step.action === 'upload'
        ? [step.param]
        : (step.action === 'fill' || step.action === 'select') && 'param' in step.input
          ? [step.input.param]
          : [],
    ),
  );
  return { ...flow, defaults: Object.fromEntries(Object.entries(flow.defaults).filter(([name]) => taken.has(name))) };
}

export function renameFlow(flow: Flow, name: string): Flow {
  const trimmed = name.trim();
  if (trimmed === '') {
    throw refuse('name', 'a flow needs a name');
  }
  if (trimmed.length > 200) {
    throw refuse('name', `a flow's name is at most 200 characters (this one has ${trimmed.length})`);
  }
  return parseFlow({ ...flow, name: trimmed });
}

/** The flow without its step at `index` (0-based); the steps after it move up, so they number on from there. */
export function deleteStep(flow: Flow, index: number): Flow {
  stepAt(flow, index);
  if (flow.steps.length === 1) {
    throw refuse('step', 'a flow keeps at least one step: delete the flow instead');
  }
  return parseFlow(withTakenDefaults({ ...flow, steps: flow.steps.filter((_, at) => at !== index) }));
}

/**
 * Makes the value a fill (or a choice) typed at step `index` the parameter `name`: the step takes
 * `{"param": name}`, the typed value becomes the parameter's default (so the flow replays as recorded
 * when given none; a default the parameter has already stays), and the value is replaced by `{name}`
 * wherever else the step held it. Its title says `{name}`; a text expectation naming the value is dropped,
 * since with another value the page would show another text.
 */
export function parameterizeStep(flow: Flow, index: number, name: string): Flow {
  const step = stepAt(flow, index);
  const checkedName = PlaceholderName.safeParse(name.trim());
  if (!checkedName.success) {
    throw refuse('param', `${JSON.stringify(name)} cannot name a parameter: letters, digits, _ . - (64 at most)`);
  }
  const param = checkedName.data;
  if (step.action !== 'fill' && step.action !== 'select') {
    throw refuse('step', `step ${index + 1} types no value (it is a ${step.action} step)`);
  }
  if (!('value' in step.input)) {
    const already = 'param' in step.input ? `the parameter ${step.input.param}` : `the secret ${step.input.secret}`;
    throw refuse('step', `step ${index + 1} types ${already} already, not a value of its own`);
  }
  const typed = step.input.value;
  const placeholder = `{${param}}`;
  const title = typed === '' ? step.title : step.title?.split(typed).join(placeholder);
  const keepsText = step.expect?.text === undefined || typed === '' || !step.expect.text.includes(typed);
  const expect =
    step.expect === undefined || keepsText
      ? step.expect
      : step.expect.path === undefined
        ? undefined
        : { path: step.expect.path };
  const edited: FlowStep = {
    action: step.action,
    locator: step.locator,
    input: { param },
    ...(title === undefined ? {} : { title }),
    ...(expect === undefined ? {} : { expect }),
  };
  return parseFlow({
    ...flow,
    steps: flow.steps.map((candidate, at) => (at === index ? edited : candidate)),
    defaults: { [param]: typed, ...flow.defaults },
  });
}
