import { z } from 'zod';
import {
  BrowserStateRequestEvent,
  ScreenshotEvent,
  ScreenshotFormat,
  type BrowserStateSummary,
} from '../browser/events/state.events';
import { resolveTabId } from '../browser/session-verbs';
import type { BrowserSession } from '../browser/session';
import { isTabpilotError } from '../shared/errors';
import { defineAction, type ActionContext, type AnyActionDefinition } from './registry';
import { OutputFileName } from './output-file-name';

const TabId = z.string().min(1).max(64).describe('A tab id from "tabs"; default the focused tab');

function source(ctx: ActionContext): { source: string } {
  return { source: `${ctx.client.kind}:${ctx.client.id}` };
}

async function targetOf(session: BrowserSession, tabId: string | undefined): Promise<string> {
  return tabId === undefined ? session.focusedTargetId() : resolveTabId(session, tabId);
}

/** What a state that could not be taken in time looks like: no elements, so nothing stale is acted on. */
export function nonActionableState(session: BrowserSession, targetId: string, error: string): BrowserStateSummary {
  const target = session.targets.target(targetId);
  return {
    tab_id: session.tabIdOf(targetId),
    url: target?.url ?? 'about:blank',
    title: target?.title ?? '',
    tabs: session.targets
      .pages()
      .map((page) => ({ tab_id: session.tabIdOf(page.targetId), url: page.url, title: page.title })),
    page_info: {
      viewport_width: 0,
      viewport_height: 0,
      page_width: 0,
      page_height: 0,
      scroll_x: 0,
      scroll_y: 0,
      pixels_above: 0,
      pixels_below: 0,
      pixels_left: 0,
      pixels_right: 0,
    },
    text: '',
    elements: [],
    truncated: false,
    screenshot: null,
    screenshot_format: null,
    closed_popup_messages: [],
    pending_network_requests: [],
    pagination_buttons: [],
    browser_errors: [error],
    downloaded_files: [],
    is_pdf_viewer: false,
    recent_events: null,
    page_stats: { elements: 0, interactive: 0, iframes: 0, shadow_roots: 0, images: 0, links: 0 },
    timings: { total_ms: 0, dom_ms: 0, in_page_ms: 0, screenshot_ms: 0 },
    state_error: `The page did not answer in time (${error}). The elements are not known: wait, then take a new state.`,
  };
}

export const stateAction = defineAction({
  name: 'state',
  description:
    'The page as the model sees it: text with indexed elements ([n]), the elements, tabs, page geometry; a screenshot on request.',
  params: z.strictObject({
    include_screenshot: z.boolean().default(false),
    tab_id: TabId.optional(),
    viewport_expansion: z
      .number()
      .int()
      .min(-1)
      .optional()
      .describe('CSS px beyond the viewport; -1 for the whole page'),
    max_chars: z.number().int().min(0).optional().describe('Character budget of the text; 0 for none'),
    include_recent_events: z.boolean().default(false),
  }),
  run: async (params, ctx) => {
    const targetId = await targetOf(ctx.session, params.tab_id);
    try {
      const summary = await ctx.session.bus.emit(
        BrowserStateRequestEvent,
        {
          include_screenshot: params.include_screenshot,
          include_recent_events: params.include_recent_events,
          target_id: targetId,
          viewport_expansion: params.viewport_expansion ?? null,
          max_chars: params.max_chars ?? null,
        },
        source(ctx),
      );
      return summary;
    } catch (error) {
      if (isTabpilotError(error) && error.code === 'TIMEOUT') {
        ctx.session.dom.forget(targetId);
        return nonActionableState(ctx.session, targetId, error.message);
      }
      throw error;
    }
  },
});

export const screenshotAction = defineAction({
  name: 'screenshot',
  description: 'A screenshot of a tab (viewport, full page or a clip); saved as a file when file_name is given.',
  params: z.strictObject({
    full_page: z.boolean().default(false),
    format: ScreenshotFormat.default('png'),
    quality: z.number().int().min(0).max(100).optional(),
    clip: z
      .strictObject({ x: z.number(), y: z.number(), width: z.number().positive(), height: z.number().positive() })
      .optional(),
    file_name: OutputFileName.optional(),
    tab_id: TabId.optional(),
  }),
  run: async (params, ctx) => {
    const targetId = await targetOf(ctx.session, params.tab_id);
    return ctx.session.bus.emit(
      ScreenshotEvent,
      {
        full_page: params.full_page,
        format: params.format,
        quality: params.quality ?? null,
        clip: params.clip ?? null,
        file_name: params.file_name ?? null,
        target_id: targetId,
      },
      source(ctx),
    );
  },
});

export const highlightAction = defineAction({
  name: 'highlight',
  description: 'Outline an element of the latest state in the page for a person to see; no index clears it.',
  params: z.strictObject({ index: z.number().int().positive().optional(), tab_id: TabId.optional() }),
  run: async (params, ctx) => {
    const targetId = await targetOf(ctx.session, params.tab_id);
    await ctx.session.dom.highlight(targetId, params.index ?? null);
    return { highlighted: params.index ?? null };
  },
});

export const PERCEPTION_ACTIONS: readonly AnyActionDefinition[] = [stateAction, screenshotAction, highlightAction];
