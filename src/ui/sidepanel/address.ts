/**
 * Why a typed address cannot be a web address, or undefined when it can. The worker puts https:// in
 * front of a bare host (example.com/x), so text that is no host at all ("not a url") would be sent as
 * https://not a url: the panel refuses it first and says what it expected.
 */
export function addressProblem(text: string): string | undefined {
  const value = text.trim();
  if (value === '') {
    return undefined;
  }
  if (/^[a-z][a-z0-9+.-]*:/i.test(value)) {
    try {
      new URL(value);
      return undefined;
    } catch {
      return `“${value}” is not a valid address: check it (for example https://example.com/page).`;
    }
  }
  const host = value.split(/[/?#]/, 1)[0] ?? '';
  const hostname = host.replace(/:\d+$/, '');
  const isHost =
    !/\s/.test(value) &&
    (hostname === 'localhost' || /^[\d.]+$/.test(hostname) || /^[a-z0-9-]+(\.[a-z0-9-]+)+$/i.test(hostname));
  return isHost
    ? undefined
    : `“${value}” is not a web address: give a host such as example.com, or a whole URL such as https://example.com.`;
}
