import { connect, type Socket } from 'node:net';
import type { CommandResponse, RequestEnvelope, RequestId, ServerMessage } from '../../../protocol/commands';
import { salvageRequestId } from '../../../protocol/request-id';
import type { ClientName } from '../../../protocol/native-messages';
import type { HostNotice, HostRecord, HostWelcome } from '../../../protocol/native-socket';
import { isHostWelcome } from '../../../protocol/native-socket-shapes';
import { isCommandResponse, isEventLine, isHostNotice } from '../../../protocol/server-message-guards';
import { TabpilotError, errorMessageOf } from '../../../shared/errors';
import { fieldOf, isRecord } from '../../../shared/narrow';
import { readClientKey, saveClientKey } from './client-keys';
import { listRecords, pickRecord } from './discovery';
import { LineSplitter } from './line-splitter';
import { statePaths } from './state-dir';

export interface HostClientOptions {
  client: ClientName;
  stateDir: string;
  /** Pick the host of this browser profile (several browsers may each run one). */
  userDataDir?: string;
  /**
   * How long to look for a host again after the connection drops (the extension starts a new host
   * when one dies); 0 gives up at once. Requests sent meanwhile wait for the new connection.
   */
  reconnectMs?: number;
}

export type ClientState = 'connected' | 'reconnecting' | 'closed';

const INTERNAL_ID = 'tabpilot-client-';
const RECONNECT_POLL_MS = 100;

/** No host to talk to: what is wrong and the command that finds out why. */
export function noHostError(stateDir: string, detail: string): TabpilotError {
  return new TabpilotError(
    'DISCONNECTED',
    `No tabpilot host is running (${detail}; state folder ${stateDir}). Open the browser that has the tabpilot extension (its native clients setting on), or run \`tabpilot doctor\` to find the broken link.`,
  );
}

interface Open {
  id: RequestId | null;
  resolve: ((response: CommandResponse) => void) | undefined;
}

/**
 * A local client of the native host: finds it through its discovery record, connects to its socket,
 * says hello, then speaks the command protocol. Every request gets an answer: when the connection
 * drops, the requests still open are answered DISCONNECTED; with `reconnectMs` the client then waits
 * for the host the extension starts again, reconnects, renews its event subscriptions and goes on.
 */
export class HostClient {
  readonly #options: HostClientOptions;
  readonly #listeners = new Set<(message: ServerMessage) => void>();
  readonly #noticeListeners = new Set<(notice: HostNotice['notice']) => void>();
  /**
   * Notices that came before anyone listened: the worker tells a held client at once, so its notice can
   * share a read with the host's welcome, and be read before `connect` has even returned the client.
   */
  readonly #unheardNotices: HostNotice['notice'][] = [];
  readonly #stateListeners = new Set<(state: ClientState) => void>();
  readonly #open: Open[] = [];
  readonly #waiting: string[] = [];
  readonly #subscriptions = new Set<string>();
  readonly #pongListeners = new Set<(message: unknown) => void>();
  /** Where the person stands on this program, as the last notice said (none: never asked about). */
  #approval: HostNotice['notice']['approval'];
  #socket: Socket | undefined;
  #record: HostRecord | undefined;
  #welcome: HostWelcome['hello'] | undefined;
  #state: ClientState = 'closed';
  #nextId = 0;
  #closing = false;

  private constructor(options: HostClientOptions) {
    this.#options = options;
  }

  static async connect(options: HostClientOptions): Promise<HostClient> {
    const client = new HostClient(options);
    await client.#open1();
    return client;
  }

  get state(): ClientState {
    return this.#state;
  }

  get record(): HostRecord | undefined {
    return this.#record;
  }

  get welcome(): HostWelcome['hello'] | undefined {
    return this.#welcome;
  }

  /** Where the person stands on this program, as the last notice said (undefined: never asked about). */
  get approval(): HostNotice['notice']['approval'] {
    return this.#approval;
  }

  /** Every response and event, in arrival order. */
  onMessage(listener: (message: ServerMessage) => void): () => void {
    this.#listeners.add(listener);
    return () => this.#listeners.delete(listener);
  }

  /** Every notice from now on, and first the ones that came before anyone listened. */
  onNotice(listener: (notice: HostNotice['notice']) => void): () => void {
    this.#noticeListeners.add(listener);
    for (const notice of this.#unheardNotices.splice(0)) {
      listener(notice);
    }
    return () => this.#noticeListeners.delete(listener);
  }

  onState(listener: (state: ClientState) => void): () => void {
    this.#stateListeners.add(listener);
    return () => this.#stateListeners.delete(listener);
  }

  /** Sends one protocol request and resolves with its answer. */
  /** One request; `envelope` adds the request's own fields (`outcome`). */
  request(action: string, params?: Record<string, unknown>, envelope: RequestEnvelope = {}): Promise<CommandResponse> {
    const id = ++this.#nextId;
    return new Promise((resolve) => {
      this.#send(JSON.stringify({ id, action, ...(params === undefined ? {} : { params }), ...envelope }), id, resolve);
    });
  }

