/** The part of chrome.declarativeNetRequest that replaces the session rules. */
export interface SessionRulesApi<Rule extends { id: number }> {
  getSessionRules(): Promise<Rule[]>;
  updateSessionRules(options: { removeRuleIds?: number[]; addRules?: Rule[] }): Promise<void>;
}

/**
 * Replaces every declarativeNetRequest session rule with `rules`, in one update, and answers how many the
 * browser then holds. Session rules live in the browser for its lifetime, whatever the worker does.
 * Self-contained (it names nothing outside its parameters): GuardWorker runs its source text in the guard
 * extension's worker, the extension calls it with its own API.
 */
export async function replaceSessionRules<Rule extends { id: number }>(
  api: SessionRulesApi<Rule>,
  rules: Rule[],
): Promise<number> {
  const existing = await api.getSessionRules();
  await api.updateSessionRules({ removeRuleIds: existing.map((rule) => rule.id), addRules: rules });
  return (await api.getSessionRules()).length;
}
