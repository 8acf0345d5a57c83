import { z } from 'zod';
import { asSchema, type JsonSchema } from './schema';

/** What the panel reads from `describe`'s result (the command protocol). */
const DescribeResult = z.object({
  actions: z.array(
    z.object({
      name: z.string(),
      description: z.string(),
      category: z.string().optional(),
      params_schema: z.unknown(),
    }),
  ),
  config_schema: z.unknown(),
  events: z.array(z.string()).optional(),
});

export interface ActionInfo {
  name: string;
  description: string;
  /** page, tabs, content, files or session: how the panel groups the actions. */
  category: string | undefined;
  schema: JsonSchema;
}

export interface Described {
  actions: ActionInfo[];
  configSchema: JsonSchema;
  has(name: string): boolean;
  action(name: string): ActionInfo | undefined;
}

export function parseDescribe(result: unknown): Described | undefined {
  const parsed = DescribeResult.safeParse(result);
  if (!parsed.success) {
    return undefined;
  }
  const actions = parsed.data.actions.map((action) => ({
    name: action.name,
    description: action.description,
    category: action.category,
    schema: asSchema(action.params_schema),
  }));
  const byName = new Map(actions.map((action) => [action.name, action]));
  return {
    actions,
    configSchema: asSchema(parsed.data.config_schema),
    has: (name) => byName.has(name),
    action: (name) => byName.get(name),
  };
}
