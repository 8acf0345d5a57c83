import type { CommandResponse, EventMessage, ServerMessage } from '../../protocol/commands';

const PORT_NAME = 'tabpilot-panel';
const RECONNECT_DELAY_MS = 300;

export type ConnectionStatus = 'connecting' | 'connected' | 'disconnected';

/**
 * The panel's one link to the service worker: a runtime port that comes back by itself when the worker
 * restarts (a port does not survive it: platform facts §7). A request in flight when the port drops is
 * answered with DISCONNECTED, never left hanging, so the panel can show it and offer a retry.
 */
export class WorkerPort {
  #port: chrome.runtime.Port | undefined;
  #nextId = 1;
  readonly #pending = new Map<number, (response: CommandResponse) => void>();
  readonly #eventListeners = new Set<(event: EventMessage) => void>();
  readonly #statusListeners = new Set<(status: ConnectionStatus) => void>();
  #status: ConnectionStatus = 'connecting';

  connect(): void {
    const port = chrome.runtime.connect({ name: PORT_NAME });
    this.#port = port;
    this.#setStatus('connected');
    port.onMessage.addListener((message: ServerMessage) => this.#onMessage(message));
    port.onDisconnect.addListener(() => {
      this.#port = undefined;
      this.#setStatus('disconnected');
      for (const [id, resolve] of this.#pending) {
        resolve({
          id,
          ok: false,
          error: { code: 'DISCONNECTED', message: 'The extension worker restarted before answering; retry.' },
        });
      }
      this.#pending.clear();
      setTimeout(() => this.connect(), RECONNECT_DELAY_MS);
    });
  }

  get status(): ConnectionStatus {
    return this.#status;
  }

  request(action: string, params: Record<string, unknown> = {}): Promise<CommandResponse> {
    const id = this.#nextId++;
    return new Promise((resolve) => {
      if (this.#port === undefined) {
        resolve({
          id,
          ok: false,
          error: { code: 'DISCONNECTED', message: 'Not connected to the extension worker yet; retry.' },
        });
        return;
      }
      this.#pending.set(id, resolve);
      this.#port.postMessage({ id, action, params });
    });
  }

  onEvent(listener: (event: EventMessage) => void): () => void {
    this.#eventListeners.add(listener);
    return () => this.#eventListeners.delete(listener);
  }

  onStatus(listener: (status: ConnectionStatus) => void): () => void {
    this.#statusListeners.add(listener);
    listener(this.#status);
    return () => this.#statusListeners.delete(listener);
  }

  #onMessage(message: ServerMessage): void {
    if ('event' in message) {
      for (const listener of this.#eventListeners) {
        listener(message);
      }
      return;
    }
    if (typeof message.id !== 'number') {
      return;
    }
    const resolve = this.#pending.get(message.id);
    if (resolve !== undefined) {
      this.#pending.delete(message.id);
      resolve(message);
    }
  }

  #setStatus(status: ConnectionStatus): void {
    this.#status = status;
    for (const listener of this.#statusListeners) {
      listener(status);
    }
  }
}
