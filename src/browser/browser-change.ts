import type { PayloadOf } from '../protocol/define-event';
import { isSameBrowser, type BrowserIdentity } from '../cdp/browser-identity';
import { isPageType, type TargetRecord } from '../cdp/target';
import { TabpilotError } from '../shared/errors';
import { redactUrl } from '../shared/redact-url';
import type { BrowserReplacedEvent } from '../protocol/events/connection.events';

/**
 * One page's endpoint answers for that page only (its Target domain attaches to nothing else): refused at
 * once, saying what to give instead, rather than timing out every request.
 */
export function refuseNonBrowserEndpoint(identity: BrowserIdentity | undefined, endpoint: string): void {
  if (identity?.targetType !== undefined && identity.targetType !== 'browser') {
    throw new TabpilotError(
      'INVALID_PARAMS',
      `${redactUrl(endpoint)} is the endpoint of one ${identity.targetType}, not of a browser: give the browser's endpoint (http://host:port, or the webSocketDebuggerUrl of http://host:port/json/version)`,
      { details: { field: 'cdp_url' } },
    );
  }
}

/**
 * The BrowserReplacedEvent payload when the browser that answered (`now`) is not the one the session had
 * (`previous`, with its pages `known`), else undefined (the same browser, or no way to tell).
 */
export function replacementOf(options: {
  previous: BrowserIdentity | undefined;
  now: BrowserIdentity | undefined;
  known: readonly TargetRecord[];
  endpoint: string;
  reason: string;
}): PayloadOf<typeof BrowserReplacedEvent> | undefined {
  const { previous, now } = options;
  if (previous === undefined || now === undefined) {
    return undefined;
  }
  const lost = options.known.filter((target) => isPageType(target.type)).map((target) => target.targetId);
  if (isSameBrowser(previous, now, lost) !== false) {
    return undefined;
  }
  return {
    cdp_url: redactUrl(options.endpoint),
    previous_browser_id: previous.browserId ?? null,
    browser_id: now.browserId ?? null,
    lost_target_ids: lost,
    reason: options.reason,
  };
}
