import type { ActionCategory, ActionDescription, AnyActionDefinition } from '../registry';
import { mcpSchema } from './json-schema';
import type { McpTool } from './mcp-shapes';
import { STATE_OUTPUT_SCHEMA } from './state-answer';

/** What a person reads for each tool in a client's list (MCP's `title`). */
export const TOOL_TITLES: Readonly<Record<string, string>> = {
  navigate: 'Open a URL',
  go_back: 'Go back',
  go_forward: 'Go forward',
  refresh: 'Reload the tab',
  search: 'Search the web',
  wait: 'Wait',
  tabs: 'List tabs',
  switch: 'Switch to a tab',
  close: 'Close a tab',
  attach: 'Take control of a tab',
  release: 'Let tabs go',
  stop: 'Emergency stop',
  state: 'Read the page',
  screenshot: 'Take a screenshot',
  highlight: 'Outline an element',
  extract: 'Read the page as markdown',
  search_page: 'Find text in the page',
  find_elements: 'Find elements by CSS selector',
  save_as_pdf: 'Save the page as PDF',
  start_har: 'Start recording the network to a HAR',
  stop_har: 'Stop the HAR recording and link the file',
  evaluate: 'Run JavaScript in the page',
  click: 'Click',
  input: 'Type into a field',
  scroll: 'Scroll',
  send_keys: 'Press keys',
  find_text: 'Scroll to a text',
  upload_file: 'Put files into a file input',
  dropdown_options: 'List the options of a dropdown',
  select_dropdown: 'Pick an option of a dropdown',
  hover: 'Hover over an element',
  drag: 'Drag and drop',
  handle_dialog: 'Answer a JavaScript dialog',
  save_storage_state: 'Save cookies and storage to a file',
  load_storage_state: 'Load cookies and storage from a file',
  run: 'Let the built-in agent do a task',
};

/** The few tools that drive a page end to end, for small context windows (`--slim`). */
export const SLIM_TOOLS: readonly string[] = ['navigate', 'state', 'click', 'input', 'send_keys', 'scroll'];

/** What a model needs to know of a tool beyond its action's description, as MCP shows it. */
const MCP_NOTES: Readonly<Record<string, string>> = {
  state:
    'Call it before acting and after the page changes: click, input and the other element tools take the [n] indexes it shows. The answer names the tab; a page longer than the answer budget is written to a file and linked.',
  screenshot:
    'Returned as an image, scaled to at most 1568 px on the long side and 1.15 megapixels; format jpeg gives a smaller answer.',
  navigate: 'Then call state to see the page.',
  extract: 'A long page comes back in parts (start_from_char) or, past the answer budget, as a linked file.',
  save_as_pdf: 'The answer links the file.',
  stop_har: 'The answer links the HAR file rather than putting the traffic in the answer.',
  run: 'It runs with the model of the server config (agent.provider, agent.base_url, agent.model; the key from OPENAI_API_KEY or ANTHROPIC_API_KEY) and may take minutes; the answer is the done text.',
};

export interface ToolSelection {
  /** Only tools of these categories; undefined for all. */
  categories?: ReadonlySet<ActionCategory>;
  /** Only the SLIM_TOOLS. */
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
    .filter((action) => selection.slim !== true || SLIM_TOOLS.includes(action.name))
    .filter((action) => selection.hidden?.has(action.name) !== true)
    .map((action) => toTool(action));
}

function toTool(action: ActionDescription): McpTool {
  const title = TOOL_TITLES[action.name] ?? action.name;
  const note = MCP_NOTES[action.name];
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
  if (action.name === 'state') {
    tool.outputSchema = STATE_OUTPUT_SCHEMA;
  }
  return tool;
}

/**
 * The actions that default to the client's focused tab: the runner names that tab in the call, so the
 * answer (a failure's too) can say which tab it acted on. Not attach or release, whose missing tab_id
 * means something else (the person's active tab, every tab).
 */
export function actionsOnFocusedTab(actions: readonly AnyActionDefinition[]): Set<string> {
  return new Set(actions.filter((action) => action.tabBinding === 'focused').map((action) => action.name));
}
