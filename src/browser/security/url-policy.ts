import { isBrowserPage } from '../../shared/browser-pages';
import type { BrowserConfig } from '../config';
import { DomainList, parseDomainPattern, type DomainPattern } from './domain-pattern';
import { isIpLiteral, matchableHost } from './host-name';
import { isLoopbackName, isPrivateAddress } from './private-address';
import { type BLOCK_RULES } from '../../protocol/events/security.events';

export type BlockRule = (typeof BLOCK_RULES)[number];

export type UrlDecision =
  { allowed: true } | { allowed: false; rule: BlockRule; pattern: string | null; reason: string };

/** The config fields that make up the URL policy. */
export const POLICY_FIELDS = [
  'allowed_domains',
  'prohibited_domains',
  'block_ip_addresses',
  'allowed_schemes',
] as const;

export type PolicyConfig = Pick<BrowserConfig, (typeof POLICY_FIELDS)[number]>;

/** Whether a config change touched the URL policy. */
export function changesPolicy(changed: readonly string[]): boolean {
  return changed.some((field) => (POLICY_FIELDS as readonly string[]).includes(field));
}

export interface DecideOptions {
  /** The transport can drive the browser's own pages (false over chrome.debugger). */
  drivesBrowserPages: boolean;
}

/** Always loadable: what a fresh tab shows (about:blank and the new-tab pages), and srcdoc frames. */
const NEW_TAB_PAGES = new Set(['chrome://newtab/', 'chrome://new-tab-page/', 'chrome://new-tab-page']);
const EMPTY_DOCUMENTS = new Set(['blank', 'srcdoc']);
const ALWAYS_ALLOWED_SCHEMES = new Set(['http:', 'https:', 'data:', 'blob:']);
/**
 * Fetch patterns that cover every URL with an IP-literal host: it starts with a digit (IPv4 in its
 * canonical form) or a bracket (IPv6), after the scheme or after userinfo.
 */
const IP_HOLD_PATTERNS = [
  ...[...'0123456789['].flatMap((first) => [`*://${first}*`, `*@${first}*`]),
  // localhost and *.localhost: Chromium answers them with loopback itself.
  '*localhost*',
];
/** Past this many hold patterns every document is held (one pattern) rather than matched against a long list. */
const MAX_HOLD_PATTERNS = 200;

/** Schemes that name a network host, to which the host rules apply. */
const HOST_SCHEMES = new Set(['http:', 'https:', 'ws:', 'wss:', 'ftp:']);

function compile(patterns: readonly string[]): DomainList {
  const parsed: DomainPattern[] = [];
  for (const source of patterns) {
    const result = parseDomainPattern(source);
    // The config refuses malformed patterns at parse time; a stray one here can only be skipped.
    if (result.ok) {
      parsed.push(result.pattern);
    }
  }
  return new DomainList(parsed);
}

function blocked(rule: BlockRule, reason: string, pattern: string | null = null): UrlDecision {
  return { allowed: false, rule, pattern, reason };
}

function shortUrl(url: string): string {
  return url.length > 120 ? `${url.slice(0, 117)}...` : url;
}

/**
 * The URL policy compiled from the config: one decision function for every road (the protocol's
 * navigate, the in-process actor, and each document request the browser is about to send). Pure and
 * synchronous: it costs a URL parse and a few hash lookups.
 */
export class UrlPolicy {
  readonly #allowed: DomainList;
  readonly #prohibited: DomainList;
  readonly #blockIp: boolean;
  readonly #schemes: ReadonlySet<string>;

  constructor(config: PolicyConfig) {
    this.#allowed = compile(config.allowed_domains);
    this.#prohibited = compile(config.prohibited_domains);
    this.#blockIp = config.block_ip_addresses;
    this.#schemes = new Set(config.allowed_schemes.map((scheme) => `${scheme}:`));
  }

  /**
   * Whether a rule can refuse an http(s) page. Only then must the browser hold each document request
   * for a decision; the scheme rules are settled before navigating (Chrome itself keeps web pages off
   * file: and chrome: URLs).
   */
  get restrictsHosts(): boolean {
    return this.#blockIp || this.#allowed.size > 0 || this.#prohibited.size > 0;
  }

  /**
   * The Fetch domain's URL patterns (globs over the whole URL) for the document requests the browser must
   * hold for a decision: a superset of every URL a host rule refuses, so the rest load with no round trip.
   * An allow list has to see everything; a prohibited list and the address rule only URLs that contain a
   * prohibited host (or its glob) or start with an address. Empty when nothing is to be held.
   */
  get holdPatterns(): readonly string[] {
    return this.holdPatternsFor({ resolvesNames: false });
  }

