import { createHash } from 'node:crypto';
import { createServer, type Server, type Socket } from 'node:net';
import { chmodSync, rmSync } from 'node:fs';
import { salvageRequestId, type CommandResponse, type RequestId } from '../../../protocol/commands';
import type {
  ClientName,
  ExtensionInfo,
  HostInfo,
  PeerIdentity,
  WorkerToHost,
} from '../../../protocol/native-messages';
import { ClientHello } from '../../../protocol/native-socket';
import { errorMessageOf, type ErrorCode } from '../../../shared/errors';
import type { Logger } from '../../../shared/logger';
import { zodMessage } from '../../../shared/zod-issues';
import type { ChromeLink } from './chrome-link';
import { LineSplitter } from './line-splitter';
import { SocketTable, identifyPeer } from './peer-identity';

/** The longest request line a client may send (an upload's content travels inside one). */
export const CLIENT_LINE_LIMIT_BYTES = 64 * 1024 * 1024;
/** A client that stops reading its answers is dropped before its backlog grows past this. */
const CLIENT_BACKLOG_LIMIT_BYTES = 256 * 1024 * 1024;
/** Connections open at once; one more is refused (FORBIDDEN) and closed, the others go on. */
export const CLIENT_CONNECTION_LIMIT = 64;

type Line = ReturnType<LineSplitter['push']>[number];

interface Client {
  readonly conn: string;
  readonly socket: Socket;
  readonly lines: LineSplitter;
  /** Who the system says is calling, looked up as the connection is accepted. */
  readonly peer: Promise<PeerIdentity | null>;
  name: ClientName | undefined;
  /** Lines that came after the hello while the worker is not yet told of the client. */
  queued: Line[] | undefined;
  closed: boolean;
}

interface OpenRequest {
  conn: string;
  id: RequestId | null;
  kind: 'request' | 'ping';
}

export interface BrokerOptions {
  link: ChromeLink;
  log: Logger;
  host: () => HostInfo;
  extension: () => ExtensionInfo | null;
  lineLimitBytes?: number;
}

/**
 * The host's Unix socket (0600, in a 0700 folder): many local clients at once, each named by its
 * hello. Their requests go to the worker tagged with the connection and a sequence number; each answer
 * goes back to the connection that asked, events only to the connection whose subscription they
 * answer. A client that goes away mid-command leaves the others alone; when the extension goes away,
 * every request still open is answered DISCONNECTED.
 */
export class Broker {
  readonly #link: ChromeLink;
  readonly #log: Logger;
  readonly #options: BrokerOptions;
  readonly #clients = new Map<string, Client>();
  /** Who is at the other end of each connection, as the system says (read for many at once). */
  readonly #sockets = new SocketTable();
  readonly #open = new Map<number, OpenRequest>();
  #server: Server | undefined;
  #path: string | undefined;
  #nextConn = 0;
  #nextSeq = 0;
  #paused = false;
  readonly #lineLimit: number;

  constructor(options: BrokerOptions) {
    this.#options = options;
    this.#lineLimit = options.lineLimitBytes ?? CLIENT_LINE_LIMIT_BYTES;
    this.#link = options.link;
    this.#log = options.log;
    this.#link.onDrain(() => this.#resumeClients());
  }

  get openRequests(): number {
    return this.#open.size;
  }

  get clientCount(): number {
    return this.#clients.size;
  }

  async listen(path: string): Promise<void> {
    rmSync(path, { force: true });
    const server = createServer((socket) => this.#accept(socket));
    this.#server = server;
    this.#path = path;
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      // The folder is 0700 already; the socket itself is made 0600 before anyone is told where it is.
      server.listen(path, () => {
        server.off('error', reject);
        resolve();
      });
    });
    if (process.platform !== 'win32') {
      chmodSync(path, 0o600);
    }
    server.on('error', (error) => this.#log.error('socket server failed', { error: error.message }));
  }

