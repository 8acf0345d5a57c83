import type { EventRecordView } from '../../bus/event-record';
import type { DomState } from '../../dom/dom-service';
import { errorMessageOf } from '../../shared/errors';
import { defineWatchdog } from '../define-watchdog';
import { DialogOpenedEvent } from '../events/dialogs.events';
import { BrowserErrorEvent } from '../events/lifecycle.events';
import { BrowserStateRequestEvent, ScreenshotEvent, type BrowserStateSummary } from '../events/state.events';
import { TabClosedEvent } from '../events/tabs.events';
import { paginationButtons } from '../state/pagination';

const RECENT_EVENTS = 10;
/** A page that opens dialogs in a loop must not grow the state without bound. */
const MAX_DIALOGS = 20;

/**
 * BrowserStateRequestEvent: the page as the model sees it (DomService), the tabs, the page geometry, and
 * a screenshot taken alongside when asked. A failed DOM capture still gives a state (empty, with the
 * error in browser_errors), as browser-use does.
 */
export const domWatchdog = defineWatchdog({
  name: 'dom',
  listensTo: [BrowserStateRequestEvent, TabClosedEvent, DialogOpenedEvent],
  emits: [ScreenshotEvent, BrowserErrorEvent],
  setup: (ctx) => {
    // Dialogs answered since the tab's last state: reported once, then forgotten (browser-use repeats
    // every past dialog in every later state, reference §4.3 ⚠).
    const dialogs = new Map<string, string[]>();
    return {
      BrowserStateRequestEvent: async (event, hctx): Promise<BrowserStateSummary> => {
        const started = performance.now();
        const payload = event.payload;
        const targets = ctx.session.targets;
        const targetId = payload.target_id ?? (await targets.focusedSession()).targetId;
        const config = ctx.session.config.state;
        const screenshotStarted = performance.now();
        const screenshot = payload.include_screenshot
          ? hctx
              .emit(ScreenshotEvent, {
                target_id: targetId,
                format: config.screenshot_format,
                quality: config.screenshot_quality,
              })
              .result()
              .then((shot) => ({ shot, ms: performance.now() - screenshotStarted }))
          : undefined;
        const browserErrors: string[] = [];
        let dom: DomState | undefined;
        if (payload.include_dom) {
          try {
            dom = await ctx.session.dom.state(targetId, {
              viewportExpansion: payload.viewport_expansion ?? config.viewport_expansion,
              maxChars: payload.max_chars ?? config.max_chars,
              signal: hctx.signal,
            });
          } catch (error) {
            browserErrors.push(`DOM capture failed: ${errorMessageOf(error)}`);
            hctx.emit(BrowserErrorEvent, { error_type: 'DOMBuildFailed', message: errorMessageOf(error), details: {} });
          }
        }
        const shot = screenshot === undefined ? undefined : await screenshot;
        const target = targets.target(targetId);
        const metrics = dom?.metrics;
        const url = metrics?.url ?? target?.url ?? '';
        const viewportHeight = metrics?.viewportHeight ?? 0;
        const viewportWidth = metrics?.viewportWidth ?? 0;
        return {
          tab_id: ctx.session.tabIdOf(targetId),
          url,
          title: metrics?.title ?? target?.title ?? '',
          tabs: targets
            .pages()
            .map((page) => ({ tab_id: ctx.session.tabIdOf(page.targetId), url: page.url, title: page.title })),
          page_info: {
            viewport_width: viewportWidth,
            viewport_height: viewportHeight,
            page_width: metrics?.pageWidth ?? 0,
            page_height: metrics?.pageHeight ?? 0,
            scroll_x: metrics?.scrollX ?? 0,
            scroll_y: metrics?.scrollY ?? 0,
            pixels_above: metrics?.scrollY ?? 0,
            pixels_below: Math.max(0, (metrics?.pageHeight ?? 0) - (metrics?.scrollY ?? 0) - viewportHeight),
            pixels_left: metrics?.scrollX ?? 0,
            pixels_right: Math.max(0, (metrics?.pageWidth ?? 0) - (metrics?.scrollX ?? 0) - viewportWidth),
          },
          text: dom?.text ?? '',
          elements: (dom?.entries ?? []).map((entry) => ({
            index: entry.index,
            tag: entry.tag,
            role: entry.role,
            name: entry.name,
            attributes: entry.attributes,
            box: entry.box,
            is_new: entry.isNew,
          })),
          truncated: dom?.truncated ?? false,
          screenshot: shot?.shot?.data ?? null,
          screenshot_format: shot?.shot?.format ?? null,
          closed_popup_messages: takeDialogs(dialogs, targetId),
          pending_network_requests: (metrics?.pending ?? []).map((request) => ({
            url: request.url,
            method: 'GET',
            loading_duration_ms: request.loadingMs,
            resource_type: request.resourceType,
          })),
          pagination_buttons: paginationButtons(dom?.entries ?? []),
          browser_errors: browserErrors,
          downloaded_files: ctx.session.downloads.paths(),
          is_pdf_viewer: /\.pdf($|[?#])|\/pdf\//i.test(url),
          recent_events: payload.include_recent_events ? recentEvents(ctx.session.recentEvents(RECENT_EVENTS)) : null,
          page_stats: {
            elements: dom?.stats.elements ?? 0,
            interactive: dom?.stats.interactive ?? 0,
            iframes: dom?.stats.iframes ?? 0,
            shadow_roots: dom?.stats.shadowRoots ?? 0,
            images: dom?.stats.images ?? 0,
            links: dom?.stats.links ?? 0,
          },
          timings: {
            total_ms: Math.round(performance.now() - started),
            dom_ms: dom?.timings.total_ms ?? 0,
            in_page_ms: dom?.timings.in_page_ms ?? 0,
            screenshot_ms: Math.round(shot?.ms ?? 0),
          },
          state_error: null,
        };
      },
      TabClosedEvent: (event) => {
        ctx.session.dom.forget(event.payload.target_id);
        dialogs.delete(event.payload.target_id);
      },
      DialogOpenedEvent: (event) => {
        const { target_id, dialog_type, message, answer } = event.payload;
        const list = dialogs.get(target_id) ?? [];
        list.push(`[${dialog_type}] ${message} (${answer})`);
        dialogs.set(target_id, list.slice(-MAX_DIALOGS));
      },
    };
  },
});

function takeDialogs(dialogs: Map<string, string[]>, targetId: string): string[] {
  const list = dialogs.get(targetId) ?? [];
  dialogs.delete(targetId);
  return list;
}

function recentEvents(views: readonly EventRecordView[]): string {
  return JSON.stringify(
    views.map((view) => {
      const payload = (view.payload ?? {}) as Record<string, unknown>;
      return {
        event_type: view.type,
        timestamp: new Date(view.created_at).toISOString(),
        ...(typeof payload['url'] === 'string' ? { url: payload['url'] } : {}),
        ...(typeof payload['target_id'] === 'string' ? { target_id: payload['target_id'] } : {}),
        ...(typeof payload['message'] === 'string' ? { error_message: payload['message'] } : {}),
      };
    }),
  );
}
