import { z } from 'zod';
import { defineEvent } from '../define-event';

/** The rule that refused a URL; each but the first three is the config field that holds it. */
export const BLOCK_RULES = [
  'javascript',
  'browser_page',
  'invalid_url',
  'allowed_schemes',
  'block_ip_addresses',
  'allowed_domains',
  'prohibited_domains',
] as const;

/** Where the policy caught a URL. */
export const BLOCK_STAGES = [
  /** navigate (or a history move, a reload, the actor's goto) was refused before anything was sent */
  'navigate',
  /** a document request the browser was about to send (a link, a script, a redirect, a frame) was held and failed */
  'request',
  /** a subresource request (an image, a script, fetch, XHR, EventSource, a beacon, a worker's request) was held and failed */
  'subresource',
  /** a document committed without a request the policy saw (the back/forward cache, a tab attached late) */
  'commit',
  /** a tab the page opened showed a blocked URL when it came under control */
  'tab',
  /** the policy changed and a tab was showing a page it now blocks */
  'policy',
] as const;

/**
 * The URL policy refused a page. browser-use has no such event (its SecurityWatchdog only raises or
 * emits a generic BrowserErrorEvent after the request has gone out); this one is announced for each block,
 * whoever caused it, with the rule (the config field) and the pattern that refused it.
 */
export const NavigationBlockedEvent = defineEvent('NavigationBlockedEvent', {
  payload: {
    /** The tab (page target) the blocked page was for. */
    target_id: z.string(),
    url: z.string(),
    rule: z.enum(BLOCK_RULES),
    pattern: z.string().nullable().default(null),
    reason: z.string(),
    stage: z.enum(BLOCK_STAGES),
    /** The tab itself or a frame inside it. */
    frame: z.enum(['main', 'subframe']).default('main'),
    /** A tab opened by a page for the blocked URL was closed. */
    tab_closed: z.boolean().default(false),
  },
  result: z.void(),
  timeoutMs: 10_000,
  lifecycle: true,
});
