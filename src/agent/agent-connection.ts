import type { CommandServer, ClientConnection } from '../tools/command-server';
import type { ClientInfo } from '../tools/registry';
import { TabpilotError } from '../shared/errors';
import { isRecord } from '../shared/narrow';
import type { ActionOutcome } from '../protocol/outcome';

/** An action's result and, for an acting action, what it did to the page (protocol/outcome.ts). */
export interface Acted {
  result: unknown;
  outcome: ActionOutcome | undefined;
}

/** The agent's way to the browser: one ClientConnection, opened on first use, closed with the run. */
export interface AgentConnection {
  /** Runs a registry action as a request of the agent's own connection; a failed request throws its error. */
  run(name: string, params: unknown): Promise<unknown>;
  /** `run` for the model's own actions: with the action's verified outcome, when it has one. */
  act(name: string, params: unknown): Promise<Acted>;
  /** Ends the connection (its queued requests are not run); the next `run` opens a new one (a follow-up). */
  close(): void;
}

/**
 * The agent as a client like the others: its actions are requests of a ClientConnection of its own, so
 * they take the road every client's take (per-client order, the emergency stop's cancelling of queued
 * requests, the gate and its leases, the registry) and their answers and errors are masked where every
 * client's are, once. The connection is its own even when the agent acts as the program that started
 * the run (`client` is then that program): that program's connection is busy answering the `run`
 * itself, and the agent's requests must not queue behind it.
 */
export function agentConnection(server: CommandServer, client: ClientInfo): AgentConnection {
  let connection: ClientConnection | undefined;
  let nextId = 0;
  const request = async (name: string, params: unknown, outcome: boolean): Promise<Acted> => {
    // The agent offers the model the registry's actions only: the server's own actions (run, subscribe,
    // pause_run...) are no tools of its, whatever name the model writes.
    server.registry.require(name);
    connection ??= server.connect(client, { send: () => undefined });
    const response = await connection.handle({
      id: `agent-${++nextId}`,
      action: name,
      ...paramsOf(name, params),
      ...(outcome ? { outcome: true } : {}),
    });
    if (!response.ok) {
      const { code, message, details } = response.error;
      throw new TabpilotError(code, message, details === undefined ? {} : { details });
    }
    return { result: response.result, outcome: response.outcome };
  };
  return {
    run: async (name, params) => (await request(name, params, false)).result,
    act: (name, params) => request(name, params, true),
    close: () => {
      connection?.close();
      connection = undefined;
    },
  };
}

/** A request's params are an object or absent; the model may write anything, and hears why it was refused. */
function paramsOf(name: string, params: unknown): { params?: Record<string, unknown> } {
  if (params === undefined || params === null) {
    return {};
  }
  if (!isRecord(params)) {
    throw new TabpilotError('INVALID_PARAMS', `${name}: params must be an object`, { details: { action: name } });
  }
  return { params };
}
