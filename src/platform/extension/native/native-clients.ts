import { salvageRequestId, type CommandResponse } from '../../../protocol/commands';
import type { ClientApproval, ClientName, ExtensionInfo, PeerIdentity } from '../../../protocol/native-messages';
import type { NativeClientStatus, NativeStatus } from '../../../protocol/native-panel';
import { errorMessageOf } from '../../../shared/errors';
import type { Logger } from '../../../shared/logger';
import type { ClientGate } from '../../../tools/client-gate';
import type { ClientConnection, CommandServer } from '../../../tools/command-server';
import { redact, type Secret } from '../../../shared/redact';
import type { ClientApprovals } from './client-approvals';
import { hashClientKey, newClientKey } from './client-key';
import type { HostMessage, NativeLink } from './native-link';

/** How long a request waits for the person to allow its client before it is refused. */
const APPROVAL_WAIT_MS = 5 * 60_000;
/** Requests one held connection may queue; the next is refused at once (FORBIDDEN), saying why. */
export const HELD_REQUEST_LIMIT = 32;

/** The person's answer: allow this connection only, allow the program until revoked, or refuse. */
export type ConsentAnswer = 'once' | 'always' | 'deny';

interface Connection {
  readonly conn: string;
  readonly name: ClientName;
  readonly connection: ClientConnection;
  /** What the system says of the caller (null: not vouched), and the pid it claims for itself. */
  readonly peer: PeerIdentity | null;
  readonly claimedPid: number | null;
  approval: ClientApproval;
  /** Why it was refused (the person, or no answer in time): the words every later request gets. */
  refusal?: string;
  /** Requests (and pings) that arrived while the person has not answered yet, in order. */
  readonly held: Held[];
  timer: ReturnType<typeof setTimeout> | undefined;
}

/** A request or ping a held connection sent; a ping is answered only once the person has answered. */
interface Held {
  readonly seq: number;
  readonly message: unknown;
  readonly ping?: true;
}

export interface NativeClientsOptions {
  server: CommandServer;
  link: NativeLink;
  gate: ClientGate;
  approvals: ClientApprovals;
  /** Whether the settings ask for each new client's approval. */
  approveNewClients: () => boolean;
  extension: () => ExtensionInfo;
  secrets: () => readonly Secret[];
  /** A line in the timeline, labelled with the client. */
  note: (level: 'info' | 'warn', text: string, source: string) => void;
  /** Where a tab of a client is, for the panel. */
  describeTab: (targetId: string) => { tab_id: string; title: string; url: string } | undefined;
  log: Logger;
}

/**
 * The native clients, as the worker sees them: each connection the host brokers is a client of the
 * same CommandServer the panel uses (ClientInfo kind `native`, id its name), so its commands take the
 * same road and the timeline labels their events `native:<name>`. Answers go back tagged with the
 * host's connection and sequence number. When the settings ask for it, a client the person has not
 * approved waits (its requests held) until the person allows or refuses it in the panel.
 */
export class NativeClients {
  readonly #options: NativeClientsOptions;
  readonly #connections = new Map<string, Connection>();
  readonly #listeners = new Set<() => void>();

  constructor(options: NativeClientsOptions) {
    this.#options = options;
    options.link.handle(
      (message) => this.#onMessage(message),
      (reason) => this.#hostGone(reason),
    );
    options.gate.leases.onChange(() => this.#changed());
    options.link.onState(() => this.#changed());
  }

  onChange(listener: () => void): () => void {
    this.#listeners.add(listener);
    return () => this.#listeners.delete(listener);
  }

  /** The person pressed Disconnect: the connections close, the leases end, the approval is taken back. */
  async disconnect(name: string): Promise<void> {
    for (const entry of [...this.#connections.values()].filter((candidate) => candidate.name === name)) {
      this.#options.link.send({
        type: 'disconnect_client',
        conn: entry.conn,
        reason: `The person disconnected ${name} in the tabpilot side panel`,
      });
      this.#close(entry);
    }
    const ended = this.#options.gate.disconnectClient(name);
    await this.#options.approvals.revoke(name);
    this.#options.note(
      'info',
      `Disconnected ${name}; its ${ended.length} tab(s) stay open, owned by nobody.`,
      `native:${name}`,
    );
    this.#changed();
  }

