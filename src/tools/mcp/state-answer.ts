import { z } from 'zod';
import type { StateSummary } from '../actions';
import { previewOf, type OutputFiles } from './answer-budget';
import { modelSchema } from '../model-schema';
import type { McpContent, McpObjectSchema, McpToolResult } from './mcp-shapes';

/**
 * What `state` returns as structuredContent. Self-sufficient on purpose: some clients (Claude Code,
 * Cursor) give the model only the structured content when there is one, others only the text, so each
 * carries the page text; the elements' boxes and the timings stay out to keep the answer small. Its
 * schema goes out in every tools/list, so the fields' words are details a model is not sent.
 */
export const McpState = z.strictObject({
  tab_id: z.string(),
  url: z.string(),
  title: z.string(),
  text: z
    .string()
    .meta({ details: 'The page as the model sees it: [n] marks an element click, input and the rest take' }),
  truncated: z.boolean().meta({ details: 'The text was cut at the character budget (max_chars); scroll or raise it' }),
  saved_to: z
    .string()
    .nullable()
    .meta({ details: 'A file:// link to the whole text when it was longer than the answer' }),
  elements: z.number().int().meta({ details: 'How many elements have an index' }),
  tabs: z.array(
    z.strictObject({
      tab_id: z.string(),
      url: z.string(),
      title: z.string(),
      status: z.string().describe('ok, crashed, unresponsive, needs_person, solving'),
    }),
  ),
  dialogs: z.array(z.string()).meta({ details: 'JavaScript dialogs answered since the last state' }),
  browser_errors: z.array(z.string()),
  console_errors: z
    .number()
    .int()
    .meta({ details: "Errors in the tab's console since the last state: console_messages lists them" }),
  state_error: z.string().nullable().meta({ details: 'Why the page gave no usable state (then there are no indexes)' }),
});
export type McpState = z.infer<typeof McpState>;

export const STATE_OUTPUT_SCHEMA: McpObjectSchema = modelSchema(z.toJSONSchema(McpState));

/**
 * The state as an answer: a few header lines naming the tab, then the LLM text. Past the answer budget
 * the whole text goes to a file, and the answer carries its beginning and the link.
 */
export async function stateAnswer(state: StateSummary, budget: number, files: OutputFiles): Promise<McpToolResult> {
  const header = stateHeader(state);
  let text = state.text;
  let savedTo: string | null = null;
  const content: McpContent[] = [];
  if (header.length + text.length > budget) {
    const link = await files.write(`state-${state.tab_id}.txt`, { text: state.text }, 'text/plain');
    savedTo = link.uri;
    const preview = previewOf(text, Math.max(0, budget - header.length - 200));
    text = `${preview}\n... ${state.text.length - preview.length} more characters: the whole page text is in ${link.uri}`;
    content.push({ type: 'text', text: `${header}${text}` }, link);
  } else {
    content.push({ type: 'text', text: `${header}${text}` });
  }
  const structured: McpState = {
    tab_id: state.tab_id,
    url: state.url,
    title: state.title,
    text,
    truncated: state.truncated,
    saved_to: savedTo,
    elements: state.elements.length,
    // Named field by field: the browser may add fields (an owner, a reason) the schema does not list.
    tabs: state.tabs.map((tab) => ({ tab_id: tab.tab_id, url: tab.url, title: tab.title, status: tab.status })),
    dialogs: state.closed_popup_messages,
    browser_errors: state.browser_errors,
    console_errors: state.console_errors,
    state_error: state.state_error,
  };
  return { content, structuredContent: structured };
}

function stateHeader(state: StateSummary): string {
  const lines = [`Tab ${state.tab_id}: ${state.title === '' ? '(no title)' : state.title} - ${state.url}`];
  const others = state.tabs.filter((tab) => tab.tab_id !== state.tab_id);
  if (others.length > 0) {
    lines.push(`Other tabs: ${others.map((tab) => `${tab.tab_id} ${JSON.stringify(tab.title)}`).join(', ')}`);
  }
  if (state.changes?.full === true) {
    lines.push(`The whole page, not changes: ${state.changes.reason ?? 'nothing to compare with'}.`);
  }
  if (state.state_error !== null) {
    lines.push(`No usable state: ${state.state_error}. Wait a moment and call state again.`);
  }
  if (state.closed_popup_messages.length > 0) {
    lines.push(`Dialogs answered since the last state: ${state.closed_popup_messages.join('; ')}`);
  }
  if (state.browser_errors.length > 0) {
    lines.push(`Browser: ${state.browser_errors.join('; ')}`);
  }
  if (state.console_errors > 0) {
    lines.push(
      `Console: ${state.console_errors} error${state.console_errors === 1 ? '' : 's'} since the last state (console_messages with levels ["error"] lists them)`,
    );
  }
  if (state.pending_network_requests.length > 0) {
    lines.push(`Still loading ${state.pending_network_requests.length} request(s)`);
  }
  if (state.truncated) {
    lines.push('The text is cut at its character budget: scroll, or call state with a larger max_chars.');
  }
  return `${lines.join('\n')}\n\n`;
}
