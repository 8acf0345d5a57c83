/**
 * Whether a click on an element starts a download by itself, without navigating: a link with a URL to
 * fetch and a `download` attribute, or to a blob: or data: URL. Its Page.downloadWillBegin comes only
 * once the server answers, so the click waits for it (bounded). A link without a URL to fetch (none,
 * javascript:) downloads nothing itself, whatever its attribute says, and is not waited for.
 * `attributes`: the element's attributes as the state shows them (href as a path on its own origin).
 */
export function downloadsItself(tag: string, attributes: Readonly<Record<string, string>>): boolean {
  const href = tag === 'a' ? attributes['href'] : undefined;
  return (
    href !== undefined &&
    !/^javascript:/i.test(href) &&
    (attributes['download'] !== undefined || /^(blob|data):/i.test(href))
  );
}