  /**
   * The hold patterns when the platform can resolve host names at request time (Node): then the address
   * rule has to see every request, since any name may resolve to a private address.
   */
  holdPatternsFor(options: { resolvesNames: boolean }): readonly string[] {
    if (!this.restrictsHosts) {
      return [];
    }
    if (options.resolvesNames && this.#blockIp) {
      return ['*'];
    }
    const prohibited = this.#prohibited.hostTexts();
    if (this.#allowed.size > 0 || prohibited === undefined) {
      return ['*'];
    }
    const patterns = new Set(prohibited.map((text) => `*${text}*`.replace(/\*+/g, '*')));
    if (this.#blockIp) {
      for (const pattern of IP_HOLD_PATTERNS) {
        patterns.add(pattern);
      }
    }
    return patterns.size > MAX_HOLD_PATTERNS ? ['*'] : [...patterns];
  }

  /**
   * The host name to resolve before letting an allowed request go, when block_ip_addresses is on and the
   * URL names its host (an IP literal or a loopback name was already judged by `decide`).
   */
  nameToResolve(url: string): string | undefined {
    if (!this.#blockIp) {
      return undefined;
    }
    let parsed: URL;
    try {
      parsed = new URL(url);
    } catch {
      // decide refused it already; nothing to resolve.
      return undefined;
    }
    const host = matchableHost(parsed.hostname);
    if (!HOST_SCHEMES.has(parsed.protocol) || host === '' || isIpLiteral(host)) {
      return undefined;
    }
    return host;
  }

  /** The decision for a host name that resolved to `addresses`: refused when one is private or loopback. */
  decideAddresses(url: string, host: string, addresses: readonly string[]): UrlDecision {
    const inside = addresses.find((address) => isPrivateAddress(address));
    if (!this.#blockIp || inside === undefined) {
      return { allowed: true };
    }
    return blocked(
      'block_ip_addresses',
      `${host} resolves to ${inside}, a private or loopback address, which block_ip_addresses refuses (${shortUrl(url)})`,
      inside,
    );
  }

  decide(url: string, options: DecideOptions): UrlDecision {
    let parsed: URL;
    try {
      parsed = new URL(url);
    } catch {
      // Unparsable: with host rules in force it cannot be checked, so it is refused; without them the
      // browser refuses it itself (Page.navigate: "Cannot navigate to invalid URL").
      return this.restrictsHosts
        ? blocked('invalid_url', `${shortUrl(url)} is not a URL the policy can check`)
        : { allowed: true };
    }
    if (parsed.protocol === 'javascript:') {
      return blocked(
        'javascript',
        'javascript: URLs are never loaded (navigate would run them in the page: that is evaluate, which allow_evaluate controls)',
      );
    }
    if (!options.drivesBrowserPages && isBrowserPage(parsed.href)) {
      return blocked(
        'browser_page',
        `${parsed.href.split('?')[0]} is a browser or extension page: Chrome does not let an extension control those, so the tab would be lost`,
      );
    }
    if ((parsed.protocol === 'about:' && EMPTY_DOCUMENTS.has(parsed.pathname)) || NEW_TAB_PAGES.has(parsed.href)) {
      return { allowed: true };
    }
    if (!ALWAYS_ALLOWED_SCHEMES.has(parsed.protocol) && !this.#schemes.has(parsed.protocol)) {
      return blocked(
        'allowed_schemes',
        `${parsed.protocol} URLs are blocked unless allowed_schemes lists "${parsed.protocol.slice(0, -1)}"`,
        parsed.protocol,
      );
    }
    if (parsed.protocol === 'view-source:') {
      // The source view loads the inner URL: it answers to the same rules.
      return this.decide(parsed.href.slice('view-source:'.length), options);
    }
    if (!HOST_SCHEMES.has(parsed.protocol) || parsed.hostname === '') {
      return { allowed: true };
    }
    return this.#decideHost(parsed);
  }

  #decideHost(url: URL): UrlDecision {
    const host = matchableHost(url.hostname);
    if (this.#blockIp && isIpLiteral(host)) {
      return blocked(
        'block_ip_addresses',
        `${shortUrl(url.href)} is addressed by an IP literal (${host}), which block_ip_addresses refuses`,
        host,
      );
    }
    if (this.#blockIp && isLoopbackName(host)) {
      return blocked(
        'block_ip_addresses',
        `${host} always resolves to a loopback address (Chromium answers *.localhost itself), which block_ip_addresses refuses`,
        host,
      );
    }
    if (this.#allowed.size > 0 && this.#allowed.match(url, host) === undefined) {
      return blocked('allowed_domains', `${host} is not in allowed_domains`);
    }
    const prohibited = this.#prohibited.size > 0 ? this.#prohibited.match(url, host) : undefined;
    if (prohibited !== undefined) {
      return blocked('prohibited_domains', `${host} is in prohibited_domains ("${prohibited}")`, prohibited);
    }
    return { allowed: true };
  }
}
