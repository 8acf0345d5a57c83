import type { PolicyConfig } from '../../browser/security/url-policy';
import { webSocketSessionRules } from '../../browser/security/websocket-rules';
import { errorMessageOf } from '../../shared/errors';
import type { Logger } from '../../shared/logger';

/** The part of chrome.declarativeNetRequest the guard uses. */
export interface SessionRulesApi {
  getSessionRules(): Promise<chrome.declarativeNetRequest.Rule[]>;
  updateSessionRules(options: chrome.declarativeNetRequest.UpdateRuleOptions): Promise<void>;
}

/**
 * The URL policy for the WebSocket handshakes of controlled tabs, in Chrome's own network stack: the CDP
 * Fetch domain that holds every other request of a controlled tab never sees a WebSocket, so the policy's
 * WebSocket rules (websocket-rules.ts) become declarativeNetRequest session rules scoped by `tabIds` to the
 * controlled tabs, the person's other tabs untouched. Blocking rules need the declarativeNetRequest
 * permission only, no host permission. The rules follow the controlled set and the policy; each update
 * replaces them all, one at a time (a later update waits for the one before), and a WebSocket a page opens
 * in the moment between a tab coming under control and its rule landing is not held.
 */
export class WebSocketGuard {
  readonly #api: SessionRulesApi;
  readonly #log: Logger;
  #queue: Promise<void> = Promise.resolve();

  constructor(api: SessionRulesApi, log: Logger) {
    this.#api = api;
    this.#log = log;
  }

  /** Replaces the rules with the policy's, for these tabs (none when no tab is controlled). */
  sync(config: PolicyConfig, tabIds: readonly number[]): Promise<void> {
    const next = this.#queue.then(() => this.#replace(config, tabIds));
    this.#queue = next.catch((error: unknown) =>
      this.#log.warn('could not update the WebSocket rules', { error: errorMessageOf(error) }),
    );
    return this.#queue;
  }

  async #replace(config: PolicyConfig, tabIds: readonly number[]): Promise<void> {
    const existing = await this.#api.getSessionRules();
    // chrome's Rule types its action and resource types as enums; the rule's strings are their values.
    const rules =
      tabIds.length === 0 ? [] : (webSocketSessionRules(config, tabIds) as chrome.declarativeNetRequest.Rule[]);
    await this.#api.updateSessionRules({ removeRuleIds: existing.map((rule) => rule.id), addRules: rules });
  }
}
