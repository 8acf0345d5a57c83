import type { Runtime } from 'webextension-polyfill';
import type { ArtifactFiles } from '../../browser/artifacts/artifact-files';
import type { CommandError, CommandResponse } from '../../protocol/commands';
import type { NativeStatus } from '../../protocol/native-panel';
import type { PersonQuestion } from '../../protocol/person-questions';
import type { ConsentAnswer } from './native/native-clients';
import { PanelToWorker, type AgentKeysPresent, type WorkerToPanel } from '../../protocol/panel-messages';
import { errorMessageOf } from '../../shared/errors';
import { shortId } from '../../shared/ids';
import type { Logger } from '../../shared/logger';
import type { ClientConnection, CommandServer } from '../../tools/command-server';
import { sourceOf, type ClientInfo } from '../../tools/registry';
import { emergencyStop } from './emergency-stop';
import { exportFlow } from './flow-export';
import type { PanelHub, PanelLink } from './panel-hub';
import type { SettingsStore } from './settings-store';
import type { TimelineRecorder } from './timeline-recorder';

export const PANEL_PORT_NAME = 'tabpilot-panel';

export interface PortRuntime {
  readonly id: string;
  getURL(path: string): string;
  readonly onConnect: { addListener(listener: (port: Runtime.Port) => void): void };
}

/** What a panel can reach in the worker. */
export interface PanelServices {
  readonly server: CommandServer;
  /** The worker's start-up (resume, settings, timeline restore); messages wait for it. */
  readonly ready: Promise<unknown>;
  readonly hub: PanelHub;
  readonly timeline: TimelineRecorder;
  readonly settings: SettingsStore;
  /** Where the panel's exports are saved: the output folder the actions save into (Downloads/tabpilot). */
  readonly files: Pick<ArtifactFiles, 'writeFile'>;
  /** The agent's API keys; the panel saves them and is told only which are set. */
  readonly agentKeys?: {
    present(): AgentKeysPresent;
    set(provider: 'openai' | 'anthropic', key: string | null): Promise<void>;
  };
  attachWindow(windowId: number): Promise<{ tab_id: string } | { error: CommandError }>;
  /** Brings a controlled tab and its window to the front (the person's hand-off). */
  showTab(tabId: string): Promise<void>;
  controlledCount(): number;
  /** The person's hold on the clients (client-hold.ts): put on by their Stop, lifted by their Resume. */
  readonly hold: { holdClients(reason: string): void; liftHold(): Promise<void> };
  /** The native clients, when the worker serves them (the panel shows them and may disconnect them). */
  readonly native?: {
    status(): NativeStatus;
    disconnect(client: string): Promise<void>;
    answer(client: string, answer: ConsentAnswer, conn?: string): Promise<void>;
  };
  /** Questions a program put to the person (person-questions.ts): the panel shows them and answers. */
  readonly questions?: {
    pending(): PersonQuestion[];
    answer(questionId: string, allow: boolean): void;
  };
  readonly log: Logger;
}

/**
 * Only the extension's own pages may send commands: a port is accepted when its sender
 * is this extension and its URL is one of our pages. Web pages cannot connect at all (there is no
 * externally_connectable) and other extensions arrive on onConnectExternal, which we do not serve.
 */
export function isOwnPage(
  sender: Runtime.MessageSender | undefined,
  runtime: Pick<PortRuntime, 'id' | 'getURL'>,
): boolean {
  return (
    sender !== undefined &&
    sender.id === runtime.id &&
    typeof sender.url === 'string' &&
    sender.url.startsWith(runtime.getURL(''))
  );
}

/** Serves the panel protocol (panel-messages.ts) on runtime ports from the panel and our other pages. */
export function servePanelPorts(runtime: PortRuntime, services: PanelServices): void {
  const { log } = services;
  runtime.onConnect.addListener((port) => {
    if (port.name !== PANEL_PORT_NAME || !isOwnPage(port.sender, runtime)) {
      log.warn('refused a port from outside the extension', { name: port.name, url: port.sender?.url });
      port.disconnect();
      return;
    }
    let open = true;
    const link: PanelLink = {
      post: (message) => {
        if (open) {
          port.postMessage(message);
        }
      },
    };
    const client: ClientInfo = { id: shortId(6), kind: 'panel' };
    const connection = services.server.connect(client, {
      send: (message) => {
        // The CommandServer has replaced the secrets already, as it does for every client.
        if ('event' in message) {
          link.post({ type: 'event', message });
        }
      },
    });
    // The run lane: a second connection for runs, opened at the first one (see PanelToWorker's `lane`).
    let runLane: ClientConnection | undefined;
    const lanes: PanelLanes = {
      main: connection,
      run: () => (runLane ??= services.server.connect({ id: shortId(6), kind: 'panel' }, { send: () => undefined })),
    };
    const removeLink = services.hub.add(link);
    // A failed start-up is logged by the composition root; the panel still gets answers (errors).
    const started = services.ready.catch(() => undefined);
    void started.then(() => greet(link, services));
    port.onMessage.addListener((raw: unknown) => {
      const parsed = PanelToWorker.safeParse(raw);
      if (!parsed.success) {
        log.warn('dropped a panel message that does not parse', { error: parsed.error.message });
        return;
      }
      started
        .then(() => dispatch(parsed.data, link, lanes, services))
        .catch((error: unknown) => log.error('panel message failed', { error: errorMessageOf(error) }));
    });
    port.onDisconnect.addListener(() => {
      open = false;
      removeLink();
      connection.close();
      // A run goes on when the panel closes (a panel opened later shows it and can stop it); its answer is dropped.
      runLane?.close();
    });
  });
}