  /** Sends a line as it is (`connect --extension`): its answer comes through onMessage. */
  sendLine(line: string): void {
    let id: RequestId | null = null;
    try {
      id = salvageRequestId(JSON.parse(line));
    } catch {
      // Not JSON: the host answers it INVALID_JSON with id null, like any other surface.
    }
    this.#send(line, id, undefined);
  }

  /** Asks the extension to answer without running a command; resolves with what it says of itself. */
  ping(timeoutMs = 5000): Promise<unknown> {
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => {
        dispose();
        reject(new TabpilotError('TIMEOUT', this.#unansweredPing(timeoutMs)));
      }, timeoutMs);
      const socket = this.#socket;
      const onLine = (message: unknown): void => {
        if (typeof message === 'object' && message !== null && 'pong' in message) {
          dispose();
          resolve(message.pong);
        }
      };
      const dispose = (): void => {
        clearTimeout(timer);
        this.#pongListeners.delete(onLine);
      };
      this.#pongListeners.add(onLine);
      socket?.write('{"ping":{}}\n');
    });
  }

  /** Why a ping got no pong: a program the person has not allowed is answered only once they do. */
  #unansweredPing(timeoutMs: number): string {
    switch (this.#approval) {
      case 'pending':
        return `the extension did not answer a ping within ${timeoutMs} ms: it holds ${this.#options.client} until the person allows it in the tabpilot side panel (Clients), and answers a held program's ping only then`;
      case 'denied':
        return `the extension did not answer a ping: the person did not allow ${this.#options.client} (tabpilot side panel, Clients)`;
      case 'approved':
      case undefined:
        return `the extension did not answer a ping within ${timeoutMs} ms`;
    }
  }

  /** Closes the connection; requests still open are answered DISCONNECTED. */
  close(): void {
    this.#closing = true;
    this.#socket?.end();
    this.#failOpen('the client closed the connection');
    this.#failWaiting('the client closed the connection');
    this.#setState('closed');
  }

  #send(line: string, id: RequestId | null, resolve: Open['resolve']): void {
    if (this.#state === 'closed') {
      const response = disconnected(id, 'Not connected to the tabpilot host');
      if (resolve === undefined) {
        for (const listener of this.#listeners) {
          listener(response);
        }
      } else {
        resolve(response);
      }
      return;
    }
    this.#trackSubscription(line);
    this.#open.push({ id, resolve });
    if (this.#state === 'reconnecting' || this.#socket === undefined) {
      this.#waiting.push(line);
      return;
    }
    this.#socket.write(`${line}\n`);
  }

  /** Remembers what the client subscribed to, to renew it on a new connection. */
  #trackSubscription(line: string): void {
    try {
      const parsed: unknown = JSON.parse(line);
      const action = fieldOf(parsed, 'action');
      const given = fieldOf(fieldOf(parsed, 'params'), 'events');
      // Only names can be subscribed, so a name that is not a string was never in the set to delete.
      const events: unknown[] | undefined = Array.isArray(given) ? given : undefined;
      const names = events?.filter((name) => typeof name === 'string');
      if (action === 'subscribe' && names !== undefined) {
        names.forEach((name) => this.#subscriptions.add(name));
      } else if (action === 'unsubscribe') {
        if (names === undefined) {
          this.#subscriptions.clear();
        } else {
          names.forEach((name) => this.#subscriptions.delete(name));
        }
      }
    } catch {
      // Not a request: nothing to remember.
    }
  }

  async #open1(): Promise<void> {
    const paths = statePaths(this.#options.stateDir);
    const listing = listRecords(paths.run);
    const found = pickRecord(listing, this.#options.userDataDir);
    if (found === undefined) {
      const detail =
        this.#options.userDataDir === undefined
          ? listing.stale.length > 0
            ? `${listing.stale.length} stale record(s), none live`
            : 'no discovery record'
          : `none for the profile ${this.#options.userDataDir}`;
      throw noHostError(this.#options.stateDir, detail);
    }
    const socket = await new Promise<Socket>((resolve, reject) => {
      const attempt = connect(found.record.socket);
      attempt.once('connect', () => {
        attempt.off('error', reject);
        resolve(attempt);
      });
      attempt.once('error', (error) =>
        reject(noHostError(this.#options.stateDir, `its socket ${found.record.socket} refused: ${error.message}`)),
      );
    });
    this.#record = found.record;
    this.#socket = socket;
    const welcome = new Promise<HostWelcome['hello']>((resolve, reject) => {
      const lines = new LineSplitter(1024 * 1024 * 1024);
      let greeted = false;
      socket.on('data', (chunk: Buffer) => {
        for (const line of lines.push(chunk)) {
          if (line.kind !== 'line') {
            continue;
          }
          let message: unknown;
          try {
            message = JSON.parse(line.text);
          } catch (error) {
            reject(new TabpilotError('INTERNAL', `the host sent a line that is not JSON: ${errorMessageOf(error)}`));
            continue;
          }
          if (!greeted) {
            if (!isHostWelcome(message)) {
              const refusal = fieldOf(fieldOf(message, 'error'), 'message');
              const text = typeof refusal === 'string' ? refusal : JSON.stringify(message);
              reject(new TabpilotError('INVALID_REQUEST', `the host refused the hello: ${text}`));
              socket.destroy();
              return;
            }
            greeted = true;
            resolve(message.hello);
            continue;
          }
          this.#onMessage(message);
        }
      });
      socket.once('close', () => {
        reject(noHostError(this.#options.stateDir, 'the host closed the connection'));
        this.#onClose(socket);
      });
      socket.on('error', () => undefined);
    });
    const key = readClientKey(this.#options.stateDir, this.#options.client, process.execPath);
    socket.write(
      `${JSON.stringify({ hello: { client: this.#options.client, protocol: 1, pid: process.pid, ...(key === undefined ? {} : { key }) } })}\n`,
    );
    this.#welcome = await welcome;
    this.#setState('connected');
  }

  #onMessage(message: unknown): void {
    if (isHostNotice(message)) {
      const { notice } = message;
      if (notice.key !== undefined) {
        // "Allow until revoked": kept for the next run of this program, never shown to listeners.
        saveClientKey(this.#options.stateDir, this.#options.client, process.execPath, notice.key);
      }
      if (notice.approval !== undefined) {
        this.#approval = notice.approval;
      }
      const { key: _kept, ...shown } = notice;
      if (this.#noticeListeners.size === 0) {
        this.#unheardNotices.push(shown);
      }
      for (const listener of this.#noticeListeners) {
        listener(shown);
      }
      return;
    }
    if (isRecord(message) && 'pong' in message) {
      for (const listener of [...this.#pongListeners]) {
        listener(message);
      }
      return;
    }
    if (isCommandResponse(message)) {
      const response = message;
      const index = this.#open.findIndex((open) => open.id === response.id);
      const open = index === -1 ? undefined : this.#open.splice(index, 1)[0];
      if (typeof response.id === 'string' && response.id.startsWith(INTERNAL_ID)) {
        return;
      }
      open?.resolve?.(response);
    } else if (!isEventLine(message)) {
      return;
    }
    for (const listener of this.#listeners) {
      listener(message);
    }
  }

  #onClose(socket: Socket): void {
    // A connection that never got to `connected` is handled by whoever opened it.
    if (socket !== this.#socket || this.#state !== 'connected') {
      return;
    }
    this.#socket = undefined;
    this.#failOpen(
      'The connection to the tabpilot host dropped before the answer came (the host or the browser stopped); the command may or may not have run.',
    );
    const reconnectMs = this.#options.reconnectMs ?? 0;
    if (this.#closing || reconnectMs <= 0) {
      this.#failWaiting('Not connected to the tabpilot host');
      this.#setState('closed');
      return;
    }
    this.#setState('reconnecting');
    void this.#reconnect(Date.now() + reconnectMs);
  }

  async #reconnect(deadline: number): Promise<void> {
    let lastError: unknown;
    while (Date.now() < deadline && !this.#closing) {
      try {
        await this.#open1();
        await this.#renew();
        return;
      } catch (error) {
        lastError = error;
        await new Promise((resolve) => setTimeout(resolve, RECONNECT_POLL_MS));
      }
    }
    this.#failWaiting(`No tabpilot host came back (${errorMessageOf(lastError)})`);
    this.#setState('closed');
  }

  /** On a new connection: subscriptions renewed first, then what was sent while away. */
  async #renew(): Promise<void> {
    const socket = this.#socket;
    if (socket === undefined) {
      return;
    }
    if (this.#subscriptions.size > 0) {
      const id = `${INTERNAL_ID}${++this.#nextId}`;
      this.#open.push({ id, resolve: undefined });
      socket.write(`${JSON.stringify({ id, action: 'subscribe', params: { events: [...this.#subscriptions] } })}\n`);
    }
    for (const line of this.#waiting.splice(0)) {
      socket.write(`${line}\n`);
    }
    await Promise.resolve();
  }

  #failOpen(message: string): void {
    const waiting = this.#waiting.length;
    // Requests queued while away were never sent: they stay open for the next connection.
    const sent = this.#open.splice(0, this.#open.length - waiting);
    for (const open of sent) {
      if (typeof open.id === 'string' && open.id.startsWith(INTERNAL_ID)) {
        continue;
      }
      const response = disconnected(open.id, message);
      open.resolve?.(response);
      if (open.resolve === undefined) {
        for (const listener of this.#listeners) {
          listener(response);
        }
      }
    }
  }

  #failWaiting(message: string): void {
    this.#waiting.splice(0);
    this.#failOpen(message);
  }

  #setState(state: ClientState): void {
    if (this.#state === state) {
      return;
    }
    this.#state = state;
    for (const listener of this.#stateListeners) {
      listener(state);
    }
  }
}

function disconnected(id: RequestId | null, message: string): CommandResponse {
  return { id, ok: false, error: { code: 'DISCONNECTED', message } };
}
