import browser from 'webextension-polyfill';
import { SHARED_WATCHDOGS } from '../../browser/watchdogs/index';
import { defaultConfig } from '../../browser/config';
import { AgentFocusChangedEvent } from '../../browser/events/tabs.events';
import { BrowserStoppedEvent } from '../../browser/events/lifecycle.events';
import { BrowserSession } from '../../browser/session';
import { activeTabOfWindow } from '../../platform/extension/attach-window';
import { createDownloadsArtifactFiles } from '../../platform/extension/artifact-files';
import { createChromeHost } from '../../platform/extension/chrome-host';
import { createChromeDownloadHost, OwnDownloadNames } from '../../platform/extension/download-host';
import { createDownloadsFileSaver } from '../../platform/extension/file-saver';
import { DebuggerTransport } from '../../platform/extension/debugger-transport';
import { emergencyStop } from '../../platform/extension/emergency-stop';
import { PanelHub } from '../../platform/extension/panel-hub';
import { servePanelPorts } from '../../platform/extension/panel-port';
import { readPanelStatus } from '../../platform/extension/panel-status';
import { createSessionSaver, loadSession } from '../../platform/extension/persistence';
import { realChromeApi, storageArea } from '../../platform/extension/real-chrome';
import { secretsOf } from '../../platform/extension/redact';
import { SettingsStore } from '../../platform/extension/settings-store';
import { TabRouter, type TabRouterHooks } from '../../platform/extension/tab-router';
import { TimelineRecorder } from '../../platform/extension/timeline-recorder';
import { consoleSink, createLogger } from '../../shared/logger';
import { CommandServer } from '../../tools/command-server';
import { createDefaultRegistry } from '../../tools/default-actions';

// The service worker's composition root. Listeners are registered synchronously at the top level, as
// MV3 requires for events to wake a stopped worker; the asynchronous resume follows. No keep-alive:
// an attached debugger keeps the worker up, and with nothing attached Chrome may stop it at any time.
const log = createLogger(consoleSink, { level: 'info', namespace: 'tabpilot' });
const chromeApi = realChromeApi();
const EMERGENCY_STOP_COMMAND = 'emergency-stop';

// The router's hooks need the session, and the session needs the router: the hooks are bound below.
const routerHooks: TabRouterHooks = {};
const router = new TabRouter(chromeApi, routerHooks, log.child('router'));
router.install();

// The names tabpilot's own saves ask chrome.downloads for, kept for the download placement's listener.
const ownDownloads = new OwnDownloadNames();
const downloadsApi = ownDownloads.wrap(chrome.downloads);
const session = new BrowserSession({
  config: defaultConfig(),
  endpoint: 'chrome.debugger',
  openTransport: () => Promise.resolve(new DebuggerTransport(router)),
  host: {
    ...createChromeHost(chromeApi, router, createDownloadsFileSaver(downloadsApi)),
    artifacts: createDownloadsArtifactFiles(downloadsApi, storageArea('local'), log.child('artifacts')),
    downloads: createChromeDownloadHost(chrome.downloads, ownDownloads, chrome.runtime.id, log.child('downloads')),
  },
  logger: log,
  watchdogs: [...SHARED_WATCHDOGS],
  name: 'extension',
});
const settings = new SettingsStore(storageArea('local'), (config) => session.applyConfig(config));
const secrets = (): ReturnType<typeof secretsOf> => secretsOf(settings.config.sensitive_data);
const timeline = new TimelineRecorder({ store: storageArea('session'), secrets, log: log.child('timeline') });
session.bus.observe(timeline.observer);
const server = new CommandServer(session, createDefaultRegistry(), log.child('commands'));
const hub = new PanelHub(
  () =>
    readPanelStatus({
      controlled: () => router.controlled(),
      userCancelled: () => router.userCancelled,
      focusedTargetId: () => session.targets.focusedTargetId,
      tabIdOf: (targetId) => session.tabIdOf(targetId),
      page: (targetId) => session.targets.target(targetId),
      // A tab that closed a moment ago is shown without its window; the router drops it next.
      chromeTab: (tabId) => chromeApi.tabs.get(tabId).catch(() => undefined),
    }),
  log.child('panels'),
);

const saveSession = createSessionSaver(
  chromeApi,
  () => ({ tabs: router.snapshot(), focus_target_id: session.targets.focusedTargetId ?? null }),
  (error) => log.warn('could not persist the session', { error: String(error) }),
);
routerHooks.onChange = () => {
  saveSession();
  hub.statusChanged();
};
routerHooks.onUserCancel = () => {
  timeline.note(
    'warn',
    'You pressed Cancel on the debugging bar: tabpilot let go of every tab and will not attach again until you press Attach.',
    'browser',
  );
  session.bus.emit(BrowserStoppedEvent, { reason: 'canceled_by_user' }, { source: 'browser' });
  hub.statusChanged();
};
session.bus.observe(({ phase, record }) => {
  if (phase === 'completed') {
    hub.statusChanged();
    if (record.event.type === AgentFocusChangedEvent.type) {
      saveSession();
    }
  }
});
browser.tabs.onUpdated.addListener(() => hub.statusChanged());
timeline.onUpdate((update) => hub.broadcast({ type: 'timeline', ...update }));

const ready = (async () => {
  const [restored, loaded] = await Promise.all([timeline.restore(), settings.load()]);
  timeline.note(
    'info',
    restored > 0 ? 'Extension worker restarted; earlier events restored.' : 'Extension worker started.',
  );
  if (!loaded.ok) {
    timeline.note('error', `Saved settings were refused (${loaded.error.message}); running with the defaults.`);
  }
  const saved = await loadSession(chromeApi);
  if (saved !== undefined) {
    await router.resume(saved.tabs);
  }
  await session.start();
  const focus = saved?.focus_target_id;
  if (focus !== null && focus !== undefined && session.targets.sessionFor(focus) !== undefined) {
    session.targets.setFocus(focus);
  }
  log.info('ready', { tabs: router.controlled().length });
})();
ready.catch((error: unknown) => log.error('start-up failed', { error: String(error) }));

servePanelPorts(browser.runtime, {
  server,
  ready,
  hub,
  timeline,
  settings,
  secrets,
  attachWindow: (windowId) => activeTabOfWindow(chromeApi, windowId, (targetId) => session.tabIdOf(targetId)),
  controlledCount: () => router.controlled().length,
  log: log.child('panel-port'),
});

// The keyboard emergency stop (manifest `commands`); it works with the panel closed too.
const keyboardClient = server.connect({ id: 'keyboard', kind: 'panel' }, { send: () => undefined });
chrome.commands.onCommand.addListener((command) => {
  if (command !== EMERGENCY_STOP_COMMAND) {
    return;
  }
  void ready
    // A failed start-up is logged above; the stop must run all the same.
    .catch(() => undefined)
    .then(() =>
      emergencyStop({
        connection: keyboardClient,
        timeline,
        origin: 'keyboard shortcut',
        controlledCount: () => router.controlled().length,
        id: `keyboard-${Date.now()}`,
      }),
    );
});

chrome.sidePanel.setPanelBehavior({ openPanelOnActionClick: true }).catch((error: unknown) => {
  log.warn('could not make the toolbar button open the side panel', { error: String(error) });
});

// A handle for the worker's DevTools console and the end-to-end tests (which evaluate in the worker).
Object.assign(globalThis, { tabpilot: { session, server, router, ready, timeline, settings, hub } });
