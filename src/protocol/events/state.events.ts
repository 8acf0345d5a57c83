import { z } from 'zod';
import { defineEvent } from '../define-event';
import { OutputFileName } from '../output-file-name';
import { regexProblem } from '../../shared/regex-problem';
import { TargetId } from './navigation.events';

export const TabStatusSchema = z.enum(['ok', 'crashed', 'unresponsive', 'needs_person', 'solving']);

export const Box = z.strictObject({ x: z.number(), y: z.number(), width: z.number(), height: z.number() });

/**
 * One indexed element as a client sees it: the selector entry's public face, in the protocol's
 * snake_case and without what only the core may use (its frame's session and world, its in-page id).
 */
export const ElementSummary = z.strictObject({
  index: z.number().int().positive(),
  tag: z.string(),
  role: z.string().nullable(),
  name: z.string(),
  attributes: z.record(z.string(), z.string()),
  /** Top-level viewport box in CSS px when the state was taken. */
  box: Box,
  is_new: z.boolean(),
});
export type ElementSummary = z.infer<typeof ElementSummary>;

export const PageInfo = z.strictObject({
  viewport_width: z.number(),
  viewport_height: z.number(),
  page_width: z.number(),
  page_height: z.number(),
  scroll_x: z.number(),
  scroll_y: z.number(),
  pixels_above: z.number(),
  pixels_below: z.number(),
  pixels_left: z.number(),
  pixels_right: z.number(),
});

/**
 * What a `changes_only` state says besides its text: the changes since the client's last state of the
 * tab, or `full` (the whole state) when there is nothing to compare with, and why.
 */
export const StateChanges = z.strictObject({
  full: z.boolean(),
  /** Why the state is whole rather than changes (no earlier state, a new page...); null for changes. */
  reason: z.string().nullable(),
  added: z.array(z.number().int()),
  removed: z.array(z.number().int()),
  changed: z.array(z.number().int()),
});
export type StateChanges = z.infer<typeof StateChanges>;

export const BrowserStateSummary = z.strictObject({
  target_id: z.string(),
  url: z.string(),
  title: z.string(),
  tabs: z.array(
    z.strictObject({
      target_id: z.string(),
      url: z.string(),
      title: z.string(),
      /** What the guard watchdogs say of the tab: ok, crashed, unresponsive, needs_person (a challenge), solving. */
      status: TabStatusSchema,
      status_reason: z.string().nullable(),
    }),
  ),
  page_info: PageInfo,
  /** The LLM form of the page (browser-use's format, fixed). */
  text: z.string(),
  elements: z.array(ElementSummary),
  truncated: z.boolean(),
  screenshot: z.string().nullable(),
  screenshot_format: z.enum(['png', 'jpeg', 'webp']).nullable(),
  closed_popup_messages: z.array(z.string()),
  /**
   * The JavaScript dialog open in this tab, waiting for handle_dialog (only with dialogs.auto_answer
   * off): the page behind it is blocked, so the state then has no elements.
   */
  open_dialog: z
    .strictObject({
      dialog_type: z.enum(['alert', 'confirm', 'prompt', 'beforeunload']),
      message: z.string(),
      default_prompt: z.string().nullable(),
      url: z.string(),
    })
    .nullable(),
  pending_network_requests: z.array(
    z.strictObject({ url: z.string(), method: z.string(), loading_duration_ms: z.number(), resource_type: z.string() }),
  ),
  pagination_buttons: z.array(
    z.strictObject({
      button_type: z.enum(['next', 'prev', 'first', 'last', 'page_number']),
      index: z.number().int(),
      text: z.string(),
      is_disabled: z.boolean(),
    }),
  ),
  browser_errors: z.array(z.string()),
  /** Errors the tab's console received since its last state (console_messages lists them). */
  console_errors: z.number().int(),
  /** The files this session downloaded (full paths), which upload_file may send again. */
  downloaded_files: z.array(z.string()),
  is_pdf_viewer: z.boolean(),
  recent_events: z.string().nullable(),
  page_stats: z.strictObject({
    elements: z.number(),
    interactive: z.number(),
    iframes: z.number(),
    shadow_roots: z.number(),
    images: z.number(),
    links: z.number(),
  }),
  timings: z.strictObject({
    total_ms: z.number(),
    dom_ms: z.number(),
    in_page_ms: z.number(),
    screenshot_ms: z.number(),
  }),
  /** Set when the state could not be taken in time: the state is then not actionable (no elements). */
  state_error: z.string().nullable(),
  /**
   * The document the indexes belong to: a new number when the tab shows a new document (its numbering
   * starts anew); null when the state holds no captured page (a dialog, a capture that failed).
   */
  document: z.number().int().nullable(),
  /**
   * Only with changes_only: what changed since this client's last state of the tab. The text then lists
   * the added and changed elements' lines and the removed indexes, and elements holds the added and
   * changed ones; unless `full`, when the state is whole.
   */
  changes: StateChanges.nullable(),
});
export type BrowserStateSummary = z.infer<typeof BrowserStateSummary>;

