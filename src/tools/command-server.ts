import { z } from 'zod';
import type { EventRecord } from '../bus/event-record';
import { EVENT_NAMES } from '../protocol/events/index';
import type { BrowserSession } from '../browser/session';
import {
  CommandRequest,
  RequestId,
  salvageRequestId,
  type CommandResponse,
  type EventMessage,
  type ServerMessage,
} from '../protocol/commands';
import { ERROR_CODES, TabpilotError, errorMessageOf } from '../shared/errors';
import type { Logger } from '../shared/logger';
import { silentLogger } from '../shared/logger';
import { redact, secretsOf, type Secret } from '../shared/redact';
import type { ActionContext, ActionDescription, ActionRegistry, ClientInfo } from './registry';
import type { ServedConfig } from './served-config';
import { eventReaches } from './event-scope';
import { ownServerActions } from './own-server-actions';
import { toCommandError } from './command-error';
import { describeServerAction, type ServerAction } from './server-action';
import { ClientStates } from './client-states';
import { parseClientParams, requestShapeError, withQueuedCount } from './client-requests';
import { OutcomeSlot } from './outcome-road';

/** Where a client's responses and events go (a port, stdout, a native frame writer). */
export interface ClientPort {
  send(message: ServerMessage): void;
}

/** Stands in front of the registry for every action of every client (the clients' tab leases). */
export interface ActionGate {
  run(
    action: string,
    params: unknown,
    ctx: ActionContext,
    next: (params: unknown) => Promise<unknown>,
  ): Promise<unknown>;
  /** The client that leases a tab, if any: a program's subscription also receives its tabs' events. */
  ownerOf?(targetId: string): string | undefined;
}

const SubscribeParams = z.strictObject({
  events: z.array(z.string()).min(1).describe('Event names, or "*" for all'),
});
const UnsubscribeParams = z.strictObject({ events: z.array(z.string()).optional() });
const DescribeParams = z.strictObject({});
const CancelParams = z.strictObject({
  request_id: RequestId.describe('The id of one of this client’s own requests, still queued or running'),
});

export const CLIENT_ACTIONS = [
  {
    name: 'subscribe',
    description:
      'Receive these bus events as {"event", "data"} messages. A native or MCP client receives only the events its own requests caused and those of the tabs it leases; the person sees all.',
    params: SubscribeParams,
  },
  { name: 'unsubscribe', description: 'Stop receiving events (all, or the ones named).', params: UnsubscribeParams },
  {
    name: 'describe',
    description: 'Every action with the JSON Schema of its params, and the config schema.',
    params: DescribeParams,
  },
  {
    name: 'cancel',
    description:
      'Cancel one of your own requests by its id, at once (it never waits behind them): a queued one is answered CANCELLED without running; a running one has its event cancelled on the bus, so its browser work stops, and is answered CANCELLED. Answers whether a request was found.',
    params: CancelParams,
  },
] as const;

/** The actions every client has of the server itself (subscribe, describe, cancel...), as `describe` gives them. */
export function describeClientActions(): Array<{ name: string; description: string; params_schema: unknown }> {
  return CLIENT_ACTIONS.map((action) => ({
    name: action.name,
    description: action.description,
    params_schema: z.toJSONSchema(action.params, { io: 'input' }),
  }));
}

/**
 * Answers the command protocol for any number of clients over one session: every request gets exactly
 * one response (a result or a typed error), malformed input included, and a client's failure never
 * touches another client's work.
 */
export class CommandServer {
  readonly session: BrowserSession;
  readonly registry: ActionRegistry;
  /** The whole config, given by the composition: describe's config_schema, the fields params may not name. */
  readonly #config: ServedConfig;
  readonly #log: Logger;
  /** Bumped by a preempting action (the emergency stop): requests queued before it are answered CANCELLED. */
  #epoch = 0;
  readonly #connections = new Set<ClientConnection>();
  #gate: ActionGate | undefined;
  #secrets: { source: unknown; secrets: Secret[] } = { source: undefined, secrets: [] };
  readonly #serverActions = new Map<string, ServerAction>();

  constructor(session: BrowserSession, registry: ActionRegistry, config: ServedConfig, logger: Logger = silentLogger) {
    this.session = session;
    this.registry = registry;
    this.#config = config;
    this.#log = logger;
    ownServerActions((name) => registry.get(name) !== undefined).forEach((action) => this.addServerAction(action));
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
    const connection = new ClientConnection(this, client, port, this.#log.child(`${client.kind}:${client.id}`), () =>
      this.#connections.delete(connection),
    );
    this.#connections.add(connection);
    return connection;
  }

