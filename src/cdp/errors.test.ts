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

  // chrome.debugger's own messages on Chromium 156 (the platform facts), which the extension's router reads
  // through this classifier and nowhere else.
  it.each([
    ['Another debugger is already attached to the tab with id: 7.', 'already-attached'],
    ['Cannot access a chrome:// URL', 'browser-page'],
    ['Cannot attach to tab 7: Cannot access a chrome:// URL', 'browser-page'],
    ['Debugger is not attached to the tab with id: 7.', 'target-gone'],
    ['No tab with given id 7.', 'target-gone'],
    ['No tab with id: 7.', 'target-gone'],
    ["'Browser.getVersion' wasn't found", 'unsupported'],
    ['Cannot not access browser-level commands', 'unsupported'],
    ['No background page with given id abc.', 'other'],
    ['Requested protocol version is not supported: 9.9.', 'other'],
    ['Cannot attach to this target.', 'other'],
  ] as const)('reads chrome.debugger\'s "%s" as %s', (message, kind) => {
    expect(cdpErrorKind(message)).toBe(kind);
    expect(cdpErrorKind(new Error(message))).toBe(kind);
  });

  it("keeps the typed errors of chrome.debugger's own refusals as they were: only a gone tab is TAB_NOT_FOUND", () => {
    expect(errorFromPayload('Page.navigate', { code: -32000, message: 'Cannot access a chrome:// URL' }).code).toBe(
      'INTERNAL',
    );
    expect(
      errorFromPayload('Page.enable', {
        code: -32000,
        message: 'Another debugger is already attached to the tab with id: 7.',
      }).code,
    ).toBe('INTERNAL');
    expect(
      errorFromPayload('Page.enable', { code: -32000, message: 'Debugger is not attached to the tab with id: 7.' })
        .code,
    ).toBe('TAB_NOT_FOUND');
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
