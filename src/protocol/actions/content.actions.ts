import { StartHarRecordingEvent, StopHarRecordingEvent } from '../events/artifacts.events';
import {
  EvaluateJavaScriptEvent,
  ExtractContentEvent,
  FindElementsEvent,
  SavePdfEvent,
  SearchPageEvent,
} from '../events/content.events';
import { z } from 'zod';
import { defineEvent } from '../define-event';
import { TargetId } from '../events/navigation.events';
import { declareAction } from './declare-action';
import { ACTS, READS, WRITES_FILE } from './hints';
import { both, count, quoted } from './words';

const LoggedRequest = z.strictObject({
  /** For network_request, which gives its headers and bodies. */
  id: z.string(),
  url: z.string(),
  method: z.string(),
  resource_type: z.string(),
  status: z.number().int().nullable(),
  mime_type: z.string().nullable(),
  failure: z.string().nullable(),
  failed: z.boolean(),
  started_ms: z.number(),
  duration_ms: z.number().nullable(),
  encoded_bytes: z.number().nullable(),
  from_cache: z.boolean(),
});

/** The requests of a tab since its page last loaded (src/browser/har/request-log.ts keeps them). */
export const NetworkRequestsEvent = defineEvent('NetworkRequestsEvent', {
  payload: {
    target_id: TargetId,
    url_contains: z.string().min(1).optional().meta({ details: 'Only requests whose URL contains this text' }),
    resource_types: z.array(z.string().min(1)).default([]).describe('e.g. Document, Script, Fetch, XHR, Image').meta({
      details: 'Only these types: Document, Script, Stylesheet, Image, Fetch, XHR, Font, Media, WebSocket, Other',
    }),
    only_failed: z.boolean().default(false).meta({ details: 'Only requests that failed or were answered 4xx or 5xx' }),
    max_results: z.number().int().positive().max(500).default(100).meta({ details: 'The newest this many' }),
  },
  result: z.strictObject({
    requests: z.array(LoggedRequest),
    /** Requests that matched, before max_results. */
    total: z.number().int(),
    /** Requests of this page let go past the bound of 500 per tab. */
    dropped: z.number().int(),
  }),
  timeoutMs: 5_000,
  description:
    'The network requests of a tab since its page last loaded (at most the newest 500 are kept): method, URL, type, status, failure, timing and size, filtered by URL text, type and failure. Failed and 4xx/5xx requests are marked failed.',
});

const Header = z.strictObject({ name: z.string(), value: z.string() });
const RequestBody = z.strictObject({
  bytes: z.number().int(),
  text: z.string().nullable(),
  truncated: z.boolean(),
  path: z.string().nullable(),
  missing: z.string().nullable(),
});

/** One request's headers and bodies (src/browser/har/request-detail.ts reads them). */
export const NetworkRequestEvent = defineEvent('NetworkRequestEvent', {
  payload: {
    target_id: TargetId,
    request_id: z.string().min(1),
    to_file: z.boolean().default(false).meta({ details: 'Write the bodies whole to files instead of the answer' }),
    max_body_chars: z.number().int().positive().max(100_000).default(4_000),
  },
  result: LoggedRequest.extend({
    request_headers: z.array(Header),
    /** Null until the response comes. */
    response_headers: z.array(Header).nullable(),
    /** Null when the request sent none. */
    request_body: RequestBody.nullable(),
    /** Null for a redirect hop and a request that failed before a response. */
    response_body: RequestBody.nullable(),
  }),
  timeoutMs: 10_000,
  description:
    "One network request of a tab's page with its headers and bodies, secrets replaced (cookies and authorization always; the config's sensitive_data values everywhere). A text body comes in the answer up to max_body_chars; to_file writes both bodies whole to files (the only way for a binary one). Bodies stay readable while the browser holds them (about 100 kB each, 1 MB a tab).",
});

