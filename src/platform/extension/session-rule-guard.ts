import type { PolicyConfig } from '../../browser/security/url-policy';
import {
  openedTabSessionRules,
  webSocketSessionRules,
  type OpenedTabScope,
} from '../../browser/security/websocket-rules';
import { replaceSessionRules, type SessionRulesApi } from '../../browser/security/session-rules';
import { errorMessageOf } from '../../shared/errors';
import type { Logger } from '../../shared/logger';
import { SerialQueue } from '../../shared/serial-queue';

/** The part of chrome.declarativeNetRequest the guard uses. */
export type DnrSessionRules = SessionRulesApi<chrome.declarativeNetRequest.Rule>;

/** Where the rules apply: the controlled tabs, and any tab newer than the settled ones. */
export interface RuleScope extends OpenedTabScope {
  controlledTabIds: readonly number[];
}

/**
 * The URL policy where CDP cannot hold a request, in Chrome's own network stack, as declarativeNetRequest
 * session rules (blocking needs the declarativeNetRequest permission only, no host permission):
 * - the WebSocket handshakes of the controlled tabs (the Fetch domain that holds their other requests never
 *   sees one), scoped by `tabIds`, the person's other tabs untouched;
 * - the first document of a tab a controlled tab's page opens, which leaves before chrome.debugger can
 *   attach the new tab (websocket-rules.ts, openedTabSessionRules).
 * The rules follow the controlled set, their pages and the policy; each update replaces them all, one at a
 * time (a later update waits for the one before). A request in the moment between a change and its rules
 * landing is judged by the rules before it.
 */
export class SessionRuleGuard {
  readonly #api: DnrSessionRules;
  readonly #log: Logger;
  readonly #queue = new SerialQueue();

  constructor(api: DnrSessionRules, log: Logger) {
    this.#api = api;
    this.#log = log;
  }

  /** Replaces the rules with the policy's for this scope (none when no tab is controlled). */
  sync(config: PolicyConfig, scope: RuleScope): Promise<void> {
    return this.#queue
      .run(() => this.#replace(config, scope))
      .catch((error: unknown) =>
        this.#log.warn('could not update the network rules', { error: errorMessageOf(error) }),
      );
  }

  async #replace(config: PolicyConfig, scope: RuleScope): Promise<void> {
    const webSockets = scope.controlledTabIds.length === 0 ? [] : webSocketSessionRules(config, scope.controlledTabIds);
    const openedTabs =
      scope.controlledTabIds.length === 0 ? [] : openedTabSessionRules(config, scope, webSockets.length + 1);
    // chrome's Rule types its action and resource types as enums; the rules' strings are their values.
    const rules = [...webSockets, ...openedTabs] as chrome.declarativeNetRequest.Rule[];
    await replaceSessionRules(this.#api, rules);
  }
}
