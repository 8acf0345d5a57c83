import { canonicalHost, matchableHost } from './host-name';

/**
 * One entry of `allowed_domains` / `prohibited_domains`, parsed once. The forms, as browser-use reads
 * them (with two of its holes closed, see `url`):
 * - `example.com`: that host; a root domain (one dot) also covers `www.example.com`;
 * - `*.example.com`: example.com itself and every subdomain;
 * - `https://example.com/app`: that scheme and host (and port when given), and paths under `/app` on a
 *   segment boundary (browser-use compares string prefixes, so `https://example.com` also let
 *   `https://example.com.evil.com` through, and `/app` let `/apple`);
 * - any other `*` glob: against the host, or, when it has `://`, against `scheme://host` (or the whole URL
 *   when it has a path). `*` matches any run of characters, dots included.
 * Hosts are compared in their canonical form (lower case, punycode, no trailing dot).
 */
export type DomainPattern =
  | { kind: 'host'; source: string; host: string; withWww: boolean }
  | { kind: 'subdomains'; source: string; base: string }
  | { kind: 'url'; source: string; protocol: string; host: string; port: string; path: string }
  | { kind: 'glob'; source: string; text: string; regex: RegExp; against: 'host' | 'origin' | 'url' };

export type ParsedPattern = { ok: true; pattern: DomainPattern } | { ok: false; error: string };

const GLOB_LABEL = /^[a-z0-9_*-]+$/;
const SCHEME_GLOB = /^[a-z*][a-z0-9+.*-]*$/;

/** A canonical host fit to be a rule: no empty label (a single trailing dot is the FQDN form). */
function isHostName(host: string): boolean {
  const name = matchableHost(host);
  return name !== '' && (name.startsWith('[') || !name.split('.').includes(''));
}

function globRegex(text: string): RegExp {
  const escaped = text.replace(/[.+?^${}()|[\]\\/]/g, '\\$&').replace(/\*/g, '.*');
  return new RegExp(`^${escaped}$`);
}

function parseUrlPattern(source: string, text: string): ParsedPattern {
  const schemeEnd = text.indexOf('://');
  const scheme = text.slice(0, schemeEnd);
  const rest = text.slice(schemeEnd + 3);
  if (!SCHEME_GLOB.test(scheme)) {
    return { ok: false, error: `"${source}": "${scheme}" is not a URL scheme` };
  }
  if (text.includes('*')) {
    // Validate by the shape the glob stands for: every * replaced by a letter must be a URL.
    try {
      new URL(text.replace(/\*/g, 'a'));
    } catch {
      return { ok: false, error: `"${source}" is not a URL pattern` };
    }
    return {
      ok: true,
      pattern: { kind: 'glob', source, text, regex: globRegex(text), against: rest.includes('/') ? 'url' : 'origin' },
    };
  }
  let parsed: URL;
  try {
    parsed = new URL(text);
  } catch {
    return { ok: false, error: `"${source}" is not a URL` };
  }
  if (parsed.hostname === '') {
    return { ok: false, error: `"${source}" names no host` };
  }
  if (parsed.search !== '' || parsed.hash !== '' || parsed.username !== '' || parsed.password !== '') {
    return { ok: false, error: `"${source}": a URL pattern is a scheme, a host, an optional port and a path` };
  }
  return {
    ok: true,
    pattern: {
      kind: 'url',
      source,
      protocol: parsed.protocol,
      host: matchableHost(parsed.hostname),
      port: parsed.port,
      path: parsed.pathname,
    },
  };
}

function parseHostGlob(source: string, text: string): ParsedPattern {
  const labels = text.split('.');
  const canonical: string[] = [];
  for (const label of labels) {
    if (label === '') {
      return { ok: false, error: `"${source}" has an empty label` };
    }
    if (label.includes('*')) {
      if (!GLOB_LABEL.test(label)) {
        return { ok: false, error: `"${source}": "${label}" is not a host label` };
      }
      canonical.push(label);
      continue;
    }
    const host = canonicalHost(label);
    if (host === undefined) {
      return { ok: false, error: `"${source}": "${label}" is not a host label` };
    }
    canonical.push(host);
  }
  const host = canonical.join('.');
  return { ok: true, pattern: { kind: 'glob', source, text: host, regex: globRegex(host), against: 'host' } };
}

