import { z } from 'zod';
import type { AnyEventDefinition, PayloadInputOf } from '../protocol/define-event';
import type { ActionCategory, ActionHints, AnyActionDeclaration, McpFacts } from '../protocol/actions';
import type { EmitOptions, EventHandle } from '../bus/event-bus';
import { TabpilotError } from '../shared/errors';
import { firstProblem, problemText } from '../shared/zod-issues';
import { configFieldRefusal } from './config-fields';
import { publicResult } from '../protocol/public-result';

/** Who is calling: the panel, the CLI, a native client... Events the call causes carry it as `source`. */
export interface ClientInfo {
  readonly id: string;
  readonly kind: 'panel' | 'cli' | 'native' | 'mcp' | 'agent' | 'test';
}

/** The `source` an event caused by this client carries: `panel:sidepanel-1`, `native:tabpilot`, ... */
export function sourceOf(client: ClientInfo): string {
  return `${client.kind}:${client.id}`;
}

/**
 * What running an action needs, and all it may use: emit the action's event (the one road) and turn
 * the protocol's `tab_id` into a target id. The CommandServer builds it over a session.
 */
export interface ActionContext {
  readonly client: ClientInfo;
  emit<D extends AnyEventDefinition>(definition: D, payload: PayloadInputOf<D>, options?: EmitOptions): EventHandle<D>;
  /** The target a `tab_id` names (TAB_NOT_FOUND when none), or the client's focused tab when absent (NOT_ATTACHED). */
  resolveTab(tabId: string | undefined): Promise<string>;
  tabIdOf(targetId: string): string;
  /** Aborts when the client cancels this request: the action's event is cancelled on the bus. */
  readonly signal?: AbortSignal;
  /**
   * Set when the request asked for its verified outcome: an acting action calls it with its tab, once
   * the gate and the tab preamble chose it, just before its event (the index it names, if any).
   */
  readonly watchOutcome?: (targetId: string, index: number | null) => Promise<void>;
}

export interface ActionDescription {
  name: string;
  /** What a person reads for it in a tool list. */
  title: string;
  /** What a model reads for it (MCP's tool description, the agent's tool). */
  summary: string;
  description: string;
  category: ActionCategory;
  hints: ActionHints;
  params_schema: unknown;
  /** How the MCP server offers and answers it, when more than its fields (see McpFacts). */
  mcp?: McpFacts;
}

/** The actions a surface offers: validate params, emit the event, answer its result; describe as JSON Schema. */
export class ActionRegistry {
  readonly #actions = new Map<string, AnyActionDeclaration>();

  constructor(actions: readonly AnyActionDeclaration[] = []) {
    for (const action of actions) {
      if (this.#actions.has(action.name)) {
        throw new Error(`action ${action.name} registered twice`);
      }
      this.#actions.set(action.name, action);
    }
  }

  has(name: string): boolean {
    return this.#actions.has(name);
  }

  get(name: string): AnyActionDeclaration | undefined {
    return this.#actions.get(name);
  }

  /** The action, or UNKNOWN_ACTION naming where the list is. */
  require(name: string): AnyActionDeclaration {
    const action = this.#actions.get(name);
    if (action === undefined) {
      throw new TabpilotError('UNKNOWN_ACTION', `Unknown action "${name}" (see "describe" for the list)`, {
        details: { action: name },
      });
    }
    return action;
  }

  names(): string[] {
    return [...this.#actions.keys()];
  }

  /**
   * Runs an action: validates the params (INVALID_PARAMS naming the field), resolves the tab, emits the
   * event as the client, and answers the event's result in protocol form (tab ids, not target ids).
   * Params naming a field of the whole config (`configFields`, ServedConfig.fields) are FORBIDDEN.
   */
  async run(name: string, rawParams: unknown, ctx: ActionContext, configFields: ReadonlySet<string>): Promise<unknown> {
    const action = this.require(name);
    const parsed = action.params.safeParse(rawParams ?? {});
    if (!parsed.success) {
      const forbidden = configFieldRefusal(name, parsed.error, configFields);
      if (forbidden !== undefined) {
        throw forbidden;
      }
      const problem = firstProblem(parsed.error, 'parameter');
      throw new TabpilotError('INVALID_PARAMS', `${name}: ${problemText(problem)}`, {
        details: { action: name, field: problem.field },
      });
    }
    const payload = { ...(parsed.data as Record<string, unknown>) };
    const binding = action.tabBinding;
    if (binding !== 'none') {
      // The protocol's tab_id stands for the event's target_id.
      const tabId = payload['tab_id'] as string | undefined;
      delete payload['tab_id'];
      if (binding !== 'optional' || tabId !== undefined) {
        payload['target_id'] = await ctx.resolveTab(tabId);
      }
    }
    const target = payload['target_id'];
    if (action.outcome === true && ctx.watchOutcome !== undefined && typeof target === 'string') {
      const index = payload['index'];
      await ctx.watchOutcome(target, typeof index === 'number' ? index : null);
    }
    const result: unknown = await ctx.emit(action.event, payload as PayloadInputOf<typeof action.event>, {
      source: sourceOf(ctx.client),
      preempt: action.preempt,
      prevalidated: true,
      ...(ctx.signal === undefined ? {} : { signal: ctx.signal }),
    });
    return result === undefined ? null : publicResult(result, (targetId) => ctx.tabIdOf(targetId));
  }

  describe(): ActionDescription[] {
    return [...this.#actions.values()].map((action) => ({
      name: action.name,
      title: action.title,
      summary: action.summary,
      description: action.description,
      category: action.category,
      hints: action.hints,
      params_schema: z.toJSONSchema(action.params, { io: 'input', unrepresentable: 'any' }),
      ...(action.mcp === undefined ? {} : { mcp: action.mcp }),
    }));
  }
}