export const BrowserStateRequestEvent = defineEvent('BrowserStateRequestEvent', {
  payload: {
    include_dom: z.boolean().default(true).meta({ details: 'false: only the tabs and the page geometry' }),
    include_screenshot: z.boolean().default(false),
    include_recent_events: z.boolean().default(false),
    /** A background tab is looked at without bringing it forward. */
    target_id: TargetId,
    viewport_expansion: z
      .number()
      .int()
      .min(-1)
      .optional()
      .describe('px past viewport; -1: whole page')
      .meta({ details: "CSS px beyond the viewport; -1 for the whole page; default the config's" }),
    max_chars: z
      .number()
      .int()
      .min(0)
      .optional()
      .describe('0: no limit')
      .meta({ details: "Character budget of the text; 0 for none; default the config's" }),
    changes_only: z.boolean().default(false).meta({
      details:
        "Only what changed since this client's last state of the tab: added and changed elements' lines, removed indexes; the whole state (changes.full) when there is no earlier state or the page was replaced",
    }),
  },
  refine: (payload, ctx) => {
    if (payload.changes_only && !payload.include_dom) {
      ctx.addIssue({ code: 'custom', path: ['changes_only'], message: 'changes_only needs include_dom' });
    }
  },
  result: BrowserStateSummary,
  timeoutMs: 30_000,
  description:
    'The page as the model sees it: text with indexed elements ([n]), the elements, tabs, page geometry; a screenshot on request. Call it before acting and after the page changes: click, input and the other element tools take the [n] indexes it shows. With changes_only, only what changed since the last state this client took of the tab (added and changed elements with their lines, removed indexes), or the whole state marked changes.full when the page was replaced. The MCP answer names the tab; a page longer than the answer budget is written to a file and linked.',
});

/**
 * Asked by the state of the console's keeper: how many errors the tab's console received since the
 * tab's last state (uncaught exceptions, console.error, failed loads). Asking starts the count anew.
 */
export const ConsoleErrorsSinceStateEvent = defineEvent('ConsoleErrorsSinceStateEvent', {
  payload: { target_id: z.string() },
  result: z.strictObject({ errors: z.number().int() }),
  timeoutMs: 2_000,
});

export const ScreenshotFormat = z.enum(['png', 'jpeg', 'webp']);

