import browser from 'webextension-polyfill';
import { defaultConfig } from '../../browser/config';
import { AgentFocusChangedEvent } from '../../browser/events/tabs.events';
import { BrowserStoppedEvent } from '../../browser/events/lifecycle.events';
import { BrowserSession } from '../../browser/session';
import { createChromeHost } from '../../platform/extension/chrome-host';
import { DebuggerTransport } from '../../platform/extension/debugger-transport';
import { servePanelPorts } from '../../platform/extension/panel-port';
import { createSessionSaver, loadSession } from '../../platform/extension/persistence';
import { realChromeApi } from '../../platform/extension/real-chrome';
import { TabRouter, type TabRouterHooks } from '../../platform/extension/tab-router';
import { consoleSink, createLogger } from '../../shared/logger';
import { CommandServer } from '../../tools/command-server';
import { createDefaultRegistry } from '../../tools/default-actions';

// The service worker's composition root. Listeners are registered synchronously at the top level, as
// MV3 requires for events to wake a stopped worker; the asynchronous resume follows.
const log = createLogger(consoleSink, { level: 'info', namespace: 'tabpilot' });
const chromeApi = realChromeApi();

// The router's hooks need the session, and the session needs the router: the hooks are bound below.
const routerHooks: TabRouterHooks = {};
const router = new TabRouter(chromeApi, routerHooks, log.child('router'));
router.install();

const session = new BrowserSession({
  config: defaultConfig(),
  endpoint: 'chrome.debugger',
  openTransport: () => Promise.resolve(new DebuggerTransport(router)),
  host: createChromeHost(chromeApi, router),
  logger: log,
  watchdogs: [],
  name: 'extension',
});
const saveSession = createSessionSaver(
  chromeApi,
  () => ({ tabs: router.snapshot(), focus_target_id: session.cdp.focusedTargetId ?? null }),
  (error) => log.warn('could not persist the session', { error: String(error) }),
);
routerHooks.onChange = saveSession;
routerHooks.onUserCancel = () => {
  session.bus.emit(BrowserStoppedEvent, { reason: 'canceled_by_user' }, { source: 'browser' });
};
session.bus.observe(({ phase, record }) => {
  if (phase === 'completed' && record.event.type === AgentFocusChangedEvent.type) {
    saveSession();
  }
});
const server = new CommandServer(session, createDefaultRegistry(), log.child('commands'));

const ready = (async () => {
  const saved = await loadSession(chromeApi);
  if (saved !== undefined) {
    await router.resume(saved.tabs);
  }
  await session.start();
  const focus = saved?.focus_target_id;
  if (focus !== null && focus !== undefined && session.cdp.sessionFor(focus) !== undefined) {
    session.cdp.setFocus(focus);
  }
  log.info('ready', { tabs: router.controlled().length });
})();
ready.catch((error: unknown) => log.error('start-up failed', { error: String(error) }));

servePanelPorts({ runtime: browser.runtime, server, ready, log: log.child('panel-port') });

chrome.sidePanel.setPanelBehavior({ openPanelOnActionClick: true }).catch((error: unknown) => {
  log.warn('could not make the toolbar button open the side panel', { error: String(error) });
});

// A handle for the worker's DevTools console and the end-to-end tests (which evaluate in the worker).
Object.assign(globalThis, { tabpilot: { session: session, server, router, ready } });