  /**
   * The person's answer to a client waiting for approval: every waiting connection of the name, or
   * only `conn`. "Always" issues each of them a key, bound to the executable the system saw.
   */
  async answer(name: string, answer: ConsentAnswer, conn?: string): Promise<void> {
    const waiting = [...this.#connections.values()].filter(
      (entry) => entry.name === name && entry.approval === 'pending' && (conn === undefined || entry.conn === conn),
    );
    for (const entry of waiting) {
      if (answer === 'always') {
        const key = newClientKey();
        await this.#options.approvals.grant({ name, exe: entry.peer?.exe ?? null, key_hash: await hashClientKey(key) });
        this.#settle(entry, 'approved', { key, why: `The person allowed ${name} until revoked.` });
      } else {
        this.#settle(entry, answer === 'once' ? 'approved' : 'denied');
      }
    }
    const said = { once: 'Allowed once', always: 'Allowed until revoked', deny: 'Refused' }[answer];
    this.#options.note(answer === 'deny' ? 'warn' : 'info', `${said}: ${name}.`, `native:${name}`);
    this.#changed();
  }

  status(enabled: boolean): NativeStatus {
    const state = this.#options.link.state;
    const byName = new Map<string, NativeClientStatus>();
    const entryOf = (name: string): NativeClientStatus => {
      let entry = byName.get(name);
      if (entry === undefined) {
        entry = { name, connections: 0, approval: 'approved', waiting: [], tabs: [] };
        byName.set(name, entry);
      }
      return entry;
    };
    for (const connection of this.#connections.values()) {
      const entry = entryOf(connection.name);
      entry.connections++;
      if (connection.approval !== 'approved') {
        entry.approval = connection.approval;
      }
      if (connection.approval === 'pending') {
        entry.waiting.push({ conn: connection.conn, claimed_pid: connection.claimedPid, peer: connection.peer });
      }
    }
    const leases = this.#options.gate.leases;
    for (const name of leases.clients()) {
      const entry = entryOf(name);
      const focus = leases.focusOf(name);
      for (const targetId of leases.tabsOf(name)) {
        const tab = this.#options.describeTab(targetId);
        if (tab !== undefined) {
          entry.tabs.push({ ...tab, focused: targetId === focus });
        }
      }
    }
    return {
      enabled,
      approve_new_clients: this.#options.approveNewClients(),
      host: {
        state: state.state,
        pid: state.state === 'connected' ? (state.host?.pid ?? null) : null,
        version: state.state === 'connected' ? (state.host?.version ?? null) : null,
        error: state.state === 'waiting' ? state.error : null,
        retry_at: state.state === 'waiting' ? state.retry_at : null,
      },
      clients: [...byName.values()].sort((a, b) => a.name.localeCompare(b.name)),
    };
  }

  get connectionCount(): number {
    return this.#connections.size;
  }