/** A panel that (re)connects gets the whole state at once. */
async function greet(link: PanelLink, services: PanelServices): Promise<void> {
  link.post({ type: 'settings', config: { ...services.settings.config } });
  link.post({ type: 'timeline', reset: true, entries: services.timeline.entries() });
  if (services.native !== undefined) {
    link.post({ type: 'native', native: services.native.status() });
  }
  if (services.agentKeys !== undefined) {
    link.post({ type: 'agent_keys', keys: services.agentKeys.present() });
  }
  if (services.questions !== undefined) {
    link.post(services.server.redact({ type: 'person_questions', questions: services.questions.pending() }));
  }
  await services.hub.sendStatus(link);
}

/** The codes of a command refused before it reached the bus, so the bus's timeline would not show it. */
const REFUSED_CODES: ReadonlySet<string> = new Set(['INVALID_PARAMS', 'UNKNOWN_ACTION', 'INVALID_REQUEST']);

function noteIfRefused(
  action: string,
  response: CommandResponse,
  connection: ClientConnection,
  services: PanelServices,
): void {
  if (response.ok || !REFUSED_CODES.has(response.error.code)) {
    return;
  }
  const field = response.error.details?.['field'];
  const where = typeof field === 'string' && field !== '' ? ` (field ${field})` : '';
  services.timeline.note(
    'error',
    `Refused ${action}: ${response.error.code}${where}: ${response.error.message}`,
    sourceOf(connection.client),
  );
}

/** The person's Resume: programs may attach, navigate and open tabs again. */
async function resumeClients(id: number, services: PanelServices): Promise<CommandResponse> {
  await services.hold.liftHold();
  services.timeline.note('info', 'You pressed Resume: programs may attach, navigate and open tabs again.', 'panel');
  services.hub.statusChanged();
  return { id, ok: true, result: { resumed: true } };
}

interface PanelLanes {
  readonly main: ClientConnection;
  run(): ClientConnection;
}

async function dispatch(
  message: PanelToWorker,
  link: PanelLink,
  lanes: PanelLanes,
  services: PanelServices,
): Promise<void> {
  const connection = lanes.main;
  const respond = (response: CommandResponse): void => link.post({ type: 'response', response });
  switch (message.type) {
    case 'command': {
      const lane = message.lane === 'run' ? lanes.run() : connection;
      const response = await lane.handle(message.request);
      noteIfRefused(message.request.action, response, lane, services);
      respond(response);
      return;
    }
    case 'attach_window': {
      const target = await services.attachWindow(message.window_id);
      if ('error' in target) {
        respond({ id: message.id, ok: false, error: target.error });
        return;
      }
      respond(await connection.handle({ id: message.id, action: 'attach', params: { tab_id: target.tab_id } }));
      return;
    }
    case 'emergency_stop':
      respond(
        await emergencyStop({
          connection,
          timeline: services.timeline,
          origin: 'panel button',
          controlledCount: () => services.controlledCount(),
          holdClients: (reason) => services.hold.holdClients(reason),
          id: message.id,
        }),
      );
      return;
    case 'resume_clients':
      respond(await resumeClients(message.id, services));
      return;
    case 'save_settings': {
      const outcome = await services.settings.save(message.config);
      const result: WorkerToPanel = outcome.ok
        ? { type: 'settings_result', id: message.id, ok: true }
        : { type: 'settings_result', id: message.id, ok: false, error: outcome.error };
      link.post(result);
      if (outcome.ok) {
        services.hub.broadcast({ type: 'settings', config: { ...outcome.config } });
        services.timeline.note('info', 'Settings saved and applied.', 'panel');
      }
      return;
    }
    case 'clear_timeline':
      services.timeline.clear();
      return;
    case 'native_disconnect':
      await services.native?.disconnect(message.client);
      return;
    case 'native_approval':
      await services.native?.answer(
        message.client,
        !message.allow ? 'deny' : message.remember === true ? 'always' : 'once',
        message.conn,
      );
      return;
    case 'person_answer':
      services.questions?.answer(message.question_id, message.allow);
      return;
    case 'show_tab':
      await services.showTab(message.tab_id);
      return;
    case 'export_flow':
      respond(await exportFlow(message.id, message.flow, message.as, services.files));
      return;
    case 'save_agent_key': {
      const keys = services.agentKeys;
      if (keys === undefined) {
        respond({ id: message.id, ok: false, error: { code: 'UNKNOWN_ACTION', message: 'This worker has no agent.' } });
        return;
      }
      await keys.set(message.provider, message.key);
      const present = keys.present();
      respond({ id: message.id, ok: true, result: { provider: message.provider, set: present[message.provider] } });
      services.hub.broadcast({ type: 'agent_keys', keys: present });
      // The note says which key changed, never its value.
      services.timeline.note(
        'info',
        present[message.provider]
          ? `The ${message.provider} API key was saved.`
          : `The ${message.provider} API key was removed.`,
        'panel',
      );
      return;
    }
  }
}