/** The console's levels, the most serious first (DevTools' names: `warning`, not `warn`). */
export const CONSOLE_LEVELS = ['error', 'warning', 'info', 'log', 'debug'] as const;
export type ConsoleLevel = (typeof CONSOLE_LEVELS)[number];

const LoggedConsoleMessage = z.strictObject({
  level: z.enum(CONSOLE_LEVELS),
  source: z.enum(['console', 'exception', 'browser']),
  text: z.string(),
  url: z.string().nullable(),
  line: z.number().int().nullable(),
  column: z.number().int().nullable(),
  stack: z.string().nullable(),
});

/** The console of a tab since its page last loaded (src/browser/console/console-log.ts keeps it). */
export const ConsoleMessagesEvent = defineEvent('ConsoleMessagesEvent', {
  payload: {
    target_id: TargetId,
    levels: z
      .array(z.enum(CONSOLE_LEVELS))
      .default([])
      .meta({ details: 'Only these levels: error, warning, info, log, debug (all when empty)' }),
    text_contains: z.string().min(1).optional().meta({ details: 'Only messages whose text contains this (any case)' }),
    since_mark: z
      .number()
      .int()
      .nonnegative()
      .optional()
      .describe("An earlier answer's mark: only newer ones")
      .meta({ details: "Only messages logged after this mark: an earlier answer's mark" }),
    max_results: z.number().int().positive().max(500).default(100).meta({ details: 'The newest this many' }),
  },
  result: z.strictObject({
    messages: z.array(LoggedConsoleMessage),
    /** Messages that matched, before max_results. */
    total: z.number().int(),
    /** Messages of this page let go past the bound of 500 per tab. */
    dropped: z.number().int(),
    /** The newest message so far, to pass as since_mark next time. */
    mark: z.number().int(),
  }),
  timeoutMs: 5_000,
  description:
    "The console of a tab since its page last loaded (at most the newest 500 messages are kept): console calls, uncaught exceptions and unhandled rejections (with their stack), and the browser's own messages such as failed loads; each with its level, text (cut at 2,000 characters), and where it came from (URL, 1-based line and column). Filtered by level and text; since_mark with an earlier answer's mark gives only what came after it.",
});

