import type { McpAnswer } from '../../protocol/actions';
import type { StateSummary } from '../actions';
import { previewOf, type OutputFiles } from './answer-budget';
import { consoleText, networkText } from './log-answers';
import type { McpContent, McpToolResult } from './mcp-shapes';
import { stateAnswer } from './state-answer';
import { isRecord } from '../../shared/narrow';

const MIME: Readonly<Record<string, string>> = { png: 'image/png', jpeg: 'image/jpeg', webp: 'image/webp' };

export interface AnswerContext {
  action: string;
  /** How the action's declaration says its answer is put. */
  answer: McpAnswer;
  /** The tab the action acted on, when the runner knows it before the answer. */
  tabId: string | undefined;
  budget: number;
  files: OutputFiles;
}

/** A protocol result as an MCP answer: short text that names the tab, images as images, big data as files. */
export async function answerOf(result: unknown, ctx: AnswerContext): Promise<McpToolResult> {
  const record = isRecord(result) ? result : {};
  const tabId = typeof record['tab_id'] === 'string' ? record['tab_id'] : ctx.tabId;
  const where = tabId === undefined ? '' : `Tab ${tabId}: `;
  switch (ctx.answer) {
    case 'state':
      return stateAnswer(result as StateSummary, ctx.budget, ctx.files);
    case 'screenshot':
      return screenshotAnswer(record, where, ctx);
    case 'pdf':
      return {
        content: [
          {
            type: 'text',
            text: `${where}saved as PDF (${String(record['bytes'])} bytes) at ${String(record['path'])}`,
          },
          ctx.files.linkTo(String(record['path']), 'application/pdf'),
        ],
      };
    case 'har':
      return {
        content: [
          {
            type: 'text',
            text: `HAR recorded: ${String(record['entries'])} entries in ${String(record['path'])}`,
          },
          ctx.files.linkTo(String(record['path']), 'application/json'),
        ],
      };
    case 'pages':
      return bounded(extractText(record, where), ctx.action, ctx, 'text/markdown');
    case 'tab_list':
      return { content: [{ type: 'text', text: tabsText(record) }] };
    case 'step_picture': {
      const format = String(record['format']);
      return {
        content: [
          { type: 'text', text: `The page at step ${String(record['step'])} of run ${String(record['run_id'])}` },
          { type: 'image', data: String(record['data']), mimeType: MIME[format] ?? 'image/jpeg' },
        ],
      };
    }
    case 'navigation':
      return { content: [{ type: 'text', text: navigationLead(record, tabId) }] };
    case 'batch':
      return batchAnswer(record, ctx);
    case 'console':
      return bounded(consoleText(record, where), ctx.action, ctx, 'text/plain');
    case 'network':
      return bounded(networkText(record, where), ctx.action, ctx, 'text/plain');
    case 'fields':
      break;
  }
  const lead = `${where}${ctx.action} done.`;
  const rest = fieldLines(record);
  return bounded(rest === '' ? lead : `${lead}\n${rest}`, ctx.action, ctx, 'text/plain');
}

/**
 * A batch: where it stopped and why first (an isError answer, so a model cannot read past it), then one
 * line per step that ran, with its answer's fields.
 */
async function batchAnswer(record: Record<string, unknown>, ctx: AnswerContext): Promise<McpToolResult> {
  const steps = Array.isArray(record['steps']) ? record['steps'] : [];
  const lines = steps.map((step: unknown, index) => {
    const outcome = isRecord(step) ? step : {};
    const head = `${index + 1}. ${String(outcome['action'])}`;
    if (outcome['ok'] === false) {
      return `${head} failed: ${shown(outcome['error'])}`;
    }
    const result = outcome['result'];
    const fields = isRecord(result) ? fieldLines(result) : '';
    const failed = outcome['expectation_failed'];
    return `${head} done${typeof failed === 'string' ? `, but ${failed}` : ''}${fields === '' ? '' : `: ${fields.replaceAll('\n', '; ')}`}`;
  });
  const stoppedAt = record['stopped_at'];
  const lead =
    typeof stoppedAt === 'number'
      ? `batch stopped at step ${stoppedAt}: ${String(record['reason'])}`
      : `batch done: ${steps.length} steps, each held.`;
  const answer = await bounded([lead, ...lines].join('\n'), ctx.action, ctx, 'text/plain');
  return typeof stoppedAt === 'number' ? { ...answer, isError: true } : answer;
}

