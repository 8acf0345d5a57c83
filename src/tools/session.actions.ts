import { z } from 'zod';
import {
  GoBackEvent,
  GoForwardEvent,
  NavigateToUrlEvent,
  RefreshEvent,
  WAIT_UNTIL,
  WaitEvent,
  type NavigationOutcome,
} from '../browser/events/navigation.events';
import { CloseTabEvent, SwitchTabEvent } from '../browser/events/tabs.events';
import { attach, listTabs, release, resolveTabId, stop } from '../browser/session-verbs';
import type { BrowserSession } from '../browser/session';
import { defineAction, type ActionContext, type AnyActionDefinition } from './registry';

const TabId = z.string().min(1).max(64).describe('A tab id from "tabs"');

/** The URL parser drops leading and trailing C0 controls and spaces: "\u0001javascript:" is a scheme too. */
function trimC0(text: string): string {
  let start = 0;
  let end = text.length;
  while (start < end && text.charCodeAt(start) <= 0x20) {
    start++;
  }
  while (end > start && text.charCodeAt(end - 1) <= 0x20) {
    end--;
  }
  return text.slice(start, end);
}

/** Adds https:// to a bare host ("example.com/x"), as a person typing in the address bar would expect. */
export function normalizeUrl(url: string): string {
  const trimmed = trimC0(url);
  // Browsers drop tabs and newlines anywhere in a URL: "java\tscript:" is a scheme too.
  if (/^[a-z][a-z0-9+.-]*:/i.test(trimmed.replace(/[\t\n\r]/g, ''))) {
    return trimmed;
  }
  return `https://${trimmed}`;
}

function outcome(
  session: BrowserSession,
  result: NavigationOutcome | undefined,
): { tab_id: string; url: string; loading_status: string | null } {
  if (result === undefined) {
    return { tab_id: '', url: '', loading_status: null };
  }
  return { tab_id: session.tabIdOf(result.target_id), url: result.url, loading_status: result.loading_status };
}

function source(ctx: ActionContext): { source: string } {
  return { source: `${ctx.client.kind}:${ctx.client.id}` };
}

export const navigateAction = defineAction({
  name: 'navigate',
  description: 'Open a URL in the focused tab (or a new tab) and wait until it is ready.',
  params: z.strictObject({
    url: z.string().min(1),
    new_tab: z.boolean().default(false),
    wait_until: z.enum(WAIT_UNTIL).default('load'),
    timeout_ms: z
      .number()
      .int()
      .positive()
      .max(120_000)
      .optional()
      .describe('Readiness wait; default 3 s same host, 8 s otherwise'),
  }),
  run: async (params, ctx) =>
    outcome(
      ctx.session,
      await ctx.session.bus.emit(
        NavigateToUrlEvent,
        {
          url: normalizeUrl(params.url),
          new_tab: params.new_tab,
          wait_until: params.wait_until,
          timeout_ms: params.timeout_ms ?? null,
        },
        source(ctx),
      ),
    ),
});

export const goBackAction = defineAction({
  name: 'go_back',
  description: 'Go back one page in the focused tab.',
  params: z.strictObject({}),
  run: async (_params, ctx) => outcome(ctx.session, await ctx.session.bus.emit(GoBackEvent, {}, source(ctx))),
});

export const goForwardAction = defineAction({
  name: 'go_forward',
  description: 'Go forward one page in the focused tab.',
  params: z.strictObject({}),
  run: async (_params, ctx) => outcome(ctx.session, await ctx.session.bus.emit(GoForwardEvent, {}, source(ctx))),
});

export const refreshAction = defineAction({
  name: 'refresh',
  description: 'Reload the focused tab.',
  params: z.strictObject({}),
  run: async (_params, ctx) => outcome(ctx.session, await ctx.session.bus.emit(RefreshEvent, {}, source(ctx))),
});

export const tabsAction = defineAction({
  name: 'tabs',
  description: 'List the controlled tabs; with all, also the other tabs of the browser (to attach one).',
  params: z.strictObject({ all: z.boolean().default(false) }),
  run: async (params, ctx) => {
    const all = params.all && (ctx.client.kind !== 'native' || ctx.session.config.native_clients_see_all_tabs);
    return listTabs(ctx.session, all);
  },
});

export const switchAction = defineAction({
  name: 'switch',
  description: 'Make a tab the one the agent works in.',
  params: z.strictObject({ tab_id: TabId, activate: z.boolean().default(true).describe('Also bring it to the front') }),
  run: async (params, ctx) => {
    const targetId = resolveTabId(ctx.session, params.tab_id);
    await ctx.session.bus.emit(SwitchTabEvent, { target_id: targetId, activate: params.activate }, source(ctx));
    return { tab_id: ctx.session.tabIdOf(targetId), url: ctx.session.targets.target(targetId)?.url ?? '' };
  },
});

export const closeAction = defineAction({
  name: 'close',
  description: 'Close a tab.',
  params: z.strictObject({ tab_id: TabId }),
  run: async (params, ctx) => {
    const targetId = resolveTabId(ctx.session, params.tab_id);
    await ctx.session.bus.emit(CloseTabEvent, { target_id: targetId }, source(ctx));
    const focus = ctx.session.targets.focusedTargetId;
    return { closed: params.tab_id, focused_tab_id: focus === undefined ? null : ctx.session.tabIdOf(focus) };
  },
});

export const waitAction = defineAction({
  name: 'wait',
  description: 'Wait a number of seconds (at most 60).',
  params: z.strictObject({ seconds: z.number().min(0).max(60).default(3) }),
  run: async (params, ctx) => {
    await ctx.session.bus.emit(WaitEvent, { seconds: params.seconds, max_seconds: 60 }, source(ctx));
    return { waited_seconds: params.seconds };
  },
});

export const attachAction = defineAction({
  name: 'attach',
  description:
    'Take control of a tab (extension: the given or the active tab; Node: connect, and focus the given tab).',
  params: z.strictObject({ tab_id: TabId.optional() }),
  run: (params, ctx) => attach(ctx.session, params.tab_id),
});

export const releaseAction = defineAction({
  name: 'release',
  description: 'Let go of a tab, or of every tab (Node: of the browser, which keeps running).',
  params: z.strictObject({ tab_id: TabId.optional() }),
  run: (params, ctx) => release(ctx.session, params.tab_id),
});

export const stopAction = defineAction({
  name: 'stop',
  description:
    'Emergency stop: cancel queued work and detach everything (Node: also kill a browser tabpilot launched).',
  params: z.strictObject({}),
  run: (_params, ctx) => stop(ctx.session),
});

export const SESSION_ACTIONS: readonly AnyActionDefinition[] = [
  navigateAction,
  goBackAction,
  goForwardAction,
  refreshAction,
  tabsAction,
  switchAction,
  closeAction,
  waitAction,
  attachAction,
  releaseAction,
  stopAction,
];
