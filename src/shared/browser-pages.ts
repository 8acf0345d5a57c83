/**
 * Pages of the browser itself: chrome:// and its kin, the Chrome Web Store, and extensions' pages.
 * Chrome does not let an extension debug them (platform facts), so over chrome.debugger a tab that shows
 * one cannot be attached, and a controlled tab that goes to one is detached. `ownOrigin` (the
 * extension's own chrome-extension:// origin) is not one of them.
 */
export function isBrowserPage(url: string, ownOrigin?: string): boolean {
  return (
    /^(chrome|edge|brave|devtools|view-source|chrome-untrusted|chrome-search):/i.test(url) ||
    /^https:\/\/chrome(webstore)?\.google\.com\/webstore/i.test(url) ||
    /^https:\/\/chromewebstore\.google\.com/i.test(url) ||
    (/^chrome-extension:\/\//i.test(url) && (ownOrigin === undefined || !url.startsWith(ownOrigin)))
  );
}
