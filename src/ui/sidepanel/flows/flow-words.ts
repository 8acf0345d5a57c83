import { z } from 'zod';
import type { FlowExpectation, FlowLocator, FlowStep, FlowValue } from '../../../protocol/flow';

/** A typed value longer than this is cut in the list: the line names the step, the file keeps the whole. */
const SHOWN_VALUE_CHARS = 60;

function quoted(text: string): string {
  const cut = text.length > SHOWN_VALUE_CHARS ? `${text.slice(0, SHOWN_VALUE_CHARS - 1)}…` : text;
  return `"${cut}"`;
}

/** The element a locator names, as a person reads it: `button "Sign up"`, `the field labelled "Email"`. */
export function locatorWords(locator: FlowLocator): string {
  if ('role' in locator) {
    return `${locator.role} ${quoted(locator.name)}`;
  }
  if ('label' in locator) {
    return `the field labelled ${quoted(locator.label)}`;
  }
  if ('text' in locator) {
    return `the text ${quoted(locator.text)}`;
  }
  if ('test_id' in locator) {
    return `test id ${quoted(locator.test_id)}`;
  }
  return `the element at ${locator.css}`;
}

/** A value as the list shows it: the text typed, `{email}` for a parameter, only a secret's name. */
export function valueWords(input: FlowValue): string {
  if ('value' in input) {
    return quoted(input.value);
  }
  return 'param' in input ? `{${input.param}}` : `the secret ${input.secret}`;
}

/** What a step does, in words: `Click button "Sign up"`, `Fill textbox "Email" with {email}`. */
export function stepWords(step: FlowStep): string {
  switch (step.action) {
    case 'navigate':
      return `Open ${step.url}`;
    case 'click':
      return `Click ${locatorWords(step.locator)}`;
    case 'fill':
      return `Fill ${locatorWords(step.locator)} with ${valueWords(step.input)}`;
    case 'select':
      return `Choose ${valueWords(step.input)} in ${locatorWords(step.locator)}`;
    case 'press':
      return `Press ${step.key}`;
    case 'upload':
      return `Upload ${quoted(step.file)} into ${locatorWords(step.locator)} (the file's path from {${step.param}})`;
    case 'switch_tab':
      return `Switch to the tab at ${quoted(step.url_includes)}`;
    case 'scroll_by':
      return `Scroll ${step.direction} ${scrollDistance(step)}${step.locator === undefined ? '' : ` in ${locatorWords(step.locator)}`}`;
  }
}

function scrollDistance(step: Extract<FlowStep, { action: 'scroll_by' }>): string {
  if (step.amount !== undefined) {
    return `${step.amount} px`;
  }
  const pages = step.pages ?? 1;
  return pages === 1 ? 'a page' : `${pages} pages`;
}

/** A step's line in the list, numbered from 1: its title when the flow gives one, else what it does. */
export function stepLine(step: FlowStep, index: number): string {
  const title = step.title?.trim() ?? '';
  return `${index + 1}. ${title === '' ? stepWords(step) : title}`;
}

/** What replay checks after the step, in words; undefined when it checks nothing. */
export function expectationWords(expect: FlowExpectation | undefined): string | undefined {
  if (expect === undefined) {
    return undefined;
  }
  const parts = [
    ...(expect.path === undefined ? [] : [`the address has ${expect.path}`]),
    ...(expect.text === undefined ? [] : [`the page shows ${quoted(expect.text)}`]),
  ];
  return `then ${parts.join(' and ')}`;
}

const ReplayAnswer = z.looseObject({
  steps: z.number(),
  completed: z.number(),
  stopped_at: z.number().nullable(),
  reason: z.string().nullable(),
  screenshot: z.string().nullable().catch(null),
});

/** What a replay did, in a line: passed, or the step it stopped at and why (and where its picture is). */
export function replayWords(result: unknown): { passed: boolean; text: string } {
  const answer = ReplayAnswer.safeParse(result);
  if (!answer.success) {
    return { passed: false, text: 'The replay answered something the panel cannot read.' };
  }
  const { steps, completed, stopped_at: stoppedAt, reason, screenshot } = answer.data;
  if (stoppedAt === null) {
    return { passed: true, text: `Passed: all ${steps} step${steps === 1 ? '' : 's'} ran and held.` };
  }
  const picture = screenshot === null ? '' : ` Picture: ${screenshot}`;
  return {
    passed: false,
    text: `Failed at step ${stoppedAt} of ${steps} (${completed} passed): ${reason ?? 'no reason given'}.${picture}`,
  };
}
