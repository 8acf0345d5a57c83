import type { ActionName, ActionParams, ActionResponse } from '../../protocol/actions';
import type { CommandResponse } from '../../protocol/commands';
import { consoleSink, createLogger } from '../../shared/logger';
import { hostPatternOf } from './agent-settings';
import {
  WorkerToPanel,
  type PanelToWorker,
  type SettingsError,
  type WorkerToPanel as WorkerMessage,
} from '../../protocol/panel-messages';

const PORT_NAME = 'tabpilot-panel';
const log = createLogger(consoleSink, { level: 'info', namespace: 'tabpilot-panel' });
const RECONNECT_DELAY_MS = 300;

export type ConnectionStatus = 'connecting' | 'connected' | 'disconnected';

/** A pushed message: everything the worker sends that is not the answer to a request. */
export type PushedMessage = Extract<
  WorkerMessage,
  { type: 'status' | 'timeline' | 'settings' | 'event' | 'native' | 'agent_keys' | 'person_questions' }
>;

export type SettingsOutcome = { ok: true } | { ok: false; error: SettingsError };

const DISCONNECTED_MESSAGE = 'The extension worker stopped before answering (it restarts on its own); retry.';

/**
 * The panel's one link to the service worker, and the only UI module that touches `chrome.*`: a
 * runtime port that comes back by itself when the worker restarts (a port does not survive
 * it). Every message from the worker is validated (panel-messages.ts). A request in
 * flight when the port drops is answered with DISCONNECTED, never left hanging, so the panel can show
 * it and offer a retry.
 */
export class WorkerPort {
  #port: chrome.runtime.Port | undefined;
  #nextId = 1;
  readonly #pending = new Map<number, (message: WorkerMessage) => void>();
  readonly #pushListeners = new Set<(message: PushedMessage) => void>();
  readonly #statusListeners = new Set<(status: ConnectionStatus) => void>();
  #status: ConnectionStatus = 'connecting';

  connect(): void {
    const port = chrome.runtime.connect({ name: PORT_NAME });
    this.#port = port;
    this.#setStatus('connected');
    port.onMessage.addListener((message: unknown) => this.#onMessage(message));
    port.onDisconnect.addListener(() => {
      this.#port = undefined;
      this.#setStatus('disconnected');
      const pending = [...this.#pending.entries()];
      this.#pending.clear();
      for (const [id, settle] of pending) {
        settle({ type: 'response', response: disconnected(id, DISCONNECTED_MESSAGE) });
      }
      setTimeout(() => this.connect(), RECONNECT_DELAY_MS);
    });
  }

  get status(): ConnectionStatus {
    return this.#status;
  }

  /** A declared action, its params and answer typed by its declaration; or any other protocol action. */
  request<N extends ActionName>(action: N, params?: ActionParams<N>): Promise<ActionResponse<N>>;
  request(action: string, params?: Record<string, unknown>): Promise<CommandResponse>;
  request(action: string, params: Record<string, unknown> = {}): Promise<CommandResponse> {
    return this.start(action, params).response;
  }

  /**
   * Any protocol action, with its request id (what `cancel` names) known before it answers. `lane: "run"`
   * sends it on the worker's second connection for this panel, so a run lasting minutes holds back no other
   * request (a `cancel` of it goes on that lane too).
   */
  start(
    action: string,
    params: Record<string, unknown> = {},
    lane?: 'run',
  ): { id: number; response: Promise<CommandResponse> } {
    let requestId = 0;
    const response = this.#ask((id) => {
      requestId = id;
      return { type: 'command', request: { id, action, params }, ...(lane === undefined ? {} : { lane }) };
    });
    return { id: requestId, response };
  }

  /** Stores (or, with null, forgets) the agent's API key for a provider in the worker; it never comes back. */
  saveAgentKey(provider: 'openai' | 'anthropic', key: string | null): Promise<CommandResponse> {
    return this.#ask((id) => ({ type: 'save_agent_key', id, provider, key }));
  }

  /** Saves a kept flow as its JSON or a Playwright Test file in Downloads/tabpilot; answers `{path}`. */
  exportFlow(flow: unknown, as: 'json' | 'playwright'): Promise<CommandResponse> {
    return this.#ask((id) => ({ type: 'export_flow', id, flow, as }));
  }

  /** Attaches the active tab of the window this panel belongs to. */
  async attachCurrentTab(): Promise<CommandResponse> {
    const windowId = await this.currentWindowId();
    if (windowId === undefined) {
      return { id: null, ok: false, error: { code: 'TAB_NOT_FOUND', message: 'This panel has no window.' } };
    }
    return this.#ask((id) => ({ type: 'attach_window', id, window_id: windowId }));
  }

