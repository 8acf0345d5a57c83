import { z } from 'zod';
import { defineEvent } from '../define-event';
import { TargetId } from '../events/navigation.events';
import { declareAction } from './declare-action';
import { both, count, quoted } from './words';

const TabCookie = z.strictObject({
  name: z.string(),
  value: z.string(),
  domain: z.string(),
  path: z.string(),
  /** Unix seconds; null for a session cookie. */
  expires: z.number().nullable(),
  http_only: z.boolean(),
  secure: z.boolean(),
  same_site: z.enum(['Strict', 'Lax', 'None']).nullable(),
});

/** Fields only `set` takes: naming one with another op is refused rather than ignored. */
const SET_ONLY = ['value', 'expires', 'http_only', 'secure', 'same_site'] as const;

/**
 * The cookies of a tab's own page (src/browser/storage/tab-cookies.ts): those its URL would be sent, and
 * set or deleted only for its own origin, so a client can neither read a profile's other cookies nor
 * plant one for another site.
 */
export const CookiesEvent = defineEvent('CookiesEvent', {
  payload: {
    target_id: TargetId,
    op: z.enum(['list', 'set', 'delete']).meta({ details: "list the page's cookies, set one, or delete one" }),
    name: z.string().min(1).optional().meta({ details: 'The cookie (set, delete); for list, only this one' }),
    value: z.string().optional().meta({ details: 'set: its value' }),
    path: z.string().startsWith('/').optional().meta({ details: "set, delete: its path ('/' for set when not given)" }),
    expires: z
      .number()
      .int()
      .positive()
      .optional()
      .describe('Unix seconds')
      .meta({ details: 'set: when it expires, in unix seconds (a session cookie when not given)' }),
    http_only: z.boolean().optional().meta({ details: "set: hidden from the page's script" }),
    secure: z.boolean().optional().meta({ details: 'set: sent over https only' }),
    same_site: z.enum(['Strict', 'Lax', 'None']).optional().meta({ details: 'set: its SameSite' }),
  },
  refine: (payload, ctx) => {
    if (payload.op !== 'list' && payload.name === undefined) {
      ctx.addIssue({ code: 'custom', path: ['name'], message: `${payload.op} needs the cookie's name` });
    }
    if (payload.op === 'set' && payload.value === undefined) {
      ctx.addIssue({ code: 'custom', path: ['value'], message: 'set needs a value' });
    }
    if (payload.op === 'list' && payload.path !== undefined) {
      ctx.addIssue({ code: 'custom', path: ['path'], message: 'list takes no path: it lists what the page is sent' });
    }
    if (payload.op !== 'set') {
      for (const field of SET_ONLY) {
        if (payload[field] !== undefined) {
          ctx.addIssue({ code: 'custom', path: [field], message: `only set takes ${field}` });
        }
      }
    }
  },
  result: z.strictObject({
    /** list: the cookies the page's URL is sent; set: the cookie as the browser now holds it; delete: those removed. */
    cookies: z.array(TabCookie),
    /** How many cookies the call set or removed (0 for list). */
    changed: z.number().int(),
  }),
  timeoutMs: 5_000,
  description:
    "The cookies of a tab's own page, never the rest of the profile: list those its URL is sent (httpOnly ones included), set one for the page's own origin (host-only, path '/' unless given), or delete one of them by name (and path). A tab not on an http(s) page has none and is refused.",
});

/** A list's values are cut at this many characters (a `get` answers at most WEB_STORAGE_GET_CHARS). */
export const WEB_STORAGE_LIST_CHARS = 1_000;
/** One value a `get` answers, cut past this; a page's whole storage is about 5 MB per origin. */
export const WEB_STORAGE_GET_CHARS = 100_000;
/** The entries a list answers when max_results is not given. */
export const WEB_STORAGE_LIST_DEFAULT = 100;

const StorageEntry = z.strictObject({
  key: z.string(),
  /** Cut past the bound, ending in "…" (value_length tells the whole length). */
  value: z.string(),
  value_length: z.number().int(),
});

type WebStorageField = 'key' | 'value' | 'max_results';

/** What each op needs, and may take besides: any other field is refused rather than ignored. */
const WEB_STORAGE_FIELDS: Record<
  'list' | 'get' | 'set' | 'delete' | 'clear',
  { needs: readonly WebStorageField[]; may: readonly WebStorageField[] }
> = {
  list: { needs: [], may: ['max_results'] },
  get: { needs: ['key'], may: [] },
  set: { needs: ['key', 'value'], may: [] },
  delete: { needs: ['key'], may: [] },
  clear: { needs: [], may: [] },
};

/**
 * localStorage or sessionStorage of a tab's own page (src/browser/storage/tab-web-storage.ts): the
 * storage of its top page's origin, never another origin's, so a client reads or writes only what the
 * page it was given can.
 */
