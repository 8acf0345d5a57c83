import { describe, expect, it } from 'vitest';
import { TabpilotError } from '../shared/errors';
import { flowParams, flowSecrets, parseFlow } from './flow';

const signUp = {
  format: 'tabpilot-flow',
  version: 1,
  name: 'Sign up',
  steps: [
    { action: 'navigate', url: 'http://127.0.0.1:8080/signup.html' },
    { action: 'fill', locator: { role: 'textbox', name: 'Email' }, input: { param: 'email' } },
    { action: 'fill', locator: { label: 'Password' }, input: { secret: 'password' } },
    { action: 'select', locator: { role: 'combobox', name: 'Plan' }, input: { value: 'Pro' } },
    {
      action: 'click',
      locator: { role: 'button', name: 'Sign up' },
      expect: { path: '/welcome.html', text: 'Welcome' },
    },
  ],
  defaults: { email: 'ada@example.test' },
};

function refusal(value: unknown): TabpilotError {
  try {
    parseFlow(value);
  } catch (error) {
    if (error instanceof TabpilotError) {
      return error;
    }
    throw error;
  }
  throw new Error('the flow was accepted');
}

describe('the flow file', () => {
  it('reads a version 1 flow, its parameters and its secrets', () => {
    const flow = parseFlow(signUp);
    expect(flow.steps).toHaveLength(5);
    expect(flowParams(flow)).toEqual(['email']);
    expect(flowSecrets(flow)).toEqual(['password']);
  });

  it('refuses another version, naming the field', () => {
    const error = refusal({ ...signUp, version: 2 });
    expect(error.code).toBe('INVALID_PARAMS');
    expect(error.message).toMatch(/^flow: not a tabpilot flow \(version 1\): version: /);
  });

  it('refuses a step without a locator, a locator of two kinds and an index', () => {
    expect(refusal({ ...signUp, steps: [{ action: 'click' }] }).message).toMatch(/steps\.0\.locator/);
    expect(refusal({ ...signUp, steps: [{ action: 'click', locator: { label: 'A', text: 'A' } }] }).message).toMatch(
      /steps\.0\.locator/,
    );
    expect(refusal({ ...signUp, steps: [{ action: 'click', locator: { index: 3 } }] }).message).toMatch(
      /steps\.0\.locator/,
    );
  });

  it('refuses a typed value that is two things at once, and an expectation that says nothing', () => {
    const twice = { action: 'fill', locator: { label: 'A' }, input: { value: 'x', secret: 'password' } };
    expect(refusal({ ...signUp, steps: [twice] }).message).toMatch(/steps\.0\.input/);
    const empty = { action: 'click', locator: { label: 'A' }, expect: {} };
    expect(refusal({ ...signUp, steps: [empty] }).message).toMatch(/name at least one of path and text/);
  });

  it('refuses a default for a parameter no step takes', () => {
    expect(refusal({ ...signUp, defaults: { nobody: 'x' } }).message).toMatch(/defaults\.nobody: no step takes/);
  });
});
