import { z } from 'zod';
import type { BrowserSession } from '../browser/session';
import { TabpilotError } from '../shared/errors';
import { toActionResult, type ActionResult } from './action-result';

/** Who is calling: the panel, the CLI, a native client... Events the call causes carry it as `source`. */
export interface ClientInfo {
  readonly id: string;
  readonly kind: 'panel' | 'cli' | 'native' | 'mcp' | 'test';
}

export interface ActionContext {
  readonly session: BrowserSession;
  readonly client: ClientInfo;
}

export interface ActionDefinition<P extends z.ZodType = z.ZodType, R = unknown> {
  readonly name: string;
  readonly description: string;
  readonly params: P;
  run(params: z.output<P>, ctx: ActionContext): Promise<R>;
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- a list of actions with different params
export type AnyActionDefinition = ActionDefinition<any, unknown>;

export function defineAction<P extends z.ZodType, R>(definition: ActionDefinition<P, R>): ActionDefinition<P, R> {
  return definition;
}

export interface ActionDescription {
  name: string;
  description: string;
  params_schema: unknown;
}

/** The actions a surface offers: validate params against the zod schema, run, describe as JSON Schema. */
export class ActionRegistry {
  readonly #actions = new Map<string, AnyActionDefinition>();

  register(...actions: AnyActionDefinition[]): this {
    for (const action of actions) {
      if (this.#actions.has(action.name)) {
        throw new Error(`action ${action.name} registered twice`);
      }
      this.#actions.set(action.name, action);
    }
    return this;
  }

  has(name: string): boolean {
    return this.#actions.has(name);
  }

  names(): string[] {
    return [...this.#actions.keys()];
  }

  async run(name: string, rawParams: unknown, ctx: ActionContext): Promise<unknown> {
    const action = this.#actions.get(name);
    if (action === undefined) {
      throw new TabpilotError('UNKNOWN_ACTION', `Unknown action "${name}" (see "describe" for the list)`, {
        details: { action: name },
      });
    }
    const parsed = (action.params as z.ZodType).safeParse(rawParams ?? {});
    if (!parsed.success) {
      throw paramsError(name, parsed.error);
    }
    return action.run(parsed.data, ctx);
  }

  /** Runs an action for an agent: the outcome as an ActionResult, failures included, never thrown. */
  act(name: string, rawParams: unknown, ctx: ActionContext): Promise<ActionResult> {
    return toActionResult(name, () => this.run(name, rawParams, ctx));
  }

  describe(): ActionDescription[] {
    return [...this.#actions.values()].map((action) => ({
      name: action.name,
      description: action.description,
      params_schema: z.toJSONSchema(action.params as z.ZodType, { io: 'input', unrepresentable: 'any' }),
    }));
  }
}

function paramsError(action: string, error: z.ZodError): TabpilotError {
  const issue = error.issues[0];
  let field = issue?.path.map(String).join('.') ?? '';
  let message = issue?.message ?? error.message;
  if (issue?.code === 'unrecognized_keys') {
    field = issue.keys.join(', ');
    message = 'unknown parameter';
  }
  return new TabpilotError('INVALID_PARAMS', `${action}: ${field === '' ? '' : `${field}: `}${message}`, {
    details: { action, field },
  });
}
