import { describe, expect, it } from 'vitest';
import { stepLines } from './step-lines';

describe('stepLines', () => {
  it('prints the step, its page and thinking, each action with ok or its error, and a failed step', () => {
    expect(
      stepLines({
        step: 2,
        url: 'https://shop.test/cart',
        thinking: 'Adding the cheapest one.',
        actions: [
          {
            name: 'click',
            params: { index: 4 },
            success: true,
            extracted_content: null,
            error: null,
            error_code: null,
          },
          {
            name: 'input',
            params: { index: 9, text: '<secret>card</secret>' },
            success: false,
            extracted_content: null,
            error: 'no element [9]',
            error_code: 'ELEMENT_NOT_FOUND',
          },
        ],
        error: null,
      }),
    ).toBe(
      'step 2 (https://shop.test/cart): Adding the cheapest one.\n' +
        '  click {"index":4} -> ok\n' +
        '  input {"index":9,"text":"<secret>card</secret>"} -> ELEMENT_NOT_FOUND: no element [9]\n',
    );
  });

  it('names a step without a tab, and a step that failed as a whole', () => {
    expect(stepLines({ step: 1, url: '', thinking: null, actions: [], error: 'model request failed' })).toBe(
      'step 1 (no tab)\n  step failed: model request failed\n',
    );
  });
});
