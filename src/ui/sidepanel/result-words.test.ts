import { describe, expect, it } from 'vitest';
import { imageOf, nextStep, refusedField, shownJson, successLine } from './result-words';

describe('result words', () => {
  it('says what a success did in one line, with the time the person waited', () => {
    expect(
      successLine('navigate', { url: 'example.com' }, { url: 'https://example.com/', target_id: 'x' }, 310.4),
    ).toBe('Navigated to example.com in 310 ms');
    expect(successLine('click', { index: 6 }, { index: 6, clicked: true, element: 'Create account' })).toBe(
      'Clicked [6] "Create account"',
    );
    expect(successLine('input', { index: 3, text: 'twelve chars' }, { index: 3 })).toBe('Typed 12 characters into [3]');
    expect(successLine('scroll', {}, { moved_x: 0, moved_y: -400, at_end: true })).toBe(
      'Scrolled up 400 px (now at the end)',
    );
    expect(successLine('some_new_action', {}, {})).toBe('Some new action done');
  });

  it('gives what to do next for an error and the field an INVALID_PARAMS names', () => {
    expect(nextStep('NOT_ATTACHED')).toMatch(/Attach a tab/);
    expect(nextStep('INTERNAL')).toBeUndefined();
    expect(
      refusedField({ id: 1, ok: false, error: { code: 'INVALID_PARAMS', message: 'bad', details: { field: 'url' } } }),
    ).toBe('url');
    expect(refusedField({ id: 1, ok: true, result: null })).toBeUndefined();
  });

  it('shows a screenshot as a picture and its base64 in the JSON as its size', () => {
    const data = 'A'.repeat(4096);
    const response = { id: 1, ok: true as const, result: { data, format: 'png', width: 10, height: 20, path: null } };
    expect(imageOf(response.result)).toEqual({ src: `data:image/png;base64,${data}`, width: 10, height: 20 });
    const json = shownJson(response);
    expect(json).not.toContain(data);
    expect(JSON.parse(json)).toMatchObject({ result: { data: '(3 kB image, shown above)', width: 10 } });
    expect(imageOf({ url: 'x' })).toBeUndefined();
  });
});