  /** A message from the worker for one of the clients. */
  fromWorker(message: Exclude<WorkerToHost, { type: 'hello' | 'chunk' | 'protocol_error' }>): void {
    switch (message.type) {
      case 'response': {
        const open = this.#open.get(message.seq);
        if (open === undefined || open.conn !== message.conn) {
          this.#log.warn('an answer for no open request', { conn: message.conn, seq: message.seq });
          return;
        }
        this.#open.delete(message.seq);
        this.#write(message.conn, message.response);
        return;
      }
      case 'pong': {
        const open = this.#open.get(message.seq);
        if (open?.conn === message.conn) {
          this.#open.delete(message.seq);
        }
        this.#write(message.conn, { pong: { extension: message.extension } });
        return;
      }
      case 'event':
        this.#write(message.conn, message.message);
        return;
      case 'client_status':
        this.#write(message.conn, {
          notice: {
            approval: message.approval,
            message: message.message,
            ...(message.key === undefined ? {} : { key: message.key }),
          },
        });
        return;
      case 'disconnect_client': {
        const client = this.#clients.get(message.conn);
        if (client !== undefined) {
          this.#write(message.conn, { notice: { message: message.reason } });
          this.#answerOpen(message.conn, 'FORBIDDEN', message.reason);
          client.socket.end();
        }
        return;
      }
    }
  }

  /**
   * The extension went away: every open request is answered DISCONNECTED, every client is closed,
   * the socket file removed.
   */
  async shutdown(reason: string): Promise<void> {
    this.#answerOpen(undefined, 'DISCONNECTED', reason);
    const closing = [...this.#clients.values()].map(
      (client) =>
        new Promise<void>((resolve) => {
          client.socket.once('close', () => resolve());
          client.socket.end();
          // A client that does not read its last answers is not waited for.
          setTimeout(() => {
            client.socket.destroy();
            resolve();
          }, 1000).unref();
        }),
    );
    await Promise.all(closing);
    await new Promise<void>((resolve) =>
      this.#server === undefined ? resolve() : this.#server.close(() => resolve()),
    );
    if (this.#path !== undefined && process.platform !== 'win32') {
      rmSync(this.#path, { force: true });
    }
  }

  #accept(socket: Socket): void {
    if (this.#clients.size >= CLIENT_CONNECTION_LIMIT) {
      this.#log.warn('refused a connection: too many open', { limit: CLIENT_CONNECTION_LIMIT });
      const refusal: CommandResponse = {
        id: null,
        ok: false,
        error: {
          code: 'FORBIDDEN',
          message: `The tabpilot host already has ${CLIENT_CONNECTION_LIMIT} connections open, its limit; close one and retry`,
        },
      };
      socket.on('error', () => undefined);
      socket.end(`${JSON.stringify(refusal)}\n`);
      return;
    }
    const client: Client = {
      conn: `c${++this.#nextConn}`,
      socket,
      lines: new LineSplitter(this.#lineLimit),
      peer: identifyPeer(socket, this.#sockets),
      name: undefined,
      queued: undefined,
      closed: false,
    };
    this.#clients.set(client.conn, client);
    this.#log.info('client connected', { conn: client.conn });
    if (this.#paused) {
      socket.pause();
    }
    socket.on('data', (chunk: Buffer) => {
      for (const line of client.lines.push(chunk)) {
        this.#onLine(client, line);
      }
    });
    socket.on('error', (error) => this.#log.info('client socket error', { conn: client.conn, error: error.message }));
    socket.on('close', () => this.#drop(client));
  }

  #onLine(client: Client, line: Line): void {
    if (client.queued !== undefined) {
      client.queued.push(line);
      return;
    }
    if (line.kind === 'too_long') {
      this.#answer(
        client.conn,
        null,
        'INVALID_REQUEST',
        `a line of ${line.bytes} bytes is over the ${this.#lineLimit}-byte limit`,
      );
      return;
    }
    if (line.kind === 'bad_utf8') {
      this.#answer(client.conn, null, 'INVALID_JSON', 'Not valid JSON: the line is not UTF-8');
      return;
    }
    if (line.text.trim() === '') {
      return;
    }
    let message: unknown;
    try {
      message = JSON.parse(line.text);
    } catch (error) {
      this.#answer(client.conn, null, 'INVALID_JSON', `Not valid JSON: ${errorMessageOf(error)}`);
      return;
    }
    const object = typeof message === 'object' && message !== null && !Array.isArray(message) ? message : undefined;
    if (object !== undefined && 'hello' in object) {
      this.#hello(client, message);
      return;
    }
    if (client.name === undefined) {
      this.#answer(
        client.conn,
        salvageRequestId(message),
        'INVALID_REQUEST',
        'Say hello first: {"hello": {"client": "tabpilot"}} (or mcp:<name>)',
      );
      return;
    }
    const seq = ++this.#nextSeq;
    if (object !== undefined && 'ping' in object && Object.keys(object).length === 1) {
      this.#open.set(seq, { conn: client.conn, id: null, kind: 'ping' });
      this.#link.send({ type: 'ping', conn: client.conn, seq });
      return;
    }
    this.#open.set(seq, { conn: client.conn, id: salvageRequestId(message), kind: 'request' });
    this.#link.send({ type: 'request', conn: client.conn, seq, message });
    if (this.#link.congested) {
      this.#pauseClients();
    }
  }

  #hello(client: Client, message: unknown): void {
    const parsed = ClientHello.safeParse(message);
    if (!parsed.success) {
      // `whole: ''` keeps the words clients see today: "hello: : ..." for a problem with the whole hello.
      this.#answer(client.conn, null, 'INVALID_REQUEST', `hello: ${zodMessage(parsed.error, { whole: '' })}`);
      return;
    }
    if (client.name !== undefined) {
      this.#answer(client.conn, null, 'INVALID_REQUEST', `This connection already said hello as ${client.name}`);
      return;
    }
    const { hello } = parsed.data;
    client.name = hello.client;
    // What follows the hello waits until the worker knows who the client is.
    client.queued = [];
    client.socket.pause();
    void client.peer.then((peer) => {
      if (client.closed) {
        return;
      }
      this.#log.info('client hello', { conn: client.conn, client: hello.client, pid: hello.pid, peer: peer?.pid });
      this.#link.send({
        type: 'client_connected',
        conn: client.conn,
        client: hello.client,
        pid: hello.pid ?? null,
        peer,
        key_hash: hello.key === undefined ? null : createHash('sha256').update(hello.key).digest('hex'),
      });
      this.#write(client.conn, {
        hello: { client: hello.client, host: this.#options.host(), extension: this.#options.extension() },
      });
      const queued = client.queued ?? [];
      client.queued = undefined;
      for (const line of queued) {
        this.#onLine(client, line);
      }
      if (!this.#paused) {
        client.socket.resume();
      }
    });
  }

  #drop(client: Client): void {
    if (client.closed) {
      return;
    }
    client.closed = true;
    this.#clients.delete(client.conn);
    for (const [seq, open] of this.#open) {
      if (open.conn === client.conn) {
        this.#open.delete(seq);
      }
    }
    if (client.name !== undefined) {
      this.#link.send({ type: 'client_disconnected', conn: client.conn });
    }
    this.#log.info('client disconnected', { conn: client.conn, client: client.name });
  }

  /** Answers the open requests of one connection (or all) with an error, as the worker cannot. */
  #answerOpen(conn: string | undefined, code: ErrorCode, reason: string): void {
    for (const [seq, open] of this.#open) {
      if (conn !== undefined && open.conn !== conn) {
        continue;
      }
      this.#open.delete(seq);
      this.#answer(open.conn, open.id, code, reason);
    }
  }

  #answer(conn: string, id: RequestId | null, code: ErrorCode, message: string): void {
    const response: CommandResponse = { id, ok: false, error: { code, message } };
    this.#write(conn, response);
  }

  #write(conn: string, message: unknown): void {
    const client = this.#clients.get(conn);
    if (client === undefined || client.closed || client.socket.destroyed) {
      return;
    }
    client.socket.write(`${JSON.stringify(message)}\n`);
    if (client.socket.writableLength > CLIENT_BACKLOG_LIMIT_BYTES) {
      this.#log.warn('client does not read its answers; dropping it', { conn, client: client.name });
      client.socket.destroy();
    }
  }

  #pauseClients(): void {
    if (this.#paused) {
      return;
    }
    this.#paused = true;
    for (const client of this.#clients.values()) {
      client.socket.pause();
    }
  }

  #resumeClients(): void {
    if (!this.#paused) {
      return;
    }
    this.#paused = false;
    for (const client of this.#clients.values()) {
      client.socket.resume();
    }
  }
}
