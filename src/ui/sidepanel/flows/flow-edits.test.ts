import { describe, expect, it } from 'vitest';
import { Flow, parseFlow } from '../../../protocol/flow';
import { TabpilotError } from '../../../shared/errors';
import { deleteStep, parameterizeStep, renameFlow } from './flow-edits';
import { stepLine } from './flow-words';

const signUp = parseFlow({
  format: 'tabpilot-flow',
  version: 1,
  name: 'Recorded flow',
  steps: [
    { action: 'navigate', url: 'http://127.0.0.1:8080/flows/signup.html', expect: { path: '/flows/signup.html' } },
    { action: 'fill', locator: { role: 'textbox', name: 'Full name' }, input: { value: 'Ada Lovelace' } },
    {
      action: 'fill',
      title: 'Type ada@example.test as the email',
      locator: { role: 'textbox', name: 'Email' },
      input: { value: 'ada@example.test' },
      expect: { path: '/flows/signup.html', text: 'ada@example.test is free' },
    },
    { action: 'fill', locator: { label: 'Password' }, input: { secret: 'password' } },
    { action: 'select', locator: { role: 'combobox', name: 'Plan' }, input: { param: 'plan' } },
    { action: 'click', locator: { role: 'button', name: 'Sign up' }, expect: { path: '/flows/welcome.html' } },
  ],
  defaults: { plan: 'Pro' },
});

function refusal(edit: () => unknown): TabpilotError {
  try {
    edit();
  } catch (error) {
    if (error instanceof TabpilotError) {
      return error;
    }
    throw error;
  }
  throw new Error('the edit was accepted');
}

describe('editing a kept flow', () => {
  it('renames it, trimmed, and refuses an empty or over-long name', () => {
    expect(renameFlow(signUp, '  Sign up  ').name).toBe('Sign up');
    expect(renameFlow(signUp, 'Sign up').steps).toEqual(signUp.steps);
    expect(refusal(() => renameFlow(signUp, '   '))).toMatchObject({ code: 'INVALID_PARAMS', message: /needs a name/ });
    expect(refusal(() => renameFlow(signUp, 'x'.repeat(201)))).toMatchObject({ code: 'INVALID_PARAMS' });
  });

  it('deletes a step, and the steps after it number on from there', () => {
    const edited = deleteStep(signUp, 1);
    expect(edited.steps).toHaveLength(5);
    expect(edited.steps).toEqual([signUp.steps[0], ...signUp.steps.slice(2)]);
    expect(edited.steps.map(stepLine).slice(0, 2)).toEqual([
      '1. Open http://127.0.0.1:8080/flows/signup.html',
      '2. Type ada@example.test as the email',
    ]);
    expect(signUp.steps).toHaveLength(6);
  });

  it('drops the default of a parameter no step takes any more, so the flow stays valid', () => {
    const edited = deleteStep(signUp, 4);
    expect(edited.defaults).toEqual({});
    expect(Flow.safeParse(edited).success).toBe(true);
  });

  it('refuses to delete a step it does not have, or the last one', () => {
    expect(refusal(() => deleteStep(signUp, 6))).toMatchObject({ code: 'INVALID_PARAMS', message: /no step 7/ });
    expect(refusal(() => deleteStep(signUp, -1))).toMatchObject({ code: 'INVALID_PARAMS' });
    const one = parseFlow({ ...signUp, steps: [signUp.steps[0]], defaults: {} });
    expect(refusal(() => deleteStep(one, 0))).toMatchObject({ message: /at least one step/ });
  });

  it('makes a typed value a parameter: the step takes {param}, the value is its default, the flow stays valid', () => {
    const edited = parameterizeStep(signUp, 1, 'name');
    expect(edited.steps[1]).toEqual({
      action: 'fill',
      locator: { role: 'textbox', name: 'Full name' },
      input: { param: 'name' },
    });
    expect(edited.defaults).toEqual({ plan: 'Pro', name: 'Ada Lovelace' });
    expect(Flow.safeParse(edited).success).toBe(true);
    expect(stepLine(edited.steps[1]!, 1)).toBe('2. Fill textbox "Full name" with {name}');
    expect(JSON.stringify(edited.steps)).not.toContain('Ada Lovelace');
  });

  it('replaces the value everywhere the step held it: its title says {param}, a text expecting it goes', () => {
    const edited = parameterizeStep(signUp, 2, 'email');
    expect(edited.steps[2]).toEqual({
      action: 'fill',
      title: 'Type {email} as the email',
      locator: { role: 'textbox', name: 'Email' },
      input: { param: 'email' },
      expect: { path: '/flows/signup.html' },
    });
    expect(JSON.stringify(edited.steps)).not.toContain('ada@example.test');
    expect(Flow.safeParse(edited).success).toBe(true);
  });

  it('keeps the default a parameter has already when another step joins it', () => {
    const withPlan = parseFlow({
      ...signUp,
      steps: [...signUp.steps, { action: 'select', locator: { label: 'Second plan' }, input: { value: 'Team' } }],
    });
    const edited = parameterizeStep(withPlan, 6, 'plan');
    expect(edited.defaults).toEqual({ plan: 'Pro' });
    expect(edited.steps[6]).toMatchObject({ input: { param: 'plan' } });
  });

  it('refuses a step with no typed value of its own, and a name no parameter can have', () => {
    expect(refusal(() => parameterizeStep(signUp, 0, 'url'))).toMatchObject({ message: /navigate step/ });
    expect(refusal(() => parameterizeStep(signUp, 3, 'pw'))).toMatchObject({ message: /the secret password/ });
    expect(refusal(() => parameterizeStep(signUp, 4, 'p'))).toMatchObject({ message: /the parameter plan/ });
    expect(refusal(() => parameterizeStep(signUp, 1, 'full name'))).toMatchObject({
      code: 'INVALID_PARAMS',
      details: { field: 'param' },
    });
    expect(refusal(() => parameterizeStep(signUp, 1, ''))).toMatchObject({ details: { field: 'param' } });
  });
});
