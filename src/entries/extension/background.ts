import browser from 'webextension-polyfill';
import { watchdogsFor } from '../../browser/watchdogs/index';
import { defaultConfig, SERVED_CONFIG } from '../../agent/tabpilot-config';
import { ungrantable, ungrantableError } from '../../browser/permissions/permission-granter';
import { AgentFocusChangedEvent } from '../../protocol/events/tabs.events';
import { BrowserStoppedEvent } from '../../protocol/events/lifecycle.events';
import { BrowserSession } from '../../browser/session';
import { activeTabOfWindow } from '../../platform/extension/attach-window';
import { createDownloadsArtifactFiles } from '../../platform/extension/artifact-files';
import { createChromeHost } from '../../platform/extension/chrome-host';
import { contentSettingsGranter } from '../../platform/extension/content-settings-granter';
import { createChromeDownloadHost, OwnDownloadNames } from '../../platform/extension/download-host';
import { createDownloadsFileSaver } from '../../platform/extension/file-saver';
import { DebuggerTransport } from '../../platform/extension/debugger-transport';
import { EncoderDocument } from '../../platform/extension/video/encoder-document';
import { createOffscreenVideoPort, realOffscreenVideoApi } from '../../platform/extension/video/offscreen-video-port';
import { liftClientHold } from '../../platform/extension/client-hold';
import { emergencyStop } from '../../platform/extension/emergency-stop';
import { answerInPageStop } from '../../tools/in-page-stop';
import { PanelHub } from '../../platform/extension/panel-hub';
import { PersonQuestions } from '../../platform/extension/person-questions';
import { servePanelPorts } from '../../platform/extension/panel-port';
import { readPanelStatus } from '../../platform/extension/panel-status';
import { showBadge } from '../../platform/extension/toolbar-badge';
import { StopMemory } from '../../platform/extension/stop-memory';
import { createSessionSaver, loadSession } from '../../platform/extension/persistence';
import { realChromeApi, storageArea } from '../../platform/extension/real-chrome';
import { redactingSink, secretsOf, type Secret } from '../../shared/redact';
import { SettingsStore } from '../../platform/extension/settings-store';
import { TabRouter, type TabRouterHooks } from '../../platform/extension/tab-router';
import { NetworkRules } from '../../platform/extension/network-rules';
import { SessionRuleGuard } from '../../platform/extension/session-rule-guard';
import { TimelineRecorder } from '../../platform/extension/timeline-recorder';
import { errorMessageOf } from '../../shared/errors';
import { consoleSink, createLogger } from '../../shared/logger';
import { CommandServer } from '../../tools/command-server';
import { createDefaultRegistry } from '../../tools/actions';
import { AgentKeyStore } from '../../platform/extension/agent/agent-keys';
import { composeAgent } from './agent-composition';
import { composeNativeSide } from './native-composition';

// The service worker's composition root. Listeners are registered synchronously at the top level, as
// MV3 requires for events to wake a stopped worker; the asynchronous resume follows. No keep-alive:
// an attached debugger keeps the worker up, and with nothing attached Chrome may stop it at any time.
// Secrets are known once the settings load; until then there are none to hide.
let logSecrets = (): readonly Secret[] => [];
const log = createLogger(
  redactingSink(consoleSink, () => logSecrets()),
  { level: 'info', namespace: 'tabpilot' },
);
const chromeApi = realChromeApi();
const EMERGENCY_STOP_COMMAND = 'emergency-stop';

// The router's hooks need the session, and the session needs the router: the hooks are bound below.
const routerHooks: TabRouterHooks = {};
const router = new TabRouter(chromeApi, routerHooks, log.child('router'));
router.install();
// Where CDP cannot hold a request (a WebSocket; the first document of a tab a controlled page opens), the URL
// policy holds it in Chrome's network stack.
const networkRules = new NetworkRules({
  guard: new SessionRuleGuard(chrome.declarativeNetRequest, log.child('network-rules')),
  tabs: chrome.tabs,
  controlled: () => router.controlled().map((tab) => tab.tabId),
  config: () => settings.config,
  log: log.child('network-rules'),
});
networkRules
  .install()
  .catch((error: unknown) => log.warn('could not list the tabs there are', { error: errorMessageOf(error) }));