export const WebStorageEvent = defineEvent('WebStorageEvent', {
  payload: {
    target_id: TargetId,
    op: z.enum(['list', 'get', 'set', 'delete', 'clear']),
    area: z.enum(['local', 'session']).default('local'),
    key: z.string().optional().meta({ details: 'get, set, delete: the entry' }),
    value: z.string().optional().meta({ details: 'set: its value' }),
    max_results: z
      .number()
      .int()
      .positive()
      .max(1_000)
      .optional()
      .meta({ details: `list: at most this many entries (${WEB_STORAGE_LIST_DEFAULT} when not given)` }),
  },
  refine: (payload, ctx) => {
    const { needs, may } = WEB_STORAGE_FIELDS[payload.op];
    for (const field of ['key', 'value', 'max_results'] as const) {
      if (needs.includes(field) && payload[field] === undefined) {
        ctx.addIssue({ code: 'custom', path: [field], message: `${payload.op} needs the ${field}` });
      }
      if (!needs.includes(field) && !may.includes(field) && payload[field] !== undefined) {
        ctx.addIssue({ code: 'custom', path: [field], message: `${payload.op} takes no ${field}` });
      }
    }
  },
  result: z.strictObject({
    /** The page's origin whose storage this is. */
    origin: z.string(),
    /** list: the entries, by key; get: the entry, or none when the key is not there; set: the entry as stored; delete: the one removed. */
    entries: z.array(StorageEntry),
    /** list: how many entries the area holds, before max_results; otherwise how many entries are in entries. */
    total: z.number().int(),
    /** How many entries the call set or removed (0 for list and get). */
    changed: z.number().int(),
  }),
  timeoutMs: 5_000,
  description: `localStorage or sessionStorage of a tab's own page (its top page's origin, never another's): list the entries, get, set or delete one by key, or clear the area. Values are cut at ${WEB_STORAGE_LIST_CHARS.toLocaleString('en-US')} characters in a list and ${WEB_STORAGE_GET_CHARS.toLocaleString('en-US')} in a get; a missing key gets no entry. A tab not on an http(s) page is refused.`,
});

/** The page's own storage: its cookies, its localStorage and sessionStorage. */
export const STORAGE_ACTIONS = [
  declareAction(CookiesEvent, {
    name: 'cookies',
    notForAgent: true,
    title: 'Page cookies',
    summary: "The page's own cookies.",
    category: 'content',
    // One declaration for all three ops: honest for the strictest, delete.
    hints: { readOnly: false, destructive: true, idempotent: true, openWorld: false },
    tabGate: 'act',
    panel: {
      label: 'Cookies',
      success: (p, r) =>
        p.op === 'list'
          ? count(r.cookies.length, 'cookie')
          : `${p.op === 'set' ? 'set' : 'deleted'} ${count(r.changed, 'cookie')}`,
      activity: (p) =>
        p.op === 'list'
          ? both('listing the cookies', 'listed the cookies')
          : p.op === 'set'
            ? both(`setting the cookie ${quoted(p.name ?? '')}`, `set the cookie ${quoted(p.name ?? '')}`)
            : both(`deleting the cookie ${quoted(p.name ?? '')}`, `deleted the cookie ${quoted(p.name ?? '')}`),
    },
  }),
  declareAction(WebStorageEvent, {
    name: 'web_storage',
    notForAgent: true,
    summary: "The page's localStorage or sessionStorage.",
    title: 'Web storage',
    category: 'content',
    // One declaration for every op: honest for the strictest, delete and clear.
    hints: { readOnly: false, destructive: true, idempotent: true, openWorld: false },
    tabGate: 'act',
    panel: {
      label: 'Web storage',
      success: (p, r) => {
        const area = p.area === 'session' ? 'sessionStorage' : 'localStorage';
        switch (p.op) {
          case 'list':
            return `${count(r.total, 'entry', 'entries')} in ${area}`;
          case 'get':
            return r.entries.length === 0 ? `no ${quoted(p.key)} in ${area}` : `read ${quoted(p.key)} from ${area}`;
          case 'set':
            return `set ${quoted(p.key)} in ${area}`;
          case 'delete':
          case 'clear':
            return `removed ${count(r.changed, 'entry', 'entries')} from ${area}`;
        }
      },
      activity: (p) => {
        const area = p.area === 'session' ? 'sessionStorage' : 'localStorage';
        switch (p.op) {
          case 'list':
            return both(`listing ${area}`, `listed ${area}`);
          case 'get':
            return both(`reading ${quoted(p.key)} from ${area}`, `read ${quoted(p.key)} from ${area}`);
          case 'set':
            return both(`setting ${quoted(p.key)} in ${area}`, `set ${quoted(p.key)} in ${area}`);
          case 'delete':
            return both(`deleting ${quoted(p.key)} from ${area}`, `deleted ${quoted(p.key)} from ${area}`);
          case 'clear':
            return both(`clearing ${area}`, `cleared ${area}`);
        }
      },
    },
  }),
] as const;
