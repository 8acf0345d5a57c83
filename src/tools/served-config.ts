/**
 * The whole config (the browser's fields and the agent's) as the tools layer serves it. The tools sit below
 * the agent, whose fields it holds, so the composition (entries/) gives it: src/agent/tabpilot-config.ts.
 */
export interface ServedConfig {
  /** Its top-level field names: an action's params naming one are FORBIDDEN (config-fields.ts). */
  readonly fields: ReadonlySet<string>;
  /** Its JSON Schema, which describe answers as config_schema. */
  jsonSchema(): unknown;
}
