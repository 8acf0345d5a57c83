import type { ActionCategory, AnyActionDeclaration, McpAnswer } from '../../protocol/actions';
import type { ActionDescription } from '../registry';
import { mcpSchema } from './json-schema';
import type { McpTool } from './mcp-shapes';
import { STATE_OUTPUT_SCHEMA } from './state-answer';

export interface ToolSelection {
  /** Only tools of these categories; undefined for all. */
  categories?: ReadonlySet<ActionCategory>;
  /** Only the tools the declarations mark slim. */
  slim?: boolean;
  /** Tools this server cannot serve (evaluate where the config turns it off). */
  hidden?: ReadonlySet<string>;
}

/**
 * The MCP tools for the protocol's actions, in the actions' own order (a fixed order, so a client's
 * prompt cache holds across sessions): each with its params' JSON Schema, a title and annotations
 * taken from the action's hints.
 */
export function buildToolCatalog(actions: readonly ActionDescription[], selection: ToolSelection = {}): McpTool[] {
  return actions
    .filter((action) => selection.categories === undefined || selection.categories.has(action.category))
    .filter((action) => selection.slim !== true || action.mcp?.slim === true)
    .filter((action) => selection.hidden?.has(action.name) !== true)
    .map((action) => toTool(action));
}

function toTool(action: ActionDescription): McpTool {
  const title = action.title;
  const note = action.mcp?.note;
  const tool: McpTool = {
    name: action.name,
    title,
    description: note === undefined ? action.description : `${action.description} ${note}`,
    inputSchema: mcpSchema(action.params_schema),
    annotations: {
      title,
      readOnlyHint: action.hints.readOnly,
      destructiveHint: action.hints.destructive,
      idempotentHint: action.hints.idempotent,
      openWorldHint: action.hints.openWorld,
    },
  };
  if (action.mcp?.answer === 'state') {
    tool.outputSchema = STATE_OUTPUT_SCHEMA;
  }
  return tool;
}

/** How each tool's answer is put (tool-answers.ts), from its declaration: by default its fields. */
export function toolAnswers(actions: readonly ActionDescription[]): ReadonlyMap<string, McpAnswer> {
  return new Map(actions.map((action) => [action.name, action.mcp?.answer ?? 'fields']));
}

/**
 * The actions that default to the client's focused tab: the runner names that tab in the call, so the
 * answer (a failure's too) can say which tab it acted on. Not attach or release, whose missing tab_id
 * means something else (the person's active tab, every tab).
 */
export function actionsOnFocusedTab(actions: readonly AnyActionDeclaration[]): Set<string> {
  return new Set(actions.filter((action) => action.tabBinding === 'focused').map((action) => action.name));
}
