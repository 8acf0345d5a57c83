import type { Suspension } from '../../cdp/connection';
import { TabpilotError } from '../../shared/errors';
import type { Admission, GateClass, TabCondition } from './tab-conditions';

/**
 * CDP commands the browser process answers itself, so they still work when the page's renderer is gone
 * or stuck (measured on Chromium 156 over both transports): they are how a tab comes back.
 */
const BROWSER_SIDE = new Set([
  'Page.reload',
  'Page.navigate',
  'Page.crash',
  'Page.close',
  'Page.getNavigationHistory',
  'Page.navigateToHistoryEntry',
  'Runtime.terminateExecution',
  'Target.setAutoAttach',
]);

/** Whether the browser process answers `method` itself, so it works while the page cannot answer. */
export function answeredByBrowser(method: string): boolean {
  return BROWSER_SIDE.has(method);
}

export function crashedError(tabId: string, method?: string): TabpilotError {
  return new TabpilotError(
    'TAB_CRASHED',
    `Tab ${tabId}'s page crashed${method === undefined ? '' : ` (${method} not sent)`}: refresh the tab to bring it back, or close it`,
    { details: { tab_id: tabId, ...(method === undefined ? {} : { method }) } },
  );
}

export function unresponsiveError(tabId: string, sinceMs: number, method?: string): TabpilotError {
  return new TabpilotError(
    'TIMEOUT',
    `Tab ${tabId}'s page has not answered for ${Math.round(sinceMs / 1000)} s: its main thread is stuck (an endless script?)${method === undefined ? '' : ` (${method} not sent)`}. Refresh the tab to stop it, or wait`,
    { details: { tab_id: tabId, condition: 'unresponsive', ...(method === undefined ? {} : { method }) } },
  );
}

export function crashSuspension(tabId: string): Suspension {
  return { error: (method) => crashedError(tabId, method), allows: (method) => BROWSER_SIDE.has(method) };
}

export function unresponsiveSuspension(tabId: string, since: number): Suspension {
  return {
    error: (method) => unresponsiveError(tabId, Date.now() - since, method),
    allows: (method) => BROWSER_SIDE.has(method),
  };
}

/** A crashed page refuses everything at once but a refresh, which reloads it. */
export function crashedCondition(tabId: string, since = Date.now()): TabCondition {
  return {
    kind: 'crashed',
    status: 'crashed',
    reason: `The page crashed (its renderer is gone): refresh tab ${tabId} to bring it back`,
    since,
    admit: (gate: GateClass) => {
      if (gate !== 'recover') {
        throw crashedError(tabId);
      }
    },
  };
}

/**
 * A stuck page refuses actions at once and lets reads fail fast on the suspended session; a reload alone does not stop an endless script
 * (the same renderer keeps running it), so the refresh first ends the renderer (`unstick`).
 */
export function unresponsiveCondition(
  tabId: string,
  since: number,
  unstick: (admission: Admission) => Promise<void>,
): TabCondition {
  return {
    kind: 'unresponsive',
    status: 'unresponsive',
    reason: `The page's main thread is stuck (an endless script?): refresh tab ${tabId} to stop it`,
    since,
    admit: async (gate, admission) => {
      if (gate === 'act') {
        throw unresponsiveError(tabId, Date.now() - since);
      }
      // A read goes on: the suspended session fails its page commands at once, and the state answers
      // a non-actionable one that says the page is stuck instead of an error.
      if (gate === 'read') {
        return;
      }
      await unstick(admission);
    },
  };
}
