import { cdpErrorKind } from '../../cdp/errors';
import { errorMessageOf, type ErrorCode } from '../../shared/errors';
import { UnattachableTabError } from './router-errors';

/**
 * The protocol code for a tab the router would not attach: FORBIDDEN for tabpilot's own pages (it could,
 * and will not), UNSUPPORTED for the browser's pages (Chrome does not let it, whether the router saw it
 * first or chrome.debugger said "Cannot access a chrome:// URL"), TAB_NOT_FOUND otherwise.
 */
export function attachRefusalCode(error: unknown): ErrorCode {
  if (error instanceof UnattachableTabError) {
    return error.reason === 'own-page' ? 'FORBIDDEN' : 'UNSUPPORTED';
  }
  return cdpErrorKind(errorMessageOf(error)) === 'browser-page' ? 'UNSUPPORTED' : 'TAB_NOT_FOUND';
}
