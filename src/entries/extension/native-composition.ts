import browser from 'webextension-polyfill';
import type { BrowserSession } from '../../browser/session';
import { EXTENSION_ID, type ExtensionInfo } from '../../protocol/native-messages';
import type { NativeStatus } from '../../protocol/native-panel';
import { chromeNativeRuntime, chromeTabGroupApi } from '../../platform/extension/native/chrome-native';
import { ClientApprovals } from '../../platform/extension/native/client-approvals';
import { hashClientKey, newClientKey } from '../../platform/extension/native/client-key';
import { persistLeases, restoreLeases } from '../../platform/extension/native/lease-store';
import { NativeClients } from '../../platform/extension/native/native-clients';
import { NativeLink } from '../../platform/extension/native/native-link';
import { nativeStatusPusher } from '../../platform/extension/native/native-status-push';
import { profileId } from '../../platform/extension/native/profile-id';
import { chromeTabGrouper } from '../../platform/extension/native/tab-grouper';
import type { PanelHub } from '../../platform/extension/panel-hub';
import { storageArea } from '../../platform/extension/real-chrome';
import type { Secret } from '../../shared/redact';
import type { SettingsStore } from '../../platform/extension/settings-store';
import type { TabRouter } from '../../platform/extension/tab-router';
import type { TimelineRecorder } from '../../platform/extension/timeline-recorder';
import type { Logger } from '../../shared/logger';
import { ClientGate } from '../../tools/client-gate';
import { ClientLeases } from '../../tools/client-leases';
import type { PersonAsker } from '../../tools/person-powers';
import type { CommandServer } from '../../tools/command-server';

export interface NativeSide {
  readonly gate: ClientGate;
  readonly link: NativeLink;
  readonly clients: NativeClients;
  status(): NativeStatus;
  /** Restores leases and approvals; call inside the worker's start-up, after the tabs are resumed. */
  restore(): Promise<void>;
  /** Opens the native port when the settings allow it (and closes it when they stop allowing it). */
  applySettings(): void;
  /**
   * Allows a program until revoked without asking, and returns its key: for whoever already holds the
   * browser through DevTools (`npm start` pre-allows its own REPL and CLI in its dedicated profile).
   */
  preallow(name: string, exe: string): Promise<string>;
}

/**
 * The worker's native side: the leases every client's commands pass through (the gate in front of
 * the CommandServer), the port to the native host, and the native clients it brokers.
 */
export function composeNativeSide(options: {
  session: BrowserSession;
  server: CommandServer;
  router: TabRouter;
  settings: SettingsStore;
  timeline: TimelineRecorder;
  hub: PanelHub;
  secrets: () => readonly Secret[];
  /** Asks the person before a program uses one of their powers (export cookies, record traffic). */
  questions: PersonAsker;
  log: Logger;
}): NativeSide {
  const { session, server, router, settings, timeline, log } = options;
  const leases = new ClientLeases();
  const gate = new ClientGate(session, server.registry, {
    leases,
    grouper: chromeTabGrouper(chromeTabGroupApi(), (targetId) => router.tabIdOfTarget(targetId)),
    openRefusal: () =>
      router.userCancelled
        ? 'You pressed Cancel on the debugging bar, so no tab opens for a client until you attach one again from the panel'
        : undefined,
    hold: () => router.hold,
    log: log.child('gate'),
    person: options.questions,
  });
  gate.install();
  server.useGate(gate);
  const sessionStore = storageArea('session');
  persistLeases(leases, sessionStore, (error) => log.warn('could not persist the leases', { error: String(error) }));

  const link = new NativeLink(chromeNativeRuntime(), log.child('native'));
  const approvals = new ClientApprovals(storageArea('local'));
  let extension: ExtensionInfo = {
    id: EXTENSION_ID,
    version: browser.runtime.getManifest().version,
    browser: navigator.userAgent,
    profile_id: '',
  };
  const clients = new NativeClients({
    server,
    link,
    gate,
    approvals,
    approveNewClients: () => settings.config.native_clients.approve_new_clients,
    extension: () => extension,
    secrets: options.secrets,
    note: (level, text, source) => timeline.note(level, text, source),
    describeTab: (targetId) => {
      const page = session.targets.target(targetId);
      return page === undefined ? undefined : { tab_id: session.tabIdOf(targetId), title: page.title, url: page.url };
    },
    log: log.child('native-clients'),
  });
  const status = (): NativeStatus => clients.status(settings.config.native_clients.enabled);
  const push = nativeStatusPusher(options.hub, status, log);
  clients.onChange(push);
  // Titles and URLs of the clients' tabs change with every navigation.
  session.bus.observe(({ phase }) => {
    if (phase === 'completed') {
      push();
    }
  });
  let restored = false;
  return {
    gate,
    link,
    clients,
    status,
    async restore() {
      await Promise.all([restoreLeases(leases, sessionStore), approvals.load()]);
      extension = { ...extension, profile_id: await profileId(storageArea('local')) };
      // Leases of tabs that did not come back after a worker restart are dropped.
      leases.retain((targetId) => session.targets.target(targetId) !== undefined);
      restored = true;
    },
    async preallow(name, exe) {
      const key = newClientKey();
      await approvals.grant({ name, exe, key_hash: await hashClientKey(key) });
      return key;
    },
    applySettings() {
      if (restored) {
        link.setEnabled(settings.config.native_clients.enabled);
      }
      push();
    },
  };
}
