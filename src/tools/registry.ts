import { z } from 'zod';
import type { AnyEventDefinition, PayloadInputOf } from '../protocol/define-event';
import type { EmitOptions, EventHandle } from '../bus/event-bus';
import { TabpilotError } from '../shared/errors';
import { firstProblem, problemText } from '../shared/zod-issues';
import { configFieldRefusal } from './config-fields';
import { toActionResult, type ActionResult } from './action-result';
import { publicResult } from './public-result';

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
}

/** The tool groups a client can pick (the MCP server's `--tools`). */
export const ACTION_CATEGORIES = ['page', 'tabs', 'content', 'files', 'session'] as const;
export type ActionCategory = (typeof ACTION_CATEGORIES)[number];

/** How an action may affect the world, as MCP's tool annotations say it (clients treat them as hints). */
export interface ActionHints {
  /** Changes nothing in the page or the browser. */
  readonly readOnly: boolean;
  /** May destroy something (close a tab, overwrite a file, submit what cannot be undone). */
  readonly destructive: boolean;
  /** Doing it twice has the same effect as once. */
  readonly idempotent: boolean;
  /** Reaches beyond the browser's current pages (the web, the disk). */
  readonly openWorld: boolean;
}

export interface ActionSpec<D extends AnyEventDefinition> {
  readonly name: string;
  /** The event the action emits; its payload declares the params, its result is the action's result. */
  readonly event: D;
  readonly category: ActionCategory;
  readonly hints: ActionHints;
  /** Defaults to the event's description. */
  readonly description?: string;
  /** `tab_id` must be given (switch, close) instead of defaulting to the focused tab. */
  readonly tabRequired?: boolean;
  /** Cancels every queued and running command first, and never waits behind them: the emergency stop. */
  readonly preempt?: boolean;
}

export interface ActionDefinition<D extends AnyEventDefinition = AnyEventDefinition> {
  readonly name: string;
  readonly event: D;
  readonly description: string;
  readonly category: ActionCategory;
  readonly hints: ActionHints;
  readonly preempt: boolean;
  /** The protocol's params: the event's payload, with `target_id` offered as `tab_id`. */
  readonly params: z.ZodType;
  /** How the event names its tab: required (the client's focused tab by default), optional, or not at all. */
  readonly tabBinding: 'focused' | 'required' | 'optional' | 'none';
}

export type AnyActionDefinition = ActionDefinition;

const TabId = z.string().min(1).max(64).describe('A tab id from "tabs"');

/**
 * Declares a protocol action over its event. The params are derived from the event's payload, so each
 * parameter, default and description is written once:
 * - a required `target_id` becomes an optional `tab_id` (the client's focused tab when absent), or a
 *   required one with `tabRequired`;
 * - an optional `target_id` becomes an optional `tab_id` that stays absent when not given;
 * - every other field is the event's own, with the event's cross-field rules.
 */
export function defineAction<D extends AnyEventDefinition>(spec: ActionSpec<D>): ActionDefinition<D> {
  const payloadShape = spec.event.payloadShape as z.ZodObject;
  const shape: Record<string, z.ZodType> = { ...payloadShape.shape };
  const target = shape['target_id'];
  let tabBinding: ActionDefinition['tabBinding'] = 'none';
  if (target !== undefined) {
    delete shape['target_id'];
    tabBinding = spec.tabRequired === true ? 'required' : target.safeParse(undefined).success ? 'optional' : 'focused';
    shape['tab_id'] =
      tabBinding === 'required' ? TabId : TabId.optional().describe('A tab id from "tabs"; default the focused tab');
  }
  const object = z.strictObject(shape);
  const refine = spec.event.refine;
  const params: z.ZodType =
    refine === undefined
      ? object
      : object.superRefine((value, ctx) => {
          refine(value, ctx);
        });
  return {
    name: spec.name,
    event: spec.event,
    description: spec.description ?? spec.event.description,
    category: spec.category,
    hints: spec.hints,
    preempt: spec.preempt ?? false,
    params,
    tabBinding,
  };
}

export interface ActionDescription {
  name: string;
  description: string;
  category: ActionCategory;
  hints: ActionHints;
  params_schema: unknown;
}

/** The actions a surface offers: validate params, emit the event, answer its result; describe as JSON Schema. */
export class ActionRegistry {
  readonly #actions = new Map<string, AnyActionDefinition>();

  constructor(actions: readonly AnyActionDefinition[] = []) {
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

  get(name: string): AnyActionDefinition | undefined {
    return this.#actions.get(name);
  }

  names(): string[] {
    return [...this.#actions.keys()];
  }

  /**
   * Runs an action: validates the params (INVALID_PARAMS naming the field), resolves the tab, emits the
   * event as the client, and answers the event's result in protocol form (tab ids, not target ids).
   */
  async run(name: string, rawParams: unknown, ctx: ActionContext): Promise<unknown> {
    const action = this.#actions.get(name);
    if (action === undefined) {
      throw new TabpilotError('UNKNOWN_ACTION', `Unknown action "${name}" (see "describe" for the list)`, {
        details: { action: name },
      });
    }
    const parsed = action.params.safeParse(rawParams ?? {});
    if (!parsed.success) {
      const forbidden = configFieldRefusal(name, parsed.error);
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
    const result: unknown = await ctx.emit(action.event, payload as PayloadInputOf<typeof action.event>, {
      source: sourceOf(ctx.client),
      preempt: action.preempt,
      prevalidated: true,
      ...(ctx.signal === undefined ? {} : { signal: ctx.signal }),
    });
    return result === undefined ? null : publicResult(result, (targetId) => ctx.tabIdOf(targetId));
  }

  /** Runs an action for an agent: the outcome as an ActionResult, failures included, never thrown. */
  act(name: string, rawParams: unknown, ctx: ActionContext): Promise<ActionResult> {
    return toActionResult(name, () => this.run(name, rawParams, ctx));
  }

  describe(): ActionDescription[] {
    return [...this.#actions.values()].map((action) => ({
      name: action.name,
      description: action.description,
      category: action.category,
      hints: action.hints,
      params_schema: z.toJSONSchema(action.params, { io: 'input', unrepresentable: 'any' }),
    }));
  }
}