const permissions = contentSettingsGranter(chrome.contentSettings);
// The names tabpilot's own saves ask chrome.downloads for, kept for the download placement's listener.
const ownDownloads = new OwnDownloadNames();
const downloadsApi = ownDownloads.wrap(chrome.downloads);
const videoApi = realOffscreenVideoApi();
const artifacts = createDownloadsArtifactFiles(downloadsApi, storageArea('local'), log.child('artifacts'));
const session = new BrowserSession({
  config: defaultConfig(),
  endpoint: 'chrome.debugger',
  openTransport: () => Promise.resolve(new DebuggerTransport(router)),
  host: {
    ...createChromeHost(
      chromeApi,
      router,
      createDownloadsFileSaver(downloadsApi),
      permissions,
      createOffscreenVideoPort(videoApi, new EncoderDocument(videoApi, log.child('video')), downloadsApi),
    ),
    artifacts,
    downloads: createChromeDownloadHost(chrome.downloads, ownDownloads, chrome.runtime.id, log.child('downloads')),
  },
  logger: log,
  watchdogs: watchdogsFor('extension'),
  name: 'extension',
});
const settings = new SettingsStore(
  storageArea('local'),
  async (config) => {
    try {
      await session.applyConfig(config);
    } finally {
      await networkRules.sync(config);
      // The settings are in force even when a watchdog refused part of them: native clients follow them too.
      native.applySettings();
    }
  },
  (config) => {
    const refused = ungrantable(config.permissions, permissions);
    return refused.length === 0
      ? undefined
      : { field: 'permissions', message: ungrantableError(refused, permissions).message };
  },
);
// The agent's API keys are secrets too: the logs and the timeline never show them.
const agentKeys = new AgentKeyStore(storageArea('local'));
const secrets = (): Secret[] => [...secretsOf(settings.config.sensitive_data), ...agentKeys.secrets()];
logSecrets = secrets;
const timeline = new TimelineRecorder({ store: storageArea('session'), secrets, log: log.child('timeline') });
session.bus.observe(timeline.observer);
const server = new CommandServer(session, createDefaultRegistry(), SERVED_CONFIG, log.child('commands'));
const stops = new StopMemory();
const hub = new PanelHub(
  // The status leaves the session as every answer does, secrets masked: the tab URLs it shows are then
  // the ones results name, which the panel compares to tell a result of the page shown from an old one.
  async () =>
    server.redact(
      await readPanelStatus({
        controlled: () => router.controlled(),
        userCancelled: () => router.userCancelled,
        stopped: () => stops.stopped(router.controlled().length),
        hold: () => router.hold,
        focusedTargetId: () => session.targets.focusedTargetId,
        tabIdOf: (targetId) => session.tabIdOf(targetId),
        page: (targetId) => session.targets.target(targetId),
        status: (targetId) => session.conditions.status(targetId),
        // A tab that closed a moment ago is shown without its window; the router drops it next.
        chromeTab: (tabId) => chromeApi.tabs.get(tabId).catch(() => undefined),
        owner: (targetId) => native.gate.leases.owner(targetId),
      }),
    ),
  log.child('panels'),
);
session.bus.on(
  BrowserStoppedEvent,
  () => {
    stops.noteStopped();
    hub.statusChanged();
  },
  { name: 'background.on_BrowserStoppedEvent' },
);
// What a program asks of the person's powers (their cookies, the traffic) is put to them in the panel.
const questions = new PersonQuestions({
  panels: {
    get size() {
      return hub.size;
    },
    show: (pending) => hub.broadcast(server.redact({ type: 'person_questions', questions: pending })),
  },
  note: (level, text, source) => timeline.note(level, text, source),
});
// Native clients: the tab leases in front of the CommandServer, the port to the native host.
const native = composeNativeSide({ session, server, router, settings, timeline, hub, secrets, questions, log });
composeAgent({ server, config: () => session.config.agent, keys: agentKeys, log: log.child('agent') });

