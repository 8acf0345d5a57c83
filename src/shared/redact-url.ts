/**
 * A URL as it may be shown in logs, events and error messages: pool endpoints carry credentials in the
 * query string (`?token=...`, `?apiKey=...`) or the user info, so every query value and any password are
 * masked. The parameter names and the rest of the URL stay, so the reader still sees which endpoint it is.
 */
export function redactUrl(url: string): string {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    // Not a URL: it carries no query string to mask, but it may still be a secret pasted by mistake.
    return url.includes('?') ? `${url.slice(0, url.indexOf('?'))}?***` : url;
  }
  if (parsed.password !== '') {
    parsed.password = '***';
  }
  const names = parsed.search
    .slice(1)
    .split('&')
    .filter((pair) => pair !== '')
    .map((pair) => pair.split('=')[0] ?? '');
  if (names.length === 0) {
    return parsed.toString();
  }
  parsed.search = [...new Set(names)].map((name) => `${name}=***`).join('&');
  return parsed.toString();
}
