import { z } from 'zod';
import { defineEvent } from '../define-event';
import { OutputFileName } from '../output-file-name';
import { TargetId } from './navigation.events';

/** Reading a page's content without a model: markdown, a text search, a CSS query; and running script. */
export const ExtractContentEvent = defineEvent('ExtractContentEvent', {
  payload: {
    target_id: TargetId,
    query: z
      .string()
      .optional()
      .describe('Echoed back; not a filter')
      .meta({ details: 'What you are looking for (echoed back; the content is not filtered)' }),
    extract_links: z.boolean().default(true),
    extract_images: z.boolean().default(false),
    start_from_char: z.number().int().min(0).default(0),
    max_chars: z.number().int().positive().max(1_000_000).default(100_000),
  },
  result: z.strictObject({
    query: z.string().optional(),
    url: z.string(),
    title: z.string(),
    markdown: z.string(),
    total_chars: z.number(),
    start_from_char: z.number(),
    next_start_char: z.number().nullable(),
  }),
  timeoutMs: 30_000,
  description:
    'The page content as markdown (no model involved), 100,000 characters at a time. A long page comes back in parts (start_from_char) or, past the MCP answer budget, as a linked file.',
});

export const SearchPageEvent = defineEvent('SearchPageEvent', {
  payload: {
    target_id: TargetId,
    pattern: z.string().min(1),
    regex: z.boolean().default(false),
    case_sensitive: z.boolean().default(false),
    context_chars: z.number().int().min(0).max(2000).default(150),
    css_scope: z
      .string()
      .optional()
      .describe('CSS selector to search in')
      .meta({ details: 'Search only inside the first element this CSS selector matches' }),
    max_results: z.number().int().positive().max(1000).default(25),
  },
  result: z.strictObject({
    matches: z.array(z.strictObject({ match: z.string(), context: z.string(), element_path: z.string() })),
    total: z.number(),
  }),
  timeoutMs: 15_000,
  description: 'Find text on the page (literal or regex), with context around each match.',
});

export const FindElementsEvent = defineEvent('FindElementsEvent', {
  payload: {
    target_id: TargetId,
    selector: z.string().min(1).meta({
      details:
        'A CSS selector, or a flow locator: `locator=` and its JSON ({"role","name"}, {"label"}, {"text"}, {"test_id"} or {"css"}; docs/flows.md)',
    }),
    attributes: z.array(z.string()).default([]),
    max_results: z.number().int().positive().max(1000).default(50),
    include_text: z.boolean().default(true),
  },
  result: z.strictObject({
    elements: z.array(
      z.strictObject({
        tag: z.string(),
        attributes: z.record(z.string(), z.string()),
        children: z.number(),
        text: z.string().optional(),
        index: z.number().nullable(),
      }),
    ),
    total: z.number(),
  }),
  timeoutMs: 15_000,
  description: 'Elements matching a CSS selector, with the attributes asked for; indexed ones carry their index.',
});

export const EvaluateJavaScriptEvent = defineEvent('EvaluateJavaScriptEvent', {
  payload: { target_id: TargetId, code: z.string().min(1) },
  result: z.strictObject({ value: z.unknown() }),
  timeoutMs: 30_000,
  description:
    "Run JavaScript in the page's own world and return its (JSON) value. Off unless the config sets allow_evaluate.",
});

export const PaperFormat = z.enum(['Letter', 'Legal', 'A4', 'A3', 'Tabloid']);

export const SavePdfEvent = defineEvent('SavePdfEvent', {
  payload: {
    target_id: TargetId,
    file_name: OutputFileName.default('page.pdf'),
    print_background: z.boolean().default(true),
    landscape: z.boolean().default(false),
    scale: z.number().min(0.1).max(2).default(1),
    paper_format: PaperFormat.default('Letter'),
    display_header_footer: z.boolean().default(true),
    header_template: z.string().optional(),
    footer_template: z.string().optional(),
  },
  result: z.strictObject({ path: z.string(), bytes: z.number() }),
  timeoutMs: 30_000,
  description: 'Print the page to a PDF file. The MCP answer links the file.',
});
