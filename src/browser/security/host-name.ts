/**
 * Host names as the browser itself reads them. The WHATWG URL parser (`URL`, in the service worker
 * Chromium's own) does the whole host canonicalisation: percent-decoding, IDNA mapping (full-width and
 * circled digits and letters, the ideographic full stops), lower case, and the IPv4 number forms
 * (decimal, hex, octal, one to four parts) and IPv6 compression. So every spelling of an address comes
 * out as one serialisation, and an IP literal is recognised on that output alone.
 */

const CANONICAL_IPV4 = /^(?:\d{1,3}\.){3}\d{1,3}$/;

/**
 * The host for matching: the parser's hostname with the FQDN's trailing dots dropped (`example.com.`
 * names the same site as `example.com`, and would otherwise slip past a rule).
 */
export function matchableHost(hostname: string): string {
  return hostname.replace(/\.+$/, '');
}

/** Whether a parser-canonical hostname is an IPv4 or IPv6 literal (IPv6 keeps its brackets). */
export function isIpLiteral(hostname: string): boolean {
  const host = matchableHost(hostname);
  return host.startsWith('[') || CANONICAL_IPV4.test(host);
}

/**
 * Canonicalises a bare host as the URL parser would in an http URL: undefined when the parser refuses
 * it, or when the text carries more than a host (a port, a path, userinfo).
 */
export function canonicalHost(text: string): string | undefined {
  let parsed: URL;
  try {
    parsed = new URL(`http://${text}/`);
  } catch {
    // Not a host the browser would accept.
    return undefined;
  }
  if (parsed.port !== '' || parsed.pathname !== '/' || parsed.username !== '' || parsed.password !== '') {
    return undefined;
  }
  if (parsed.search !== '' || parsed.hash !== '' || /[/?#@\\]/.test(text)) {
    return undefined;
  }
  return parsed.hostname;
}
