import { describe, expect, it } from 'vitest';
import { TabpilotError } from '../../../shared/errors';
import { flowOfFileText } from './flow-files';

function refusal(read: () => unknown): TabpilotError {
  try {
    read();
  } catch (error) {
    if (error instanceof TabpilotError) {
      return error;
    }
    throw error;
  }
  throw new Error('accepted');
}

const good = {
  format: 'tabpilot-flow',
  version: 1,
  name: 'Sign up',
  steps: [{ action: 'press', key: 'Enter' }],
};

describe('an imported flow file', () => {
  it('reads a flow file', () => {
    expect(flowOfFileText('signup.json', JSON.stringify(good))).toEqual({ ...good, defaults: {} });
  });

  it('refuses a file that is not JSON, or not a flow, naming the file and what is wrong', () => {
    expect(refusal(() => flowOfFileText('notes.txt', 'hello'))).toMatchObject({
      code: 'INVALID_PARAMS',
      message: /^notes\.txt is not JSON/,
    });
    expect(
      refusal(() => flowOfFileText('bad.json', JSON.stringify({ ...good, steps: [{ action: 'fly' }] }))),
    ).toMatchObject({ code: 'INVALID_PARAMS', message: /^bad\.json: not a tabpilot flow \(version 1\): steps\.0/ });
  });
});
