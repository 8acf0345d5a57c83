import { z } from 'zod';
import { defineEvent } from '../define-event';

export const WAIT_UNTIL = ['load', 'domcontentloaded', 'networkidle', 'commit'] as const;
export type WaitUntil = (typeof WAIT_UNTIL)[number];

/** Where a navigation landed; `loading_status` is set when readiness timed out (not an error). */
export const NavigationOutcome = z.strictObject({
  target_id: z.string(),
  url: z.string(),
  loading_status: z.string().nullable(),
});
export type NavigationOutcome = z.infer<typeof NavigationOutcome>;

/** The tab an action works in (a protocol client names it by tab_id). */
export const TargetId = z.string().min(1).describe('The tab to act in');

export const NavigateToUrlEvent = defineEvent('NavigateToUrlEvent', {
  payload: {
    url: z.string().min(1).meta({ details: 'The address; a bare host such as example.com/x gets https://' }),
    target_id: TargetId,
    new_tab: z
      .boolean()
      .default(false)
      .meta({ details: 'Open it in a new tab, which becomes the one the agent works in' }),
    wait_until: z.enum(WAIT_UNTIL).default('load').meta({
      details: 'How ready the page must be: load, domcontentloaded, networkidle, or commit (the first response)',
      programsOnly: true,
    }),
    timeout_ms: z.number().int().positive().max(120_000).optional().meta({
      details: 'Readiness wait; default 3 s for the same host, 8 s otherwise (a timeout is reported, not raised)',
      programsOnly: true,
    }),
  },
  result: NavigationOutcome,
  timeoutMs: 30_000,
  description:
    'Open a URL in the focused tab (or a new tab) and wait until it is ready. Then call state to see the page.',
});

export const GoBackEvent = defineEvent('GoBackEvent', {
  payload: { target_id: TargetId },
  result: NavigationOutcome,
  timeoutMs: 15_000,
  description: 'Go back one page in the tab history.',
});

export const GoForwardEvent = defineEvent('GoForwardEvent', {
  payload: { target_id: TargetId },
  result: NavigationOutcome,
  timeoutMs: 15_000,
  description: 'Go forward one page in the tab history.',
});

export const RefreshEvent = defineEvent('RefreshEvent', {
  payload: { target_id: TargetId },
  result: NavigationOutcome,
  timeoutMs: 15_000,
  description: 'Reload the tab.',
});

export const SEARCH_ENGINES = ['duckduckgo', 'google', 'bing'] as const;

/** browser-use's search tool: a navigation to a search engine's results page. */
export const SearchEvent = defineEvent('SearchEvent', {
  payload: {
    query: z.string().min(1),
    engine: z.enum(SEARCH_ENGINES).default('duckduckgo').meta({ programsOnly: true }),
    target_id: TargetId,
  },
  result: NavigationOutcome,
  timeoutMs: 30_000,
  description: 'Search the web in the focused tab (DuckDuckGo by default).',
});

/**
 * Emitted and awaited before any request leaves: a handler that throws (the security policy) stops
 * the navigation before the browser sends anything (browser-use checks only after the page loaded).
 */
export const NavigationStartedEvent = defineEvent('NavigationStartedEvent', {
  payload: { target_id: z.string(), url: z.string() },
  result: z.void(),
  timeoutMs: 30_000,
});

export const NavigationCompleteEvent = defineEvent('NavigationCompleteEvent', {
  payload: {
    target_id: z.string(),
    url: z.string(),
    status: z.number().int().nullable().default(null),
    error_message: z.string().nullable().default(null),
    loading_status: z.string().nullable().default(null),
  },
  result: z.void(),
  timeoutMs: 30_000,
});

export const MAX_WAIT_SECONDS = 60;

export const WaitEvent = defineEvent('WaitEvent', {
  payload: { seconds: z.number().min(0).max(MAX_WAIT_SECONDS).default(3) },
  result: z.strictObject({ waited_seconds: z.number() }),
  timeoutMs: (MAX_WAIT_SECONDS + 5) * 1000,
  description: `Wait a number of seconds (at most ${MAX_WAIT_SECONDS}).`,
});