  get epoch(): number {
    return this.#epoch;
  }

  /** Every client's queued requests are answered CANCELLED when their turn comes; returns how many. */
  cancelQueuedRequests(): number {
    this.#epoch++;
    let queued = 0;
    for (const connection of this.#connections) {
      queued += connection.queued;
    }
    return queued;
  }

  /** What an action may use: emit on the session's bus, resolve the client's tab. Nothing else. */
  contextFor(client: ClientInfo): ActionContext {
    const session = this.session;
    return {
      client,
      emit: (definition, payload, options) => session.bus.emit(definition, payload, options),
      resolveTab: (tabId) => session.resolveTab(tabId),
      tabIdOf: (targetId) => session.tabIdOf(targetId),
    };
  }

  useGate(gate: ActionGate): void {
    this.#gate = gate;
  }

  /** Whether an event reaches this client's subscription (event-scope.ts: a program sees only its own work). */
  reaches(client: ClientInfo, record: EventRecord): boolean {
    return eventReaches(client, record, (targetId) => this.#gate?.ownerOf?.(targetId));
  }

  /** Serves an action of a layer above the tools (see ServerAction); its name must be new. */
  addServerAction(action: ServerAction): void {
    if (this.#serverActions.has(action.name) || this.registry.get(action.name) !== undefined) {
      throw new Error(`the action ${action.name} is served already`);
    }
    this.#serverActions.set(action.name, action);
  }

  serverAction(name: string): ServerAction | undefined {
    return this.#serverActions.get(name);
  }

  /** The server actions, described as the registry's are. */
  describeServerActions(): ActionDescription[] {
    return [...this.#serverActions.values()].map(describeServerAction);
  }

  /** Runs a registry action for a client, through the gate when there is one. */
  runAction(action: string, params: unknown, ctx: ActionContext): Promise<unknown> {
    const gate = this.#gate;
    return gate === undefined
      ? this.registry.run(action, params, ctx, this.#config.fields)
      : gate.run(action, params, ctx, (gated) => this.registry.run(action, gated, ctx, this.#config.fields));
  }

  describe(): unknown {
    return {
      actions: [...this.registry.describe(), ...this.describeServerActions(), ...describeClientActions()],
      config_schema: this.#config.jsonSchema(),
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
  readonly #context: ActionContext;
  #disposeObserver: (() => void) | undefined;
  #closed = false;
  /** The tail of this client's request chain: requests run one after another, in arrival order. */
  #tail: Promise<unknown> = Promise.resolve();
  /** Requests waiting in the chain for their turn. */
  #queued = 0;
  /** This client's requests still queued or running, by id: what `cancel` aborts. */
  readonly #inFlight = new Map<RequestId, AbortController>();
  readonly #onClose: () => void;
  /** This client's last state of each tab: what `state {changes_only}` compares with. */
  readonly #states = new ClientStates();

  constructor(server: CommandServer, client: ClientInfo, port: ClientPort, log: Logger, onClose: () => void) {
    this.#server = server;
    this.#onClose = onClose;
    this.client = client;
    this.#port = port;
    this.#log = log;
    this.#context = server.contextFor(client);
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
   * arrived (a `tabs` after a `navigate` sees the navigation), except a preempting action (`stop`),
   * which never waits behind the work it cancels: it runs at once, and every request queued before it,
   * this client's or another's, is answered CANCELLED; an immediate server action (pause_run) runs at
   * once beside them, cancelling nothing. Different clients run side by side; the bus
   * orders their events.
   */
  handle(message: unknown): Promise<CommandResponse> {
    const parsed = CommandRequest.safeParse(message);
    if (!parsed.success) {
      return Promise.resolve(
        this.#server.redact({ id: salvageRequestId(message), ok: false, error: requestShapeError(parsed.error) }),
      );
    }
    const { id, action, params, outcome: wantsOutcome } = parsed.data;
    if (action === 'cancel') {
      return Promise.resolve(this.#cancel(id, params));
    }
    const controller = new AbortController();
    this.#inFlight.set(id, controller);
    const run = async (): Promise<CommandResponse> => {
      // A client that went away leaves no work behind it: what it still had queued is not run.
      if (this.#closed) {
        return { id, ok: false, error: { code: 'DISCONNECTED', message: 'The client closed its connection' } };
      }
      if (controller.signal.aborted) {
        return {
          id,
          ok: false,
          error: { code: 'CANCELLED', message: `${action} was cancelled by its client before it ran` },
        };
      }
      const outcome =
        wantsOutcome === true && this.#actsOnPage(action)
          ? new OutcomeSlot(this.#server.session, this.#log)
          : undefined;
      let response: CommandResponse;
      try {
        response = { id, ok: true, result: (await this.#run(action, params, controller.signal, outcome)) ?? null };
      } catch (error) {
        response = { id, ok: false, error: toCommandError(error, this.#log) };
      }
      if (outcome !== undefined) {
        response = await outcome.answer(response, controller.signal);
      }
      return this.#server.redact(response);
    };
    const settled = (response: CommandResponse): CommandResponse => {
      if (this.#inFlight.get(id) === controller) {
        this.#inFlight.delete(id);
      }
      return response;
    };
    if (this.#server.serverAction(action)?.immediate === true) {
      return run().then(settled);
    }
    if (this.#server.registry.get(action)?.preempt === true) {
      const queued = this.#server.cancelQueuedRequests();
      return run().then((response) => settled(withQueuedCount(response, queued)));
    }
    const epoch = this.#server.epoch;
    this.#queued++;
    const response = this.#tail.then((): Promise<CommandResponse> | CommandResponse => {
      this.#queued--;
      if (epoch !== this.#server.epoch) {
        return {
          id,
          ok: false,
          error: { code: 'CANCELLED', message: `${action} was cancelled by the emergency stop before it ran` },
        };
      }
      return run();
    });
    // The tail only orders requests: it must not keep the last answer (a whole-page state is megabytes).
    this.#tail = response.then(() => undefined);
    return response.then(settled);
  }

  /** `cancel`: aborts one of this client's requests; its own answer comes from its own turn. */
  #cancel(id: RequestId, params: unknown): CommandResponse {
    let target: RequestId;
    try {
      target = parseClientParams('cancel', CancelParams, params).request_id;
    } catch (error) {
      return this.#server.redact({ id, ok: false, error: toCommandError(error, this.#log) });
    }
    const controller = this.#inFlight.get(target);
    controller?.abort(`its client cancelled request ${JSON.stringify(target)}`);
    return { id, ok: true, result: { cancelled: controller !== undefined } };
  }

  /** Requests of this client waiting for the ones before them. */
  get queued(): number {
    return this.#queued;
  }

  /**
   * Ends the connection: what it still had queued is not run. With `cancelRunning` (a client that went
   * away mid-call, such as a killed MCP server) its running requests are cancelled on the bus too, so
   * nobody's browser keeps working for a client that can no longer read the answer.
   */
  close(options: { cancelRunning?: boolean } = {}): void {
    this.#closed = true;
    if (options.cancelRunning === true) {
      for (const controller of this.#inFlight.values()) {
        controller.abort('its client went away');
      }
    }
    this.#inFlight.clear();
    this.#onClose();
    this.#disposeObserver?.();
    this.#disposeObserver = undefined;
    this.#subscriptions.clear();
  }

  get subscriptions(): string[] {
    return [...this.#subscriptions];
  }

  /** An action whose request may ask for its verified outcome: it acts on its tab's page. */
  #actsOnPage(action: string): boolean {
    return (this.#server.registry.get(action)?.outcome ?? this.#server.serverAction(action)?.outcome) === true;
  }

  async #run(action: string, params: unknown, signal: AbortSignal, outcome?: OutcomeSlot): Promise<unknown> {
    const context: ActionContext = {
      ...this.#context,
      signal,
      ...(outcome === undefined ? {} : { watchOutcome: outcome.begin }),
    };
    switch (action) {
      case 'subscribe':
        return this.#subscribe(parseClientParams(action, SubscribeParams, params).events);
      case 'unsubscribe':
        return this.#unsubscribe(parseClientParams(action, UnsubscribeParams, params).events);
      case 'describe':
        parseClientParams(action, DescribeParams, params);
        return this.#server.describe();
      default: {
        const served = this.#server.serverAction(action);
        return served === undefined
          ? this.#server
              .runAction(action, params, context)
              .then((result) => this.#states.received(action, params, result))
          : served.run(parseClientParams(action, served.params, params), {
              client: this.client,
              signal,
              runAction: (name, stepParams) => this.#server.runAction(name, stepParams, context),
            });
      }
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
    if (!this.#server.reaches(this.client, record)) {
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
