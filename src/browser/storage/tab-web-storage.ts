import type { CdpSession } from '../../cdp/session';
import { callInFrame } from '../actions/in-page-call';
import {
  WEB_STORAGE_GET_CHARS,
  WEB_STORAGE_LIST_CHARS,
  WEB_STORAGE_LIST_DEFAULT,
  type WebStorageEvent,
} from '../../protocol/actions/storage.actions';
import type { PayloadOf, ResultOf } from '../../protocol/define-event';
import { TabpilotError } from '../../shared/errors';
import { httpOrigin, pageUrlOf } from './page-origin';

type WebStoragePayload = PayloadOf<typeof WebStorageEvent>;
type WebStorageResult = ResultOf<typeof WebStorageEvent>;
type StorageEntry = WebStorageResult['entries'][number];

/**
 * The origin whose web storage a tab's page uses: its top page's, when on http(s). about:blank, data:,
 * file: and browser pages have an opaque or shared origin that belongs to no site the client owns.
 */
export function webStorageOrigin(pageUrl: string): string {
  return httpOrigin(pageUrl, 'has no web storage of its own; web storage is that of an http(s) page');
}

/**
 * `value` cut at `bound` characters, ending in "…" when cut: the mark also lets the answer's redaction
 * (src/shared/redact.ts) replace a secret's piece left at the cut.
 */
export function cutValue(value: string, bound: number): string {
  if (value.length <= bound) {
    return value;
  }
  const code = value.charCodeAt(bound - 1);
  // Never half of a surrogate pair: the answer is JSON, and a lone half is not a character.
  const end = code >= 0xd800 && code <= 0xdbff ? bound - 1 : bound;
  return `${value.slice(0, end)}…`;
}

function entryOf([key, value]: [string, string], bound: number): StorageEntry {
  return { key, value: cutValue(value, bound), value_length: value.length };
}

const byKey = ([a]: [string, string], [b]: [string, string]): number => (a < b ? -1 : a > b ? 1 : 0);

/**
 * list, get, set, delete or clear localStorage or sessionStorage of the page a tab is on, through
 * tabpilot's isolated world in its top frame: the storage the page itself uses (sessionStorage the tab's
 * own), never an origin the client names, and beyond the reach of the page's scripts. CDP's DOMStorage
 * would name the origin from outside, but chrome.debugger does not offer it ("'DOMStorage.getDOMStorageItems'
 * wasn't found" on Chromium 156), so both transports go through the page.
 */
export async function tabWebStorage(session: CdpSession, payload: WebStoragePayload): Promise<WebStorageResult> {
  const pageUrl = await pageUrlOf(session);
  const expected = webStorageOrigin(pageUrl);
  const outcome = await callInFrame(session, 'webStorage', {
    area: payload.area,
    op: payload.op,
    key: payload.key ?? '',
    value: payload.value ?? '',
  });
  const area = payload.area === 'local' ? 'localStorage' : 'sessionStorage';
  if (outcome.origin !== expected) {
    // A sandboxed page (opaque origin), or the tab went elsewhere meanwhile: nothing of another origin is answered.
    throw new TabpilotError(
      'INVALID_PARAMS',
      `tab_id: the page at ${pageUrl} runs with origin ${outcome.origin}, not ${expected}: it has no ${area} of ${expected} to use`,
      { details: { field: 'tab_id' } },
    );
  }
  if (!outcome.ok) {
    const field = outcome.reason === 'refused' ? 'value' : 'tab_id';
    const what = outcome.reason === 'refused' ? `${expected} did not store it` : `${expected} may not use ${area}`;
    throw new TabpilotError('INVALID_PARAMS', `${field}: ${what}: ${outcome.error}`, { details: { field } });
  }
  const result = (entries: StorageEntry[], changed: number): WebStorageResult => ({
    origin: expected,
    entries,
    total: entries.length,
    changed,
  });
  switch (payload.op) {
    case 'list': {
      const all = outcome.entries.sort(byKey);
      const shown = all.slice(0, payload.max_results ?? WEB_STORAGE_LIST_DEFAULT);
      return {
        ...result(
          shown.map((entry) => entryOf(entry, WEB_STORAGE_LIST_CHARS)),
          0,
        ),
        total: all.length,
      };
    }
    case 'get':
      return result(
        outcome.entries.map((entry) => entryOf(entry, WEB_STORAGE_GET_CHARS)),
        0,
      );
    case 'set':
    case 'delete': {
      const entries = outcome.entries.map((entry) => entryOf(entry, WEB_STORAGE_GET_CHARS));
      return result(entries, entries.length);
    }
    case 'clear':
      return result([], outcome.cleared);
  }
}
