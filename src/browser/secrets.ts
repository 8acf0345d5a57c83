import { TabpilotError } from '../shared/errors';

/**
 * Secrets from the config's `sensitive_data` (`{domain_pattern: {name: value}}`), written by clients as
 * `<secret>name</secret>` and filled in only at the moment of typing, only on a page whose URL matches
 * the pattern. Values never appear in messages: errors name the secret, never its value.
 */

export type SensitiveData = Readonly<Record<string, Readonly<Record<string, string>>>>;

const PLACEHOLDER = /<secret>([^<]*)<\/secret>/g;
const NEW_TAB_PAGES = new Set([
  'about:blank',
  'chrome://new-tab-page/',
  'chrome://new-tab-page',
  'chrome://newtab/',
  'chrome://newtab',
]);

/** fnmatch as browser-use uses it: `*` any run, `?` one character, nothing else special. */
function globMatch(value: string, pattern: string): boolean {
  const source = pattern
    .replace(/[.+^${}()|[\]\\]/g, '\\$&')
    .replace(/\*/g, '.*')
    .replace(/\?/g, '.');
  return new RegExp(`^${source}$`).test(value);
}

/** Patterns that would match too much are refused: several wildcards, a wildcard TLD, one inside a label. */
function isSafeWildcard(domain: string): boolean {
  if ((domain.match(/\*\./g) ?? []).length > 1 || (domain.match(/\.\*/g) ?? []).length > 1) {
    return false;
  }
  if (domain.endsWith('.*')) {
    return false;
  }
  return !domain.replaceAll('*.', '').includes('*');
}

/**
 * browser-use's domain matching: `*.example.com` matches example.com and every subdomain, a bare host
 * only itself, `*` every host; a pattern with a scheme (`http*://host`, `chrome-extension://*`) matches
 * that scheme, one without matches http and https pages. The port in a pattern is ignored. New-tab pages
 * match nothing.
 */
export function matchUrlWithDomainPattern(url: string, pattern: string): boolean {
  if (NEW_TAB_PAGES.has(url)) {
    return false;
  }
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    // Not a URL at all: nothing to match.
    return false;
  }
  const scheme = parsed.protocol.replace(/:$/, '').toLowerCase();
  const host = parsed.hostname.toLowerCase();
  if (scheme === '' || host === '') {
    return false;
  }
  const lower = pattern.toLowerCase();
  const separator = lower.indexOf('://');
  const patternScheme = separator < 0 ? null : lower.slice(0, separator);
  const rest = separator < 0 ? lower : lower.slice(separator + 3);
  const domain = rest.startsWith(':') ? rest : (rest.split(':')[0] ?? rest);
  const schemeMatches =
    patternScheme === null ? scheme === 'http' || scheme === 'https' : globMatch(scheme, patternScheme);
  if (!schemeMatches) {
    return false;
  }
  if (domain === '*' || host === domain) {
    return true;
  }
  if (!domain.includes('*') || !isSafeWildcard(domain)) {
    return false;
  }
  if (domain.startsWith('*.') && host === domain.slice(2)) {
    return true;
  }
  return globMatch(host, domain);
}

/** The names of the secrets a text refers to, in order of first use. */
export function secretNames(text: string): string[] {
  return [...new Set(Array.from(text.matchAll(PLACEHOLDER), (match) => match[1] ?? ''))];
}

export function hasSecrets(text: string): boolean {
  return secretNames(text).length > 0;
}

/**
 * Replaces every `<secret>name</secret>` with its value for `url`. Unknown names fail with
 * INVALID_PARAMS, names not allowed on this page with FORBIDDEN; both name the secret only.
 */
export function fillSecrets(text: string, url: string, sensitiveData: SensitiveData): string {
  const names = secretNames(text);
  if (names.length === 0) {
    return text;
  }
  const available = new Map<string, string>();
  const known = new Set<string>();
  for (const [pattern, secrets] of Object.entries(sensitiveData)) {
    const applies = matchUrlWithDomainPattern(url, pattern);
    for (const [name, value] of Object.entries(secrets)) {
      known.add(name);
      if (applies && !available.has(name)) {
        available.set(name, value);
      }
    }
  }
  for (const name of names) {
    if (!known.has(name)) {
      throw new TabpilotError('INVALID_PARAMS', `No secret named "${name}" in the config's sensitive_data`, {
        details: { secret: name },
      });
    }
    if (!available.has(name)) {
      throw new TabpilotError(
        'FORBIDDEN',
        `Secret "${name}" is not allowed on ${originOf(url)}: its domain pattern does not match this page`,
        { details: { secret: name } },
      );
    }
  }
  return text.replace(PLACEHOLDER, (_match, name: string) => available.get(name) ?? '');
}

function originOf(url: string): string {
  try {
    return new URL(url).origin;
  } catch {
    // Not parseable: show it as it is (a URL is not a secret).
    return url;
  }
}