  #onMessage(message: HostMessage): void {
    const { link } = this.#options;
    switch (message.type) {
      case 'hello':
        link.send({ type: 'hello', protocol: message.protocol, extension: this.#options.extension() });
        return;
      case 'client_connected':
        this.#connect(message);
        return;
      case 'client_disconnected': {
        const entry = this.#connections.get(message.conn);
        if (entry !== undefined) {
          this.#close(entry);
          this.#changed();
        }
        return;
      }
      // A ping takes a request's road: a program the person has not allowed gets no answer from the extension.
      case 'ping':
        this.#request(message.conn, message.seq, { ping: {} }, true);
        return;
      case 'request':
        this.#request(message.conn, message.seq, message.message);
        return;
      case 'protocol_error':
        this.#options.log.warn('the host could not read a message of ours', message.error);
        return;
    }
  }

  #connect(hello: Extract<HostMessage, { type: 'client_connected' }>): void {
    const { conn, client: name, peer } = hello;
    if (this.#connections.has(conn)) {
      return;
    }
    const connection = this.#options.server.connect(
      { id: name, kind: 'native' },
      {
        send: (message) => {
          if ('event' in message) {
            this.#options.link.send({ type: 'event', conn, message: this.#clean(message) });
          }
        },
      },
    );
    const needsApproval =
      this.#options.approveNewClients() && !this.#options.approvals.allows(name, peer?.exe ?? null, hello.key_hash);
    const entry: Connection = {
      conn,
      name,
      connection,
      peer,
      claimedPid: hello.pid,
      approval: needsApproval ? 'pending' : 'approved',
      held: [],
      timer: undefined,
    };
    this.#connections.set(conn, entry);
    if (needsApproval) {
      entry.timer = setTimeout(
        () =>
          this.#settle(entry, 'denied', {
            why: `Nobody allowed ${name} in the tabpilot side panel within ${APPROVAL_WAIT_MS / 60_000} minutes`,
          }),
        APPROVAL_WAIT_MS,
      );
      this.#options.link.send({
        type: 'client_status',
        conn,
        approval: 'pending',
        message: `Waiting for the person to allow ${name} in the tabpilot side panel…`,
      });
      this.#options.note(
        'warn',
        `${name} asks to drive this browser (${peer === null ? 'the system did not vouch for it' : `pid ${peer.pid}, ${peer.exe}`}): allow or refuse it in the Clients section.`,
        `native:${name}`,
      );
    } else {
      this.#options.note('info', `${name} connected.`, `native:${name}`);
    }
    this.#changed();
  }

  #request(conn: string, seq: number, message: unknown, ping?: true): void {
    const entry = this.#connections.get(conn);
    if (entry === undefined) {
      this.#respond(conn, seq, {
        id: null,
        ok: false,
        error: { code: 'INVALID_REQUEST', message: `No client connection ${conn} (it said no hello, or it closed)` },
      });
      return;
    }
    switch (entry.approval) {
      case 'pending':
        if (entry.held.length >= HELD_REQUEST_LIMIT) {
          this.#respond(
            conn,
            seq,
            refusedResponse(
              message,
              `${entry.name} already has ${HELD_REQUEST_LIMIT} requests waiting for the person to allow it (side panel, Clients); wait for the answer before sending more`,
              'pending',
            ),
          );
          return;
        }
        entry.held.push({ seq, message, ...(ping === undefined ? {} : { ping }) });
        return;
      case 'denied':
        this.#respond(conn, seq, refusedResponse(message, entry.refusal ?? deniedWords(entry.name), 'denied'));
        return;
      case 'approved':
        this.#runOrPong(entry, { seq, message, ...(ping === undefined ? {} : { ping }) });
        return;
    }
  }

  #runOrPong(entry: Connection, held: Held): void {
    if (held.ping === true) {
      this.#options.link.send({ type: 'pong', conn: entry.conn, seq: held.seq, extension: this.#options.extension() });
    } else {
      this.#run(entry, held.seq, held.message);
    }
  }

  #run(entry: Connection, seq: number, message: unknown): void {
    entry.connection
      .handle(message)
      .then((response) => this.#respond(entry.conn, seq, response))
      .catch((error: unknown) =>
        this.#respond(entry.conn, seq, {
          id: null,
          ok: false,
          error: { code: 'INTERNAL', message: errorMessageOf(error) },
        }),
      );
  }

  #settle(entry: Connection, approval: 'approved' | 'denied', options: { key?: string; why?: string } = {}): void {
    clearTimeout(entry.timer);
    entry.timer = undefined;
    entry.approval = approval;
    if (approval === 'denied') {
      entry.refusal = options.why ?? deniedWords(entry.name);
    }
    this.#options.link.send({
      type: 'client_status',
      conn: entry.conn,
      approval,
      message:
        options.why ??
        (approval === 'approved' ? `The person allowed ${entry.name}.` : `The person did not allow ${entry.name}.`),
      ...(options.key === undefined ? {} : { key: options.key }),
    });
    for (const held of entry.held.splice(0)) {
      if (approval === 'approved') {
        this.#runOrPong(entry, held);
      } else {
        this.#respond(
          entry.conn,
          held.seq,
          refusedResponse(held.message, entry.refusal ?? deniedWords(entry.name), 'denied'),
        );
      }
    }
  }

  #respond(conn: string, seq: number, response: CommandResponse): void {
    this.#options.link.send({ type: 'response', conn, seq, response: this.#clean(response) });
  }

  #clean<T>(message: T): T {
    const secrets = this.#options.secrets();
    return secrets.length === 0 ? message : (redact(message, secrets) as T);
  }

  /** A connection that ends leaves no work running: nobody is left to read its answers. */
  #close(entry: Connection): void {
    clearTimeout(entry.timer);
    entry.connection.close({ cancelRunning: true });
    this.#connections.delete(entry.conn);
  }

  /** The host went away: every connection ends; leases stay, for the clients that come back. */
  #hostGone(reason: string): void {
    const count = this.#connections.size;
    for (const entry of [...this.#connections.values()]) {
      this.#close(entry);
    }
    if (count > 0) {
      this.#options.note(
        'warn',
        `The native host went away (${reason}); ${count} client connection(s) closed.`,
        'native',
      );
    }
    this.#changed();
  }

  #changed(): void {
    for (const listener of this.#listeners) {
      listener();
    }
  }
}

function deniedWords(name: string): string {
  return `The person did not allow ${name} to drive this browser (side panel, Clients)`;
}

function refusedResponse(message: unknown, words: string, approval: 'denied' | 'pending'): CommandResponse {
  return {
    id: salvageRequestId(message),
    ok: false,
    error: { code: 'FORBIDDEN', message: words, details: { approval } },
  };
}
