import { z } from 'zod';
import type { EventRecord } from '../bus/event-record';
import { configJsonSchema } from '../browser/config';
import { EVENT_NAMES } from '../browser/events/index';
import type { BrowserSession } from '../browser/session';
import {
  CommandRequest,
  type CommandError,
  type CommandResponse,
  type EventMessage,
  type RequestId,
  type ServerMessage,
} from '../protocol/commands';
import { ERROR_CODES, TabpilotError, errorMessageOf, isTabpilotError } from '../shared/errors';
import type { Logger } from '../shared/logger';
import { silentLogger } from '../shared/logger';
import { redact, secretsOf, type Secret } from '../shared/redact';
import type { ActionRegistry, ClientInfo } from './registry';

/** Where a client's responses and events go (a port, stdout, a native frame writer). */
export interface ClientPort {
  send(message: ServerMessage): void;
}

const SubscribeParams = z.strictObject({
  events: z.array(z.string()).min(1).describe('Event names, or "*" for all'),
});
const UnsubscribeParams = z.strictObject({ events: z.array(z.string()).optional() });
const DescribeParams = z.strictObject({});

const CLIENT_ACTIONS = [
  {
    name: 'subscribe',
    description: 'Receive these bus events as {"event", "data"} messages.',
    params: SubscribeParams,
  },
  { name: 'unsubscribe', description: 'Stop receiving events (all, or the ones named).', params: UnsubscribeParams },
  {
    name: 'describe',
    description: 'Every action with the JSON Schema of its params, and the config schema.',
    params: DescribeParams,
  },
] as const;

/**
 * Answers the command protocol for any number of clients over one session: every request gets exactly
 * one response (a result or a typed error), malformed input included, and a client's failure never
 * touches another client's work.
 */
export class CommandServer {
  readonly session: BrowserSession;
  readonly registry: ActionRegistry;
  readonly #log: Logger;
  #secrets: { source: unknown; secrets: Secret[] } = { source: undefined, secrets: [] };

  constructor(session: BrowserSession, registry: ActionRegistry, logger: Logger = silentLogger) {
    this.session = session;
    this.registry = registry;
    this.#log = logger;
  }

  /**
   * Every message that leaves the session passes here: the config's secret values are replaced by their
   * `<secret>name</secret>` placeholder wherever a page put them (state text and elements, extracts,
   * searches, events, errors), for every client alike.
   */
  redact<T>(message: T): T {
    const sensitive = this.session.config.sensitive_data;
    if (this.#secrets.source !== sensitive) {
      this.#secrets = { source: sensitive, secrets: secretsOf(sensitive) };
    }
    return this.#secrets.secrets.length === 0 ? message : (redact(message, this.#secrets.secrets) as T);
  }

  connect(client: ClientInfo, port: ClientPort): ClientConnection {
    return new ClientConnection(this, client, port, this.#log.child(`${client.kind}:${client.id}`));
  }

  describe(): unknown {
    return {
      actions: [
        ...this.registry.describe(),
        ...CLIENT_ACTIONS.map((action) => ({
          name: action.name,
          description: action.description,
          params_schema: z.toJSONSchema(action.params, { io: 'input' }),
        })),
      ],
      config_schema: configJsonSchema(),
      events: EVENT_NAMES,
      error_codes: ERROR_CODES,
    };
  }
}

export class ClientConnection {
  readonly client: ClientInfo;
  readonly #server: CommandServer;
  readonly #port: ClientPort;
  readonly #log: Logger;
  readonly #subscriptions = new Set<string>();
  #disposeObserver: (() => void) | undefined;
  #closed = false;
  /** The tail of this client's request chain: requests run one after another, in arrival order. */
  #tail: Promise<unknown> = Promise.resolve();

  constructor(server: CommandServer, client: ClientInfo, port: ClientPort, log: Logger) {
    this.#server = server;
    this.client = client;
    this.#port = port;
    this.#log = log;
  }

