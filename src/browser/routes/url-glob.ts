/**
 * A URL glob as CDP's Fetch.RequestPattern.urlPattern reads it: `*` matches any run of characters (none
 * too), `?` exactly one, and a backslash makes the next character literal. The whole URL must match, as
 * Chrome matches it (a route's request pauses only where Chrome's match says so; this one then picks the
 * route, so the two must agree).
 */
export function globMatcher(pattern: string): (url: string) => boolean {
  let source = '';
  for (let at = 0; at < pattern.length; at++) {
    const char = pattern.charAt(at);
    if (char === '\\' && at + 1 < pattern.length) {
      at++;
      source += escapeRegExp(pattern.charAt(at));
    } else if (char === '*') {
      source += '.*';
    } else if (char === '?') {
      source += '.';
    } else {
      source += escapeRegExp(char);
    }
  }
  const expression = new RegExp(`^${source}$`, 's');
  return (url) => expression.test(url);
}

function escapeRegExp(char: string): string {
  return /[.*+?^${}()|[\]\\/]/.test(char) ? `\\${char}` : char;
}
