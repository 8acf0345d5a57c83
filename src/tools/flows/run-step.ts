import { z } from 'zod';
import type { FlowStep, FlowValue } from '../../protocol/flow';
import { TabpilotError } from '../../shared/errors';
import type { ServerActionCaller } from '../server-action';
import { describeLocator, locate } from './locate-step';

/** The step's typed text as the action takes it: a secret stays a placeholder the server fills in. */
export function textOf(input: FlowValue, params: Readonly<Record<string, string>>): string {
  if ('value' in input) {
    return input.value;
  }
  if ('secret' in input) {
    return `<secret>${input.secret}</secret>`;
  }
  const value = params[input.param];
  if (value === undefined) {
    throw new TabpilotError('INVALID_PARAMS', `params: the flow needs a value for ${JSON.stringify(input.param)}`, {
      details: { field: 'params' },
    });
  }
  return value;
}

/** How a step reads in the replay's reason and the panel: `click button "Sign up"`. */
export function describeStep(step: FlowStep): string {
  if (step.title !== undefined && step.title !== '') {
    return step.title;
  }
  switch (step.action) {
    case 'navigate':
      return `open ${step.url}`;
    case 'press':
      return `press ${step.key}`;
    case 'scroll_by':
      return `scroll ${step.direction}${step.locator === undefined ? '' : ` in ${describeLocator(step.locator)}`}`;
    case 'switch_tab':
      return `switch to the tab at ${JSON.stringify(step.url_includes)}`;
    case 'click':
    case 'fill':
    case 'select':
    case 'upload':
      return `${step.action} ${describeLocator(step.locator)}`;
  }
}

const ListedTabs = z.looseObject({ tabs: z.array(z.looseObject({ tab_id: z.string(), url: z.string() })) });

/** The step failed for a reason the replay reports as it is (its own words, not an action's error). */
export class StepProblem extends Error {}

/**
 * Runs one step as the existing action would run for this client (its road: gate, leases, Stop): an
 * element step finds its element by its locator first. Returns the tab the replay goes on in.
 */
export async function runStep(
  step: FlowStep,
  tabId: string | undefined,
  params: Readonly<Record<string, string>>,
  caller: ServerActionCaller,
): Promise<string | undefined> {
  const onTab = tabId === undefined ? {} : { tab_id: tabId };
  switch (step.action) {
    case 'navigate':
      await caller.runAction('navigate', { ...onTab, url: step.url });
      return tabId;
    case 'press':
      await caller.runAction('send_keys', { ...onTab, keys: step.key });
      return tabId;
    case 'switch_tab': {
      const listed = ListedTabs.parse(await caller.runAction('tabs', {}));
      const tab = listed.tabs.find((candidate) => candidate.url.includes(step.url_includes));
      if (tab === undefined) {
        throw new StepProblem(`no tab of this client is at a URL containing ${JSON.stringify(step.url_includes)}`);
      }
      await caller.runAction('switch', { tab_id: tab.tab_id });
      return tab.tab_id;
    }
    case 'scroll_by':
      await scroll(step, onTab, caller);
      return tabId;
    case 'click':
    case 'fill':
    case 'select':
    case 'upload':
      return runOnElement(step, tabId, params, caller);
  }
}

/** A scroll step: the page, or the container of its element (found by its locator first). */
async function scroll(
  step: Extract<FlowStep, { action: 'scroll_by' }>,
  onTab: { tab_id?: string },
  caller: ServerActionCaller,
): Promise<void> {
  const located = step.locator === undefined ? undefined : await locate(step.locator, onTab, caller);
  if (located !== undefined && 'missing' in located) {
    throw new StepProblem(located.missing);
  }
  await caller.runAction('scroll', {
    ...onTab,
    direction: step.direction,
    ...(step.amount === undefined ? { pages: step.pages ?? 1 } : { amount: step.amount }),
    ...(located === undefined ? {} : { index: located.index }),
  });
}

/** An element step: its element found by its locator, then the action run on that element's index. */
async function runOnElement(
  step: Extract<FlowStep, { locator: unknown }>,
  tabId: string | undefined,
  params: Readonly<Record<string, string>>,
  caller: ServerActionCaller,
): Promise<string | undefined> {
  const onTab = tabId === undefined ? {} : { tab_id: tabId };
  const located = await locate(step.locator, onTab, caller);
  if ('missing' in located) {
    throw new StepProblem(located.missing);
  }
  const on = { ...onTab, index: located.index };
  switch (step.action) {
    case 'click':
      await caller.runAction('click', on);
      break;
    case 'fill':
      await caller.runAction('input', { ...on, text: textOf(step.input, params) });
      break;
    case 'select':
      await caller.runAction('select_dropdown', { ...on, text: textOf(step.input, params) });
      break;
    case 'upload':
      await caller.runAction('upload_file', { ...on, path: textOf({ param: step.param }, params) });
      break;
  }
  return tabId;
}
