import { describe, expect, it } from 'vitest';
import { attachRefusalCode } from './attach-refusal';
import { RouterError, SERVER_ERROR, UnattachableTabError, toRouterError } from './router-errors';

// chrome.debugger's messages on Chromium 156, as its promises reject with them (the platform facts).
const ALREADY_ATTACHED = 'Another debugger is already attached to the tab with id: 7.';
const BROWSER_PAGE = 'Cannot access a chrome:// URL';
const NOT_ATTACHED = 'Debugger is not attached to the tab with id: 7.';
const NO_TAB = 'No tab with given id 7.';
const NO_BACKGROUND_PAGE = 'No background page with given id abc.';

describe('toRouterError (chrome.debugger refusals in CDP’s shape)', () => {
  it.each([
    [NOT_ATTACHED, -32001],
    [NO_TAB, -32001],
    [ALREADY_ATTACHED, SERVER_ERROR],
    [BROWSER_PAGE, SERVER_ERROR],
    [NO_BACKGROUND_PAGE, SERVER_ERROR],
  ])('answers "%s" with code %i, keeping the message', (message, code) => {
    expect(toRouterError(new Error(message)).payload).toEqual({ code, message });
  });

  it('keeps a CDP error that chrome.debugger passed on as JSON, and a RouterError as it is', () => {
    const json = JSON.stringify({ code: -32601, message: "'Browser.getVersion' wasn't found" });
    expect(toRouterError(new Error(json)).payload).toEqual({
      code: -32601,
      message: "'Browser.getVersion' wasn't found",
    });
    const own = new RouterError(-32001, 'Session with given id not found.');
    expect(toRouterError(own)).toBe(own);
  });
});

describe('attachRefusalCode (why a tab was not attached)', () => {
  it('says UNSUPPORTED for a browser page, as chrome.debugger words it, bare or wrapped by the router', () => {
    expect(attachRefusalCode(new Error(BROWSER_PAGE))).toBe('UNSUPPORTED');
    expect(attachRefusalCode(new RouterError(SERVER_ERROR, `Cannot attach to tab 7: ${BROWSER_PAGE}`))).toBe(
      'UNSUPPORTED',
    );
  });

  it.each([ALREADY_ATTACHED, NOT_ATTACHED, NO_TAB, NO_BACKGROUND_PAGE])('says TAB_NOT_FOUND for "%s"', (message) => {
    expect(attachRefusalCode(new Error(message))).toBe('TAB_NOT_FOUND');
  });

  it('says FORBIDDEN for tabpilot’s own page and UNSUPPORTED for a browser page the router refused first', () => {
    expect(attachRefusalCode(new UnattachableTabError('own-page', 'own'))).toBe('FORBIDDEN');
    expect(attachRefusalCode(new UnattachableTabError('browser-page', 'browser'))).toBe('UNSUPPORTED');
  });
});
