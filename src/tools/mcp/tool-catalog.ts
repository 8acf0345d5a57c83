import {
  personAlone,
  type ActionCategory,
  type ActionHints,
  type AnyActionDeclaration,
  type McpAnswer,
} from '../../protocol/actions';
import type { ActionDescription } from '../registry';
import { modelSchema } from '../model-schema';
import type { McpTool, McpToolAnnotations } from './mcp-shapes';
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
 * prompt cache holds across sessions): each with its summary, its params' JSON Schema as a model is
 * sent it, a title (where it says more than the name) and annotations taken from the action's hints.
 */
export function buildToolCatalog(actions: readonly ActionDescription[], selection: ToolSelection = {}): McpTool[] {
  return (
    actions
      .filter((action) => selection.categories === undefined || selection.categories.has(action.category))
      .filter((action) => selection.slim !== true || action.mcp?.slim === true)
      .filter((action) => selection.hidden?.has(action.name) !== true)
      // A program is refused it on every transport: listed, it would cost a model words for a FORBIDDEN.
      .filter((action) => !personAlone(action.name))
      .map((action) => toTool(action))
  );
}

function toTool(action: ActionDescription): McpTool {
  const tool: McpTool = {
    name: action.name,
    description: action.summary,
    inputSchema: modelSchema(action.params_schema),
  };
  // A title that is only the name in words ("Go back" for go_back) or the name itself tells a client nothing its name does not: said once is enough.
  if (!saysOnlyTheName(action.title, action.name)) {
    tool.title = action.title;
  }
  const annotations = annotationsOf(action.hints);
  if (Object.keys(annotations).length > 0) {
    tool.annotations = annotations;
  }
  if (action.mcp?.answer === 'state') {
    tool.outputSchema = STATE_OUTPUT_SCHEMA;
  }
  return tool;
}

function saysOnlyTheName(title: string, name: string): boolean {
  // A server action with no title of its own is titled by its very name (pause_run).
  return title.toLowerCase().replaceAll('_', ' ') === name.replaceAll('_', ' ');
}

/** The MCP spec's value of each hint a tool leaves out (2025-11-25 ToolAnnotations). */
const HINT_DEFAULTS: Readonly<Record<keyof McpToolAnnotations, boolean>> = {
  readOnlyHint: false,
  destructiveHint: true,
  idempotentHint: false,
  openWorldHint: true,
};

/**
 * The action's hints as MCP annotations, each only where it differs from the spec's default (a client
 * reads a missing hint as its default, so the meaning is the same in fewer characters), and for a
 * read-only tool neither destructive nor idempotent, which the spec reads only of a tool that writes;
 * the title is the tool's own, not repeated here.
 */
export function annotationsOf(hints: ActionHints): McpToolAnnotations {
  const all: Record<keyof McpToolAnnotations, boolean> = {
    readOnlyHint: hints.readOnly,
    destructiveHint: hints.destructive,
    idempotentHint: hints.idempotent,
    openWorldHint: hints.openWorld,
  };
  const annotations: McpToolAnnotations = {};
  for (const key of HINT_NAMES) {
    // The spec gives destructive and idempotent a meaning only where the tool is not read-only.
    const meaningless = hints.readOnly && (key === 'destructiveHint' || key === 'idempotentHint');
    if (all[key] !== HINT_DEFAULTS[key] && !meaningless) {
      annotations[key] = all[key];
    }
  }
  return annotations;
}

const HINT_NAMES = ['readOnlyHint', 'destructiveHint', 'idempotentHint', 'openWorldHint'] as const;

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