/** An answer past the budget goes to a file: its beginning stays in the answer, with the link. */
async function bounded(text: string, name: string, ctx: AnswerContext, mimeType: string): Promise<McpToolResult> {
  if (text.length <= ctx.budget) {
    return { content: [{ type: 'text', text }] };
  }
  const link = await ctx.files.write(`${name}.${mimeType === 'text/markdown' ? 'md' : 'txt'}`, { text }, mimeType);
  const preview = previewOf(text, ctx.budget - 200);
  return {
    content: [
      {
        type: 'text',
        text: `${preview}\n... ${text.length - preview.length} more characters: the whole answer is in ${link.uri}`,
      },
      link,
    ],
  };
}

function screenshotAnswer(record: Record<string, unknown>, where: string, ctx: AnswerContext): McpToolResult {
  const format = String(record['format']);
  const size = `${String(record['image_width'])}×${String(record['image_height'])} px`;
  const captured = `${String(record['width'])}×${String(record['height'])} CSS px`;
  const content: McpContent[] = [
    { type: 'text', text: `${where}screenshot of ${captured}, sent as a ${size} ${format}` },
    { type: 'image', data: String(record['data']), mimeType: MIME[format] ?? 'image/png' },
  ];
  if (typeof record['path'] === 'string') {
    content.push(ctx.files.linkTo(record['path'], MIME[format] ?? 'image/png'));
  }
  return { content };
}

function navigationLead(record: Record<string, unknown>, tabId: string | undefined): string {
  const status = record['loading_status'];
  const lead = `Tab ${tabId ?? '?'} is at ${String(record['url'])}`;
  return typeof status === 'string'
    ? `${lead} (${status}: it may still be loading). Call state to see the page.`
    : `${lead}. Call state to see the page.`;
}

function extractText(record: Record<string, unknown>, where: string): string {
  const next = record['next_start_char'];
  const tail =
    typeof next === 'number'
      ? `\n\n[${String(record['total_chars'])} characters in all: call extract with start_from_char ${next} for the rest]`
      : '';
  return `${where}${String(record['title'])} - ${String(record['url'])}\n\n${String(record['markdown'])}${tail}`;
}

function tabsText(record: Record<string, unknown>): string {
  const listed = record['tabs'];
  const tabs = (Array.isArray(listed) ? listed : []).filter(isRecord);
  if (tabs.length === 0) {
    return 'No tabs: navigate opens one.';
  }
  const lines = tabs.map((tab) => {
    const marks = [
      tab['focused'] === true ? 'focused' : undefined,
      tab['controlled'] === false ? 'not controlled' : undefined,
      typeof tab['owner'] === 'string' ? `owner ${tab['owner']}` : undefined,
    ].filter((mark) => mark !== undefined);
    const title = typeof tab['title'] === 'string' && tab['title'] !== '' ? tab['title'] : '(no title)';
    return `Tab ${String(tab['tab_id'])}: ${title} - ${String(tab['url'])}${marks.length > 0 ? ` (${marks.join(', ')})` : ''}`;
  });
  return lines.join('\n');
}

/** The result's fields other than the tab, one per line: `name: value`. */
function fieldLines(record: Record<string, unknown>): string {
  return Object.entries(record)
    .filter(([key, value]) => key !== 'tab_id' && value !== undefined && value !== null)
    .map(([key, value]) => `${key}: ${shown(value)}`)
    .join('\n');
}

/** A value for a `name: value` line: text as it is, coordinates to a tenth of a pixel, the rest as JSON. */
function shown(value: unknown): string {
  if (typeof value === 'string' && !value.includes('\n')) {
    return value;
  }
  if (typeof value === 'number' && !Number.isInteger(value)) {
    return String(Math.round(value * 10) / 10);
  }
  return JSON.stringify(value);
}
