import { z } from 'zod';
import type { ActionCategory, ActionHints, McpFacts } from '../protocol/actions';
import type { ActionDescription, ClientInfo } from './registry';

/**
 * An action a layer above the tools serves itself, beside the registry's (the built-in agent's `run`).
 * It is not a bus event: it may run for minutes while its own work (the agent's actions) takes the bus
 * like any client's, which a long event at the head of the bus's one queue would hold back. Its params
 * are checked against `params` before `run` is called; the client's `cancel` aborts `signal`.
 */
export interface ServerActionSpec<S extends z.ZodType = z.ZodType> {
  readonly name: string;
  /** What a person reads for it in a tool list; default its name. */
  readonly title?: string;
  /** What a model reads for it (see ActionSpec's summary); the description is the reference's. */
  readonly summary: string;
  readonly description: string;
  readonly params: S;
  readonly mcp?: McpFacts;
  readonly category: ActionCategory;
  readonly hints: ActionHints;
  /**
   * Runs as soon as it arrives, beside the client's requests still queued or running: an action that
   * steers work in flight (pausing the client's own run) would otherwise wait for that work to end.
   */
  readonly immediate?: boolean;
  /** It acts on a page (batch): a request may ask for its verified outcome, as an acting action's. */
  readonly outcome?: boolean;
}

/** Who asked for a server action, and the road their own requests take. */
export interface ServerActionCaller {
  client: ClientInfo;
  signal: AbortSignal;
  /** Runs a registry action as this client's own request would run (its gate, its tabs, its signal). */
  runAction(action: string, params: unknown): Promise<unknown>;
}

export interface ServerAction<S extends z.ZodType = z.ZodType> extends ServerActionSpec<S> {
  run(params: z.output<S>, caller: ServerActionCaller): Promise<unknown>;
}

/** A server action described as the registry describes its actions (for `describe` and MCP's tool list). */
export function describeServerAction(action: ServerActionSpec): ActionDescription {
  return {
    name: action.name,
    title: action.title ?? action.name,
    summary: action.summary,
    description: action.description,
    category: action.category,
    hints: action.hints,
    params_schema: z.toJSONSchema(action.params, { io: 'input' }),
    ...(action.mcp === undefined ? {} : { mcp: action.mcp }),
  };
}
