/**
 * Pages of the browser itself: chrome:// and its kin, the Chrome Web Store, and extensions' pages
 * (tabpilot's own included). Chrome does not let an extension debug them, so over
 * chrome.debugger a tab that shows one cannot be attached, and a controlled tab that goes to one is
 * detached. Its own pages it could debug, but tabpilot refuses to control those too.
 */
export function isBrowserPage(url: string): boolean {
  return (
    /^(chrome|edge|brave|devtools|view-source|chrome-untrusted|chrome-search):/i.test(url) ||
    /^https:\/\/chrome(webstore)?\.google\.com\/webstore/i.test(url) ||
    /^https:\/\/chromewebstore\.google\.com/i.test(url) ||
    /^chrome-extension:\/\//i.test(url)
  );
}
