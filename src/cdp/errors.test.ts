import { describe, expect, it } from 'vitest';
import { cdpErrorKind, errorFromPayload, isStaleReference } from './errors';

describe('the CDP error classifier', () => {
  it.each([
    ['Cannot find context with specified id', 'context-gone'],
    ['Execution context was destroyed.', 'context-gone'],
    ['Cannot find default execution context', 'context-gone'],
    ['Inspected target navigated or closed', 'context-gone'],
    ['Could not find object with given id', 'object-gone'],
    ['Node with given id does not belong to the document', 'node-gone'],
    ['No node with given id found', 'node-gone'],
    ['Session with given id not found.', 'target-gone'],
    ['No target with given id found', 'target-gone'],
    ["'Foo.bar' wasn't found", 'unsupported'],
    ['Something else went wrong', 'other'],
  ] as const)('reads "%s" as %s', (message, kind) => {
    expect(cdpErrorKind(message)).toBe(kind);
    expect(cdpErrorKind(new Error(`DOM.resolveNode: ${message}`))).toBe(kind === 'unsupported' ? 'unsupported' : kind);
  });

  it('calls a context, object or node of a gone document a stale reference, and nothing else', () => {
    expect(isStaleReference(new Error('Runtime.callFunctionOn: Could not find object with given id'))).toBe(true);
    expect(isStaleReference(new Error('DOM.resolveNode: Node with given id does not belong to the document'))).toBe(
      true,
    );
    expect(isStaleReference(new Error('Target closed'))).toBe(false);
    expect(isStaleReference('not an error')).toBe(false);
  });

  it('turns payloads into the typed errors callers act on', () => {
    expect(
      errorFromPayload('Runtime.evaluate', { code: -32000, message: 'Cannot find context with specified id' }).code,
    ).toBe('TAB_NOT_FOUND');
    expect(
      errorFromPayload('Target.closeTarget', { code: -32000, message: 'No target with given id found' }).code,
    ).toBe('TAB_NOT_FOUND');
    expect(errorFromPayload('Browser.close', { code: -32000, message: 'Not allowed' }).code).toBe('UNSUPPORTED');
    expect(errorFromPayload('Foo.bar', { code: -32601, message: "'Foo.bar' wasn't found" }).code).toBe('UNSUPPORTED');
    expect(
      errorFromPayload('Runtime.evaluate', { code: -32000, message: 'Execution context was destroyed.' }).code,
    ).toBe('INTERNAL');
  });
});
