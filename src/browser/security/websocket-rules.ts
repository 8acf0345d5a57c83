import { parseDomainPattern, type DomainPattern } from './domain-pattern';
import type { PolicyConfig } from './url-policy';

/**
 * The URL policy for WebSocket handshakes, as ordered block/allow rules over the whole URL (RE2 regular
 * expressions, what declarativeNetRequest's `regexFilter` takes). The CDP Fetch domain that holds every
 * other request never sees a WebSocket (measured on Chromium 156, as Network.setBlockedURLs does not
 * stop one either), so the extension hands these to the browser's own network stack. The higher
 * priority wins, as in the policy: an address and a prohibited host are refused even when allowed_domains
 * lists them; outside a non-empty allow list everything is refused. A WebSocket is judged as its http(s)
 * twin (ws:// as http://, wss:// as https://): the site that may be loaded may be talked to.
 */
export interface WebSocketRule {
  priority: number;
  action: 'block' | 'allow';
  regexFilter: string;
}

/** The scheme (ws, wss, and http(s), which some Chromium builds report for a handshake), then userinfo. */
const START = '^(?:wss?|https?)://(?:[^/?#@]*@)?';
/** An optional FQDN dot, an optional port, then the end of the host. */
const END = '\\.?(?::[0-9]+)?(?:[/?#]|$)';
/** Hosts per rule: RE2 limits a compiled expression's size, and DNR the number of regex rules (1,000). */
const HOSTS_PER_RULE = 20;

/** The schemes a scheme-bound pattern's URL stands for when the request is a WebSocket. */
const TWIN_SCHEMES: Record<string, string> = {
  'http:': '(?:ws|http)',
  'https:': '(?:wss|https)',
  'ws:': 'ws',
  'wss:': 'wss',
};

const PRIORITY_REFUSED = 3;
const PRIORITY_ALLOWED = 2;
const PRIORITY_OUTSIDE = 1;