/** Reading the content without a model, the files made of it, and script in the page. */
export const CONTENT_ACTIONS = [
  declareAction(ExtractContentEvent, {
    name: 'extract',
    title: 'Page as markdown',
    summary: 'The page as markdown, in parts (start_from_char).',
    category: 'content',
    hints: READS,
    tabGate: 'read',
    onlyReads: true,
    panel: {
      label: 'Extract content',
      success: () => 'extracted the content',
      activity: () => both('extracting the content', 'extracted the content'),
    },
    mcp: { answer: 'pages' },
  }),
  declareAction(SearchPageEvent, {
    name: 'search_page',
    title: 'Search page text',
    summary: 'Find text or a regex in the page text, with context.',
    category: 'content',
    hints: READS,
    notForAgent: true,
    tabGate: 'read',
    onlyReads: true,
    panel: {
      label: 'Search the page text',
      success: (p, r) => `${count(r.total, 'match', 'matches')} for ${quoted(p.pattern)}`,
      activity: (p) =>
        both(`searching the page for ${quoted(p.pattern)}`, `searched the page for ${quoted(p.pattern)}`),
    },
  }),
  declareAction(FindElementsEvent, {
    name: 'find_elements',
    title: 'Find by CSS',
    summary: 'Matches of a CSS selector, with their index and attributes.',
    category: 'content',
    hints: READS,
    notForAgent: true,
    tabGate: 'read',
    onlyReads: true,
    panel: {
      label: 'Find elements by CSS',
      success: (p, r) => `${count(r.elements.length, 'element')} match ${quoted(p.selector)}`,
      activity: (p) => both(`finding ${quoted(p.selector)}`, `found ${quoted(p.selector)}`),
    },
  }),
  declareAction(SavePdfEvent, {
    name: 'save_as_pdf',
    title: 'Save as PDF',
    summary: 'Print the page to a PDF file.',
    category: 'files',
    // A file for a program or the person; the agent's runs do not print (agent.exclude_actions gives it back).
    notForAgent: true,
    hints: WRITES_FILE,
    tabGate: 'read',
    panel: {
      label: 'Save as PDF',
      success: (_p, r) => `saved the page as a PDF${r.path === '' ? '' : `: ${r.path}`}`,
      activity: () => both('saving the page as a PDF', 'saved the page as a PDF'),
    },
    mcp: { answer: 'pdf' },
  }),
  // The network traffic of every controlled tab, not one tab's: past the tab gate like the storage state.
  declareAction(StartHarRecordingEvent, {
    name: 'start_har',
    personPower: 'record_traffic',
    title: 'Start HAR',
    summary: 'Record the network to a HAR file until stop_har.',
    category: 'files',
    hints: WRITES_FILE,
    notForAgent: true,
    panel: {
      label: 'Start HAR',
      success: (_p, r) => `recording the network to ${r.path}`,
      activity: () => both('starting a HAR recording', 'started a HAR recording'),
    },
  }),
  declareAction(StopHarRecordingEvent, {
    name: 'stop_har',
    title: 'Stop HAR',
    summary: 'Links the file.',
    category: 'files',
    hints: WRITES_FILE,
    notForAgent: true,
    panel: {
      label: 'Stop HAR',
      success: (_p, r) => `recorded ${count(r.entries, 'request')} to ${r.path}`,
      activity: () => both('finishing the HAR recording', 'finished the HAR recording'),
    },
    mcp: { answer: 'har' },
  }),
  declareAction(EvaluateJavaScriptEvent, {
    name: 'evaluate',
    title: 'Run JavaScript',
    summary: 'Run JavaScript in the page; returns its JSON value.',
    category: 'content',
    hints: ACTS,
    tabGate: 'read',
    risk: 'page_script',
    panel: {
      label: 'Run JavaScript',
      success: () => 'ran the script',
      activity: () => both('running a script in the page', 'ran a script in the page'),
    },
  }),
  declareAction(NetworkRequestsEvent, {
    name: 'network_requests',
    title: 'Network requests',
    summary: "The tab's network requests since its page loaded.",
    category: 'content',
    hints: READS,
    notForAgent: true,
    tabGate: 'read',
    onlyReads: true,
    panel: {
      label: 'List network requests',
      success: (_p, r) =>
        `${count(r.total, 'request')}, ${count(r.requests.filter((request) => request.failed).length, 'failure')} among the newest ${r.requests.length}`,
      activity: () => both('listing the network requests', 'listed the network requests'),
    },
    mcp: { answer: 'network' },
  }),
  declareAction(NetworkRequestEvent, {
    name: 'network_request',
    notForAgent: true,
    title: 'One network request',
    summary: 'Headers and bodies of one of network_requests (to_file: whole or binary bodies).',
    category: 'content',
    // One declaration for both: honest for to_file, which writes files.
    hints: WRITES_FILE,
    tabGate: 'read',
    onlyReads: true,
    panel: {
      label: 'Read a network request',
      success: (_p, r) => `${r.method} ${r.url}: ${r.status ?? 'no answer'}`,
      activity: () => both('reading a network request', 'read a network request'),
    },
  }),
  declareAction(ConsoleMessagesEvent, {
    name: 'console_messages',
    title: 'Console messages',
    summary: "The tab's console messages since its page loaded.",
    category: 'content',
    hints: READS,
    notForAgent: true,
    tabGate: 'read',
    onlyReads: true,
    panel: {
      label: 'List console messages',
      success: (_p, r) =>
        `${count(r.total, 'message')}, ${count(r.messages.filter((message) => message.level === 'error').length, 'error')} among the newest ${r.messages.length}`,
      activity: () => both('listing the console messages', 'listed the console messages'),
    },
    mcp: { answer: 'console' },
  }),
] as const;
