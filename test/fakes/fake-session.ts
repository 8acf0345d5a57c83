import { BrowserSession } from '../../src/browser/session';
import { defaultBrowserConfig, type BrowserConfig } from '../../src/browser/config';
import type { AnyWatchdog } from '../../src/browser/define-watchdog';
import type { BrowserHost } from '../../src/browser/host';
import { navigationWatchdog } from '../../src/browser/watchdogs/navigation.watchdog';
import { tabsWatchdog } from '../../src/browser/watchdogs/tabs.watchdog';
import { FakeBrowser } from './fake-browser';

/**
 * A BrowserSession over a FakeBrowser, started, for unit tests of handlers and watchdogs. Unless told
 * otherwise it has the navigation and tabs watchdogs, so the session can move and switch tabs.
 */
export async function startedFakeSession(
  options: {
    browser?: FakeBrowser;
    config?: Partial<BrowserConfig>;
    watchdogs?: AnyWatchdog[];
    host?: BrowserHost;
  } = {},
): Promise<{ session: BrowserSession; browser: FakeBrowser }> {
  const browser = options.browser ?? new FakeBrowser();
  let first = true;
  const session = new BrowserSession({
    config: { ...defaultBrowserConfig(), ...options.config },
    endpoint: 'ws://fake/devtools/browser',
    openTransport: async () => {
      if (first) {
        first = false;
        return browser.transport;
      }
      return browser.reopen();
    },
    host: options.host ?? { tabControl: undefined },
    watchdogs: options.watchdogs ?? [navigationWatchdog, tabsWatchdog],
  });
  await session.start();
  return { session, browser };
}