const saveSession = createSessionSaver(
  chromeApi,
  () => ({
    tabs: router.snapshot(),
    focus_target_id: session.targets.focusedTargetId ?? null,
    hold: router.hold ?? null,
  }),
  (error) => log.warn('could not persist the session', { error: String(error) }),
);
routerHooks.onChange = () => {
  saveSession();
  hub.statusChanged();
  void networkRules.sync();
};
// The hold outlives the worker: with nothing attached after a Stop, Chrome may stop the worker at any time.
routerHooks.onHoldChange = () => {
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
// The toolbar button shows the state at a glance: idle, the number of controlled tabs, "!" when a tab needs you.
hub.onStatus((status) => {
  showBadge(chrome.action, status).catch((error: unknown) =>
    log.warn('could not update the toolbar badge', { error: String(error) }),
  );
});
session.conditions.onChange(() => hub.statusChanged());
timeline.onUpdate((update) => hub.broadcast({ type: 'timeline', ...update }));

const ready = (async () => {
  const [restored, loaded] = await Promise.all([timeline.restore(), settings.load(), agentKeys.load()]);
  timeline.note(
    'info',
    restored > 0 ? 'Extension worker restarted; earlier events restored.' : 'Extension worker started.',
  );
  if (!loaded.ok) {
    timeline.note('error', `Saved settings were refused (${loaded.error.message}); running with the defaults.`);
  }
  const saved = await loadSession(chromeApi);
  if (saved !== undefined) {
    // Before the native port opens, so no client slips in between a restart and its hold.
    if (typeof saved.hold === 'string') {
      router.holdClients(saved.hold);
    }
    await router.resume(saved.tabs);
  }
  await session.start();
  const focus = saved?.focus_target_id;
  if (focus !== null && focus !== undefined && session.targets.sessionFor(focus) !== undefined) {
    session.targets.setFocus(focus);
  }
  await native.restore();
  log.info('ready', { tabs: router.controlled().length });
})();
ready.catch((error: unknown) => log.error('start-up failed', { error: String(error) }));
// The native port opens once start-up is over, failed or not: clients then reach a worker that answers.
void ready.catch(() => undefined).then(() => native.applySettings());

servePanelPorts(browser.runtime, {
  server,
  ready,
  hub,
  timeline,
  settings,
  files: artifacts,
  agentKeys,
  attachWindow: (windowId) => activeTabOfWindow(chromeApi, windowId, (targetId) => session.tabIdOf(targetId)),
  controlledCount: () => router.controlled().length,
  hold: {
    holdClients: (reason) => router.holdClients(reason),
    liftHold: () => liftClientHold({ router, session, leases: native.gate.leases }),
  },
  native: {
    status: () => native.status(),
    disconnect: (client) => native.clients.disconnect(client),
    answer: (client, answer, conn) => native.clients.answer(client, answer, conn),
  },
  questions,
  showTab: async (tabId) => {
    const targetId = session.tabIds.targetFor(tabId);
    const tab = router.controlled().find((entry) => entry.targetId === targetId);
    if (tab === undefined) {
      return;
    }
    const updated = await chromeApi.tabs.update(tab.tabId, { active: true });
    if (updated !== undefined) {
      await chromeApi.windows.update(updated.windowId, { focused: true });
    }
  },
  log: log.child('panel-port'),
});

// Stop pressed on a tab's in-page indicator: the same emergency stop as the panel's.
answerInPageStop({
  session,
  server,
  log: log.child('in-page-stop'),
  stop: (connection, targetId, id) =>
    emergencyStop({
      connection,
      timeline,
      origin: `Stop in tab ${session.tabIdOf(targetId)}`,
      controlledCount: () => router.controlled().length,
      holdClients: (reason) => router.holdClients(reason),
      id,
    }),
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
        holdClients: (reason) => router.holdClients(reason),
        id: `keyboard-${Date.now()}`,
      }),
    );
});

chrome.sidePanel.setPanelBehavior({ openPanelOnActionClick: true }).catch((error: unknown) => {
  log.warn('could not make the toolbar button open the side panel', { error: String(error) });
});

// A handle for the worker's DevTools console and the end-to-end tests (which evaluate in the worker).
Object.assign(globalThis, { tabpilot: { session, server, router, ready, timeline, settings, hub, native, agentKeys } });