/** Parses one pattern; the error says what is wrong with it (the config names the field). */
export function parseDomainPattern(source: string): ParsedPattern {
  if (source === '') {
    return { ok: false, error: 'an empty pattern' };
  }
  if (/\s/.test(source)) {
    return { ok: false, error: `"${source}" contains white space` };
  }
  const text = source.toLowerCase();
  if (text.includes('://')) {
    return parseUrlPattern(source, text);
  }
  if (/[/?#@\\]/.test(text) || /:\d*$/.test(text)) {
    return {
      ok: false,
      error: `"${source}" is not a host name: a pattern with a port or a path needs its scheme (https://host:port/path)`,
    };
  }
  if (text.startsWith('*.') && !text.slice(2).includes('*')) {
    const base = canonicalHost(text.slice(2));
    if (base === undefined || !isHostName(base)) {
      return { ok: false, error: `"${source}": "${text.slice(2)}" is not a host name` };
    }
    return { ok: true, pattern: { kind: 'subdomains', source, base: matchableHost(base) } };
  }
  if (text.includes('*')) {
    return parseHostGlob(source, text);
  }
  const host = canonicalHost(text);
  if (host === undefined || !isHostName(host)) {
    return { ok: false, error: `"${source}" is not a host name` };
  }
  const name = matchableHost(host);
  const rootDomain = name.split('.').length === 2 && !name.startsWith('[');
  return { ok: true, pattern: { kind: 'host', source, host: name, withWww: rootDomain } };
}

function pathCovers(patternPath: string, path: string): boolean {
  if (patternPath === '/' || path === patternPath) {
    return true;
  }
  const prefix = patternPath.endsWith('/') ? patternPath : `${patternPath}/`;
  return path.startsWith(prefix);
}

function matchesPattern(pattern: DomainPattern, url: URL, host: string): boolean {
  switch (pattern.kind) {
    case 'host':
      return host === pattern.host || (pattern.withWww && host === `www.${pattern.host}`);
    case 'subdomains':
      return host === pattern.base || host.endsWith(`.${pattern.base}`);
    case 'url':
      return (
        url.protocol === pattern.protocol &&
        host === pattern.host &&
        (pattern.port === '' || url.port === pattern.port) &&
        pathCovers(pattern.path, url.pathname)
      );
    case 'glob': {
      const subject =
        pattern.against === 'host' ? host : pattern.against === 'origin' ? `${url.protocol}//${host}` : url.href;
      return pattern.regex.test(subject);
    }
  }
}

/**
 * A compiled list. Exact names and `*.domain` bases sit in hash sets (a lookup per label of the host, so a
 * list of thousands costs what a list of three does; browser-use turned lists of 100 or more into sets and
 * silently dropped their patterns); URL patterns and globs are tried in order.
 */
export class DomainList {
  readonly size: number;
  readonly #exact = new Map<string, string>();
  readonly #subdomains = new Map<string, string>();
  readonly #others: DomainPattern[] = [];
  readonly #patterns: readonly DomainPattern[];

  constructor(patterns: readonly DomainPattern[]) {
    this.size = patterns.length;
    this.#patterns = patterns;
    for (const pattern of patterns) {
      if (pattern.kind === 'host') {
        this.#exact.set(pattern.host, pattern.source);
        if (pattern.withWww && !this.#exact.has(`www.${pattern.host}`)) {
          this.#exact.set(`www.${pattern.host}`, pattern.source);
        }
      } else if (pattern.kind === 'subdomains') {
        this.#subdomains.set(pattern.base, pattern.source);
      } else {
        this.#others.push(pattern);
      }
    }
  }

  /**
   * Text every URL this list covers contains: its host, or its host glob (a URL whose host matches
   * `ads.*` contains a run that matches it). Undefined when a pattern has no such text (a glob over
   * `scheme://host` or the whole URL).
   */
  hostTexts(): string[] | undefined {
    const texts: string[] = [];
    for (const pattern of this.#patterns) {
      switch (pattern.kind) {
        case 'host':
          texts.push(pattern.host);
          break;
        case 'subdomains':
          texts.push(pattern.base);
          break;
        case 'url':
          texts.push(pattern.host);
          break;
        case 'glob':
          if (pattern.against !== 'host') {
            return undefined;
          }
          texts.push(pattern.text);
          break;
      }
    }
    return texts;
  }

  /** The source of the first pattern that covers the URL (host already made matchable), if any. */
  match(url: URL, host: string): string | undefined {
    const exact = this.#exact.get(host);
    if (exact !== undefined) {
      return exact;
    }
    if (this.#subdomains.size > 0) {
      let suffix = host;
      for (;;) {
        const hit = this.#subdomains.get(suffix);
        if (hit !== undefined) {
          return hit;
        }
        const dot = suffix.indexOf('.');
        if (dot < 0) {
          break;
        }
        suffix = suffix.slice(dot + 1);
      }
    }
    return this.#others.find((pattern) => matchesPattern(pattern, url, host))?.source;
  }
}