export const ScreenshotEvent = defineEvent('ScreenshotEvent', {
  payload: {
    full_page: z.boolean().default(false),
    clip: z
      .strictObject({ x: z.number(), y: z.number(), width: z.number().positive(), height: z.number().positive() })
      .optional()
      .meta({ details: 'A part of the page, in page CSS px' }),
    format: ScreenshotFormat.default('png'),
    quality: z.number().int().min(0).max(100).optional().meta({ details: '0-100, for jpeg and webp' }),
    target_id: TargetId,
    file_name: OutputFileName.optional().describe('Also save it as a file').meta({
      details:
        'Also save it under this name (Node: under output_dir; the extension: under Downloads/tabpilot/); an existing file is kept and the new one gets a numbered name',
    }),
    max_side: z
      .number()
      .int()
      .positive()
      .optional()
      .meta({ details: 'Scale the image down so neither side has more pixels than this' }),
    max_pixels: z
      .number()
      .int()
      .positive()
      .optional()
      .meta({ details: 'Scale the image down to at most this many pixels in all (width × height)' }),
  },
  result: z.strictObject({
    data: z.string(),
    format: ScreenshotFormat,
    /** What was captured, in CSS px. */
    width: z.number(),
    height: z.number(),
    /** The image's size in pixels (the CSS size times the device pixel ratio, scaled to the bounds). */
    image_width: z.number(),
    image_height: z.number(),
    path: z.string().nullable(),
  }),
  timeoutMs: 15_000,
  description:
    'A screenshot of a tab (viewport, full page or a clip); saved as a file when file_name is given. MCP returns it as an image, scaled to at most 1568 px on the long side and 1.15 megapixels; format jpeg gives a smaller answer.',
});

/** Outlines an element of the latest state in the page, for a person to see. */
export const HighlightElementEvent = defineEvent('HighlightElementEvent', {
  payload: {
    target_id: TargetId,
    index: z
      .number()
      .int()
      .positive()
      .optional()
      .meta({ details: 'An element of the latest state; none clears the outline' }),
  },
  result: z.strictObject({ highlighted: z.number().int().nullable() }),
  timeoutMs: 10_000,
  description: 'Outline an element of the latest state in the page for a person to see; no index clears it.',
});

/** One match of `find`: where it is, and the index an action takes it by. */
export const FoundMatch = z.strictObject({
  match: z.string().describe('The matched text (whitespace collapsed)'),
  index: z
    .number()
    .int()
    .describe(
      'The innermost control around the match, else the smallest element holding it: click, hover, scroll and the other element actions take it',
    ),
  tag: z.string(),
  context: z.string().describe('The match with about 40 characters either side, whitespace collapsed'),
  visible: z.boolean().describe("Whether the element shows in the tab's viewport now"),
  frame: z
    .string()
    .nullable()
    .describe("The URL of the iframe's document the match is in; null for the tab's own document"),
});

export const FindEvent = defineEvent('FindEvent', {
  payload: {
    target_id: TargetId,
    text: z.string().min(1).optional().meta({ details: 'Plain text to find (give text or regex)' }),
    regex: z
      .string()
      .min(1)
      .optional()
      .describe('JS regex without slashes, instead of text')
      .meta({ details: 'A JavaScript regular expression to find, without slashes (give text or regex)' }),
    case_sensitive: z.boolean().default(false),
    max_results: z
      .number()
      .int()
      .positive()
      .max(200)
      .default(20)
      .meta({ details: 'Matches returned; all are counted in total' }),
    scroll_to: z
      .number()
      .int()
      .positive()
      .optional()
      .describe('Scroll match n into view')
      .meta({ details: 'Scroll match n (1-based) into view first' }),
  },
  refine: (payload, ctx) => {
    if ((payload.text === undefined) === (payload.regex === undefined)) {
      ctx.addIssue({ code: 'custom', path: ['text'], message: 'give exactly one of text and regex' });
      return;
    }
    const problem = payload.regex === undefined ? null : regexProblem(payload.regex);
    if (problem !== null) {
      ctx.addIssue({ code: 'custom', path: ['regex'], message: `not a valid regular expression: ${problem}` });
    }
    if (payload.scroll_to !== undefined && payload.scroll_to > payload.max_results) {
      ctx.addIssue({
        code: 'custom',
        path: ['scroll_to'],
        message: 'scroll_to must be a returned match (at most max_results)',
      });
    }
  },
  result: z.strictObject({ matches: z.array(FoundMatch), total: z.number().int() }),
  timeoutMs: 15_000,
  description:
    "Find text or a regular expression in the whole page (below the fold and in iframes too; hidden text is not matched): each match's element index, context and whether it is in view, optionally scrolling one into view. Each match's element index is one click, hover, scroll and the other element tools take (until the next state no longer holds it); scroll_to n brings match n into view.",
});