  /** The browser window this panel belongs to (a side panel is per window). */
  async currentWindowId(): Promise<number | undefined> {
    return (await chrome.windows.getCurrent()).id;
  }

  emergencyStop(): Promise<CommandResponse> {
    return this.#ask((id) => ({ type: 'emergency_stop', id }));
  }

  /** Lifts the person's hold after their Stop or Cancel: programs may attach and open tabs again. */
  resumeClients(): Promise<CommandResponse> {
    return this.#ask((id) => ({ type: 'resume_clients', id }));
  }

  saveSettings(config: unknown): Promise<SettingsOutcome> {
    const id = this.#nextId++;
    return new Promise((resolve) => {
      this.#pending.set(id, (message) => {
        if (message.type === 'settings_result') {
          resolve(message.ok || message.error === undefined ? { ok: true } : { ok: false, error: message.error });
        } else {
          resolve({ ok: false, error: { field: '', message: DISCONNECTED_MESSAGE } });
        }
      });
      if (!this.#post({ type: 'save_settings', id, config })) {
        this.#pending.delete(id);
        resolve({ ok: false, error: { field: '', message: 'Not connected to the extension worker; retry.' } });
      }
    });
  }

  clearTimeline(): void {
    this.#post({ type: 'clear_timeline' });
  }

  /** Disconnects a native client (its connections close, its tabs stay open, owned by nobody). */
  disconnectClient(client: string): void {
    this.#post({ type: 'native_disconnect', client });
  }

  /** Allows or refuses a native client that waits for the person's approval. */
  /** Allow once, allow until revoked (`remember`), or refuse; `conn` answers one waiting connection. */
  answerClient(client: string, allow: boolean, options: { remember?: boolean; conn?: string } = {}): void {
    this.#post({ type: 'native_approval', client, allow, ...options });
  }

  /** The person's answer to a program's question: allow it once, or refuse it. */
  answerQuestion(questionId: string, allow: boolean): void {
    this.#post({ type: 'person_answer', question_id: questionId, allow });
  }

  /** Brings a controlled tab (and its window) to the front, for a person to step in. */
  showTab(tabId: string): void {
    this.#post({ type: 'show_tab', tab_id: tabId });
  }

  /**
   * Asks the person for access to one model server (an optional host permission), for a server that does
   * not answer cross-origin requests; must be called from a click, which Chrome requires of the request.
   */
  async requestOrigin(origin: string): Promise<boolean> {
    const pattern = hostPatternOf(origin);
    if (pattern === undefined) {
      return false;
    }
    try {
      return await chrome.permissions.request({ origins: [pattern] });
    } catch (error) {
      log.warn('the host permission request failed', { origin, error: String(error) });
      return false;
    }
  }

  onPush(listener: (message: PushedMessage) => void): () => void {
    this.#pushListeners.add(listener);
    return () => this.#pushListeners.delete(listener);
  }

  onStatus(listener: (status: ConnectionStatus) => void): () => void {
    this.#statusListeners.add(listener);
    listener(this.#status);
    return () => this.#statusListeners.delete(listener);
  }

  #ask(build: (id: number) => PanelToWorker): Promise<CommandResponse> {
    const id = this.#nextId++;
    return new Promise((resolve) => {
      this.#pending.set(id, (message) =>
        resolve(message.type === 'response' ? message.response : disconnected(id, 'Unexpected answer; retry.')),
      );
      if (!this.#post(build(id))) {
        this.#pending.delete(id);
        resolve(disconnected(id, 'Not connected to the extension worker yet; retry.'));
      }
    });
  }

  #post(message: PanelToWorker): boolean {
    if (this.#port === undefined) {
      return false;
    }
    this.#port.postMessage(message);
    return true;
  }

  #onMessage(raw: unknown): void {
    const parsed = WorkerToPanel.safeParse(raw);
    if (!parsed.success) {
      log.warn('dropped a message from the worker that does not parse', { error: parsed.error.message });
      return;
    }
    const message = parsed.data;
    if (message.type === 'response' || message.type === 'settings_result') {
      const id = message.type === 'response' ? message.response.id : message.id;
      const settle = typeof id === 'number' ? this.#pending.get(id) : undefined;
      if (settle !== undefined && typeof id === 'number') {
        this.#pending.delete(id);
        settle(message);
      }
      return;
    }
    for (const listener of this.#pushListeners) {
      listener(message);
    }
  }

  #setStatus(status: ConnectionStatus): void {
    this.#status = status;
    for (const listener of this.#statusListeners) {
      listener(status);
    }
  }
}

function disconnected(id: number, message: string): CommandResponse {
  return { id, ok: false, error: { code: 'DISCONNECTED', message } };
}