  /** One line of JSON in, one response out (through the port). Never throws. */
  async handleLine(line: string): Promise<void> {
    const trimmed = line.trim();
    if (trimmed === '') {
      return;
    }
    let message: unknown;
    try {
      message = JSON.parse(trimmed);
    } catch (error) {
      this.#send(
        this.#server.redact({
          id: null,
          ok: false,
          error: { code: 'INVALID_JSON', message: `Not valid JSON: ${errorMessageOf(error)}` },
        }),
      );
      return;
    }
    this.#send(await this.handle(message));
  }

  /**
   * A parsed message in, its response out. Never throws. A client's requests run in the order they
   * arrived (a `tabs` after a `navigate` sees the navigation), except `stop`, which must not wait behind
   * the work it is meant to cancel. Different clients run side by side; the bus orders their events.
   */
  handle(message: unknown): Promise<CommandResponse> {
    const parsed = CommandRequest.safeParse(message);
    if (!parsed.success) {
      return Promise.resolve(
        this.#server.redact({ id: salvageId(message), ok: false, error: requestShapeError(parsed.error) }),
      );
    }
    const { id, action, params } = parsed.data;
    const run = async (): Promise<CommandResponse> => {
      let response: CommandResponse;
      try {
        response = { id, ok: true, result: (await this.#run(action, params)) ?? null };
      } catch (error) {
        response = { id, ok: false, error: toCommandError(error, this.#log) };
      }
      return this.#server.redact(response);
    };
    if (action === 'stop') {
      return run();
    }
    const response = this.#tail.then(run);
    this.#tail = response;
    return response;
  }

  close(): void {
    this.#closed = true;
    this.#disposeObserver?.();
    this.#disposeObserver = undefined;
    this.#subscriptions.clear();
  }

  get subscriptions(): string[] {
    return [...this.#subscriptions];
  }

  async #run(action: string, params: unknown): Promise<unknown> {
    switch (action) {
      case 'subscribe':
        return this.#subscribe(parseClientParams(action, SubscribeParams, params).events);
      case 'unsubscribe':
        return this.#unsubscribe(parseClientParams(action, UnsubscribeParams, params).events);
      case 'describe':
        parseClientParams(action, DescribeParams, params);
        return this.#server.describe();
      default:
        return this.#server.registry.run(action, params, { session: this.#server.session, client: this.client });
    }
  }

  #subscribe(events: string[]): { subscribed: string[] } {
    for (const name of events) {
      if (name !== '*' && !EVENT_NAMES.includes(name)) {
        throw new TabpilotError('INVALID_PARAMS', `subscribe: events: unknown event ${name}`, {
          details: { field: 'events' },
        });
      }
    }
    for (const name of events) {
      this.#subscriptions.add(name);
    }
    this.#disposeObserver ??= this.#server.session.bus.observe(({ phase, record }) => {
      if (phase === 'emitted') {
        this.#forward(record);
      }
    });
    return { subscribed: [...this.#subscriptions] };
  }

  #unsubscribe(events: string[] | undefined): { subscribed: string[] } {
    if (events === undefined) {
      this.#subscriptions.clear();
    } else {
      for (const name of events) {
        this.#subscriptions.delete(name);
      }
    }
    if (this.#subscriptions.size === 0) {
      this.#disposeObserver?.();
      this.#disposeObserver = undefined;
    }
    return { subscribed: [...this.#subscriptions] };
  }

  #forward(record: EventRecord): void {
    if (!this.#subscriptions.has('*') && !this.#subscriptions.has(record.event.type)) {
      return;
    }
    const message: EventMessage = {
      event: record.event.type,
      data: record.event.payload,
      id: record.event.meta.id,
      parent_id: record.event.meta.parentId ?? null,
      source: record.source ?? null,
    };
    this.#send(this.#server.redact(message));
  }

  #send(message: ServerMessage): void {
    if (this.#closed) {
      return;
    }
    try {
      this.#port.send(message);
    } catch (error) {
      this.#log.warn('could not send to client', { error: errorMessageOf(error) });
    }
  }
}

function parseClientParams<S extends z.ZodType>(action: string, schema: S, params: unknown): z.output<S> {
  const parsed = schema.safeParse(params ?? {});
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    const field =
      issue?.code === 'unrecognized_keys' ? issue.keys.join(', ') : (issue?.path.map(String).join('.') ?? '');
    throw new TabpilotError(
      'INVALID_PARAMS',
      `${action}: ${field}: ${issue?.code === 'unrecognized_keys' ? 'unknown parameter' : (issue?.message ?? 'invalid')}`,
      {
        details: { action, field },
      },
    );
  }
  return parsed.data;
}

function salvageId(message: unknown): RequestId | null {
  if (typeof message === 'object' && message !== null && 'id' in message) {
    const id = message.id;
    if (typeof id === 'number' || (typeof id === 'string' && id.length <= 200)) {
      return id;
    }
  }
  return null;
}

function requestShapeError(error: z.ZodError): CommandError {
  const issue = error.issues[0];
  const field = issue?.code === 'unrecognized_keys' ? issue.keys.join(', ') : (issue?.path.map(String).join('.') ?? '');
  return {
    code: 'INVALID_REQUEST',
    message: `A request is {"id", "action", "params"}: ${field === '' ? '' : `${field}: `}${issue?.code === 'unrecognized_keys' ? 'unknown field' : (issue?.message ?? 'invalid')}`,
    details: { field },
  };
}

export function toCommandError(error: unknown, log: Logger = silentLogger): CommandError {
  if (isTabpilotError(error)) {
    return error.details === undefined
      ? { code: error.code, message: error.message }
      : { code: error.code, message: error.message, details: error.details };
  }
  log.error('unexpected error', {
    error: errorMessageOf(error),
    stack: error instanceof Error ? error.stack : undefined,
  });
  return { code: 'INTERNAL', message: errorMessageOf(error) };
}
