import { describe, expect, it } from 'vitest';
import { ERROR_CODES } from '../../shared/errors';
import { failureAnswer, type BrowserMode } from './error-advice';

const text = (result: { content: Array<{ type: string; text?: string }> }): string => result.content[0]?.text ?? '';

describe('failure answers', () => {
  it('say for every error code what happened and a next step, as isError', () => {
    for (const code of ERROR_CODES) {
      for (const mode of ['extension', 'launch', 'connect'] as BrowserMode[]) {
        const answer = failureAnswer({ code, message: 'what happened' }, { action: 'click', tabId: 'AB12', mode });
        expect(answer.isError).toBe(true);
        expect(text(answer)).toMatch(new RegExp(`^click failed in tab AB12 \\(${code}\\): what happened\\nNext: \\S`));
      }
    }
  });

  it('name the cover of an occluded element and how to clear it', () => {
    const answer = failureAnswer(
      {
        code: 'ELEMENT_OCCLUDED',
        message: 'Element 12 <button#buy> is covered by <div#cookie-banner> "We use cookies"',
        details: { cover: '<div#cookie-banner> "We use cookies"', element: '<button#buy>' },
      },
      { action: 'click', tabId: 'AB12', mode: 'extension' },
    );
    expect(text(answer)).toContain(
      'Next: Get <div#cookie-banner> "We use cookies" out of the way first: call state and click its close, accept or dismiss button',
    );
  });

  it('fit the mode: the extension asks for the browser, Node for attach', () => {
    const lost = { code: 'DISCONNECTED' as const, message: 'gone' };
    expect(text(failureAnswer(lost, { action: 'state', tabId: undefined, mode: 'extension' }))).toContain(
      'tabpilot doctor',
    );
    expect(text(failureAnswer(lost, { action: 'state', tabId: undefined, mode: 'connect' }))).toContain('attach');
    const full = { code: 'DISCONNECTED' as const, message: 'full', details: { reason: 'pool_full' } };
    expect(text(failureAnswer(full, { action: 'state', tabId: undefined, mode: 'connect' }))).toContain('pool');
  });

  it('name the field to fix, the options to pick from and another client’s tab', () => {
    const field = failureAnswer(
      { code: 'INVALID_PARAMS', message: 'click: index: expected number', details: { field: 'index' } },
      { action: 'click', tabId: undefined, mode: 'launch' },
    );
    expect(text(field)).toMatch(/^click failed \(INVALID_PARAMS\).*\nNext: Fix the argument "index"/s);
    const options = failureAnswer(
      { code: 'INVALID_PARAMS', message: 'no such option', details: { options: ['Apple', 'Pear'] } },
      { action: 'select_dropdown', tabId: 'AB12', mode: 'launch' },
    );
    expect(text(options)).toContain('Pick one of these options, by its exact text: "Apple", "Pear".');
    const owned = failureAnswer(
      { code: 'FORBIDDEN', message: 'leased', details: { owner: 'mcp:cursor' } },
      { action: 'click', tabId: 'AB12', mode: 'extension' },
    );
    expect(text(owned)).toContain('belongs to another client (mcp:cursor)');
    const refused = failureAnswer(
      { code: 'FORBIDDEN', message: 'The person did not allow mcp:cursor', details: { approval: 'denied' } },
      { action: 'tabs', tabId: undefined, mode: 'extension' },
    );
    expect(text(refused)).toContain('Next: The person refused this client in the tabpilot side panel');
  });
});
