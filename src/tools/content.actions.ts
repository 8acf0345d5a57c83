import { z } from 'zod';
import {
  EvaluateJavaScriptEvent,
  ExtractContentEvent,
  FindElementsEvent,
  PaperFormat,
  SavePdfEvent,
  SearchPageEvent,
} from '../browser/events/content.events';
import { NavigateToUrlEvent } from '../browser/events/navigation.events';
import { resolveTabId } from '../browser/session-verbs';
import type { BrowserSession } from '../browser/session';
import { defineAction, type ActionContext, type AnyActionDefinition } from './registry';
import { OutputFileName } from './output-file-name';

const TabId = z.string().min(1).max(64).describe('A tab id from "tabs"; default the focused tab');

function source(ctx: ActionContext): { source: string } {
  return { source: `${ctx.client.kind}:${ctx.client.id}` };
}

async function targetOf(session: BrowserSession, tabId: string | undefined): Promise<string> {
  return tabId === undefined ? session.focusedTargetId() : resolveTabId(session, tabId);
}

const SEARCH_ENGINES = {
  duckduckgo: (query: string) => `https://duckduckgo.com/?q=${encodeURIComponent(query)}`,
  google: (query: string) => `https://www.google.com/search?q=${encodeURIComponent(query)}&udm=14`,
  bing: (query: string) => `https://www.bing.com/search?q=${encodeURIComponent(query)}`,
} as const;

export const searchAction = defineAction({
  name: 'search',
  description: 'Search the web in the focused tab (DuckDuckGo by default).',
  params: z.strictObject({
    query: z.string().min(1),
    engine: z.enum(['duckduckgo', 'google', 'bing']).default('duckduckgo'),
    tab_id: TabId.optional(),
  }),
  run: async (params, ctx) => {
    const result = await ctx.session.bus.emit(
      NavigateToUrlEvent,
      {
        url: SEARCH_ENGINES[params.engine](params.query),
        target_id: params.tab_id === undefined ? null : resolveTabId(ctx.session, params.tab_id),
      },
      source(ctx),
    );
    return { tab_id: ctx.session.tabIdOf(result?.target_id ?? ''), url: result?.url ?? '' };
  },
});

export const extractAction = defineAction({
  name: 'extract',
  description: 'The page content as markdown (no model involved), 100,000 characters at a time.',
  params: z.strictObject({
    query: z.string().optional().describe('What you are looking for (echoed back; the content is not filtered)'),
    extract_links: z.boolean().default(true),
    extract_images: z.boolean().default(false),
    start_from_char: z.number().int().min(0).default(0),
    tab_id: TabId.optional(),
  }),
  run: async (params, ctx) => {
    const result = await ctx.session.bus.emit(
      ExtractContentEvent,
      {
        target_id: await targetOf(ctx.session, params.tab_id),
        extract_links: params.extract_links,
        extract_images: params.extract_images,
        start_from_char: params.start_from_char,
      },
      source(ctx),
    );
    return params.query === undefined ? result : { query: params.query, ...result };
  },
});

export const searchPageAction = defineAction({
  name: 'search_page',
  description: 'Find text on the page (literal or regex), with context around each match.',
  params: z.strictObject({
    pattern: z.string().min(1),
    regex: z.boolean().default(false),
    case_sensitive: z.boolean().default(false),
    context_chars: z.number().int().min(0).max(2000).default(150),
    css_scope: z.string().optional(),
    max_results: z.number().int().positive().max(1000).default(25),
    tab_id: TabId.optional(),
  }),
  run: async (params, ctx) =>
    ctx.session.bus.emit(
      SearchPageEvent,
      {
        target_id: await targetOf(ctx.session, params.tab_id),
        pattern: params.pattern,
        regex: params.regex,
        case_sensitive: params.case_sensitive,
        context_chars: params.context_chars,
        css_scope: params.css_scope ?? null,
        max_results: params.max_results,
      },
      source(ctx),
    ),
});

export const findElementsAction = defineAction({
  name: 'find_elements',
  description: 'Elements matching a CSS selector, with the attributes asked for; indexed ones carry their index.',
  params: z.strictObject({
    selector: z.string().min(1),
    attributes: z.array(z.string()).default([]),
    max_results: z.number().int().positive().max(1000).default(50),
    include_text: z.boolean().default(true),
    tab_id: TabId.optional(),
  }),
  run: async (params, ctx) => {
    const result = await ctx.session.bus.emit(
      FindElementsEvent,
      {
        target_id: await targetOf(ctx.session, params.tab_id),
        selector: params.selector,
        attributes: params.attributes,
        max_results: params.max_results,
        include_text: params.include_text,
      },
      source(ctx),
    );
    return {
      total: result?.total ?? 0,
      elements: (result?.elements ?? []).map(({ id: _inWorldId, ...element }) => element),
    };
  },
});

export const saveAsPdfAction = defineAction({
  name: 'save_as_pdf',
  description: 'Print the page to a PDF file.',
  params: z.strictObject({
    file_name: OutputFileName.default('page.pdf'),
    print_background: z.boolean().default(true),
    landscape: z.boolean().default(false),
    scale: z.number().min(0.1).max(2).default(1),
    paper_format: PaperFormat.default('Letter'),
    display_header_footer: z.boolean().default(true),
    header_template: z.string().optional(),
    footer_template: z.string().optional(),
    tab_id: TabId.optional(),
  }),
  run: async (params, ctx) =>
    ctx.session.bus.emit(
      SavePdfEvent,
      {
        target_id: await targetOf(ctx.session, params.tab_id),
        file_name: params.file_name,
        print_background: params.print_background,
        landscape: params.landscape,
        scale: params.scale,
        paper_format: params.paper_format,
        display_header_footer: params.display_header_footer,
        header_template: params.header_template ?? null,
        footer_template: params.footer_template ?? null,
      },
      source(ctx),
    ),
});

export const evaluateAction = defineAction({
  name: 'evaluate',
  description:
    "Run JavaScript in the page's own world and return its (JSON) value. Off unless the config sets allow_evaluate.",
  params: z.strictObject({ code: z.string().min(1), tab_id: TabId.optional() }),
  run: async (params, ctx) =>
    ctx.session.bus.emit(
      EvaluateJavaScriptEvent,
      { target_id: await targetOf(ctx.session, params.tab_id), code: params.code },
      source(ctx),
    ),
});

export const CONTENT_ACTIONS: readonly AnyActionDefinition[] = [
  searchAction,
  extractAction,
  searchPageAction,
  findElementsAction,
  saveAsPdfAction,
  evaluateAction,
];