function escape(text: string): string {
  return text.replace(/[.+?^${}()|[\]\\/*]/g, '\\$&');
}

/** A glob's `*` matches any run, dots included; within a host it stops at the host's end. */
function globSource(text: string, within: string): string {
  return text.split('*').map(escape).join(`${within}*`);
}

/**
 * A glob over `scheme://host...` as a regex source whose scheme also takes the WebSocket twins of the
 * http(s) schemes it covers (`http*://x` covers ws:// and wss://x too).
 */
function twinSchemeGlob(text: string, skipUserinfo: boolean): string {
  const end = text.indexOf('://');
  const schemeGlob = text.slice(0, end);
  const schemeRegex = new RegExp(`^${globSource(schemeGlob, '.')}$`);
  const schemes = [globSource(schemeGlob, '.')];
  for (const [http, ws] of [
    ['http', 'ws'],
    ['https', 'wss'],
  ] as const) {
    if (schemeRegex.test(http)) {
      schemes.push(ws);
    }
  }
  return `(?:${schemes.join('|')})://${skipUserinfo ? '(?:[^/?#@]*@)?' : ''}${globSource(text.slice(end + 3), '.')}`;
}

/** The host alternatives (regex sources) and whole-URL expressions one pattern stands for. */
function sourcesOf(pattern: DomainPattern): { host?: string; url?: string } {
  switch (pattern.kind) {
    case 'host':
      return { host: `${pattern.withWww ? '(?:www\\.)?' : ''}${escape(pattern.host)}` };
    case 'subdomains':
      return { host: `(?:[^/?#@:]*\\.)?${escape(pattern.base)}` };
    case 'url': {
      // A WebSocket is judged as its http(s) twin: https://host covers wss://host, http://host ws://host.
      const scheme = TWIN_SCHEMES[pattern.protocol];
      if (scheme === undefined) {
        return {};
      }
      const port = pattern.port === '' ? '(?::[0-9]+)?' : `:${pattern.port}`;
      const path = pattern.path === '/' ? '/' : `${escape(pattern.path.replace(/\/$/, ''))}(?:[/?#]|$)`;
      return { url: `^${scheme}://(?:[^/?#@]*@)?${escape(pattern.host)}\\.?${port}${path}` };
    }
    case 'glob':
      if (pattern.against === 'host') {
        return { host: globSource(pattern.text, '[^/?#@:]') };
      }
      // Against scheme://host the policy leaves userinfo and the port out; against the URL, nothing.
      return pattern.against === 'origin'
        ? { url: `^${twinSchemeGlob(pattern.text, true)}(?::[0-9]+)?(?:[/?#]|$)` }
        : { url: `^${twinSchemeGlob(pattern.text, false)}` };
  }
}

function rulesFor(patterns: readonly string[], priority: number, action: WebSocketRule['action']): WebSocketRule[] {
  const hosts: string[] = [];
  const rules: WebSocketRule[] = [];
  for (const source of patterns) {
    const parsed = parseDomainPattern(source);
    // The config refuses malformed patterns; one here could only be skipped, as the policy does.
    if (!parsed.ok) {
      continue;
    }
    const { host, url } = sourcesOf(parsed.pattern);
    if (host !== undefined) {
      hosts.push(host);
    }
    if (url !== undefined) {
      rules.push({ priority, action, regexFilter: url });
    }
  }
  for (let i = 0; i < hosts.length; i += HOSTS_PER_RULE) {
    const group = hosts.slice(i, i + HOSTS_PER_RULE).join('|');
    rules.push({ priority, action, regexFilter: `${START}(?:${group})${END}` });
  }
  return rules;
}

/** The ordered rules for a policy; none when it has no host rule. */
export function webSocketRules(config: PolicyConfig): WebSocketRule[] {
  const rules = rulesFor(config.prohibited_domains, PRIORITY_REFUSED, 'block');
  if (config.block_ip_addresses) {
    // The parser's canonical forms: dotted-quad IPv4, bracketed IPv6; and the names Chromium maps to loopback.
    rules.push({
      priority: PRIORITY_REFUSED,
      action: 'block',
      regexFilter: `${START}(?:[0-9]{1,3}(?:\\.[0-9]{1,3}){3}|\\[[0-9a-f:.]*\\]|(?:[^/?#@:]*\\.)?localhost)${END}`,
    });
  }
  if (config.allowed_domains.length > 0) {
    rules.push(...rulesFor(config.allowed_domains, PRIORITY_ALLOWED, 'allow'));
    rules.push({ priority: PRIORITY_OUTSIDE, action: 'block', regexFilter: '^(?:wss?|https?)://' });
  }
  return rules;
}

/** A declarativeNetRequest session rule of the URL policy (chrome.declarativeNetRequest.Rule's shape). */
export interface PolicySessionRule {
  id: number;
  priority: number;
  action: { type: WebSocketRule['action'] };
  condition: {
    regexFilter: string;
    resourceTypes: Array<'websocket' | 'main_frame'>;
    tabIds?: number[];
    excludedTabIds?: number[];
    excludedInitiatorDomains?: string[];
  };
}

type RuleCondition = Omit<PolicySessionRule['condition'], 'regexFilter'>;

function sessionRules(config: PolicyConfig, condition: RuleCondition, firstId: number): PolicySessionRule[] {
  return webSocketRules(config).map((rule, index) => ({
    id: firstId + index,
    priority: rule.priority,
    action: { type: rule.action },
    condition: { regexFilter: rule.regexFilter, ...condition },
  }));
}

/**
 * The policy's WebSocket rules as declarativeNetRequest session rules, numbered from 1, for these tabs only
 * (the extension, where the person's other tabs stay untouched) or for the whole browser (none given: a
 * browser tabpilot launched holds only its own tabs).
 */
export function webSocketSessionRules(config: PolicyConfig, tabIds?: readonly number[]): PolicySessionRule[] {
  return sessionRules(
    config,
    { resourceTypes: ['websocket'], ...(tabIds === undefined ? {} : { tabIds: [...tabIds] }) },
    1,
  );
}

/** Which new tabs' first documents the opened-tab rules leave alone. */
export interface OpenedTabScope {
  /** The tabs known to be the person's or controlled (CDP's Fetch domain holds the controlled ones). */
  settledTabIds: readonly number[];
  /** The hosts of the person's own pages: a tab one of them opens is the person's. */
  personHosts: readonly string[];
}

/**
 * The same rules for the top-level documents of a tab a controlled tab opens (window.open, a target=_blank
 * link), which chrome.debugger can attach only after Chrome created the tab and its first request left:
 * they cover every tab but the settled ones and -1 (requests of no tab), that is a tab so new that tabpilot
 * has not heard of it yet, unless a page on one of the person's hosts opened it. The URL policy judges a
 * document's http(s) URL as it judges a WebSocket's twin, so these are the WebSocket rules over another
 * resource type. Numbered from `firstId`.
 */
export function openedTabSessionRules(
  config: PolicyConfig,
  scope: OpenedTabScope,
  firstId: number,
): PolicySessionRule[] {
  return sessionRules(
    config,
    {
      resourceTypes: ['main_frame'],
      excludedTabIds: [-1, ...scope.settledTabIds],
      ...(scope.personHosts.length === 0 ? {} : { excludedInitiatorDomains: [...scope.personHosts] }),
    },
    firstId,
  );
}
