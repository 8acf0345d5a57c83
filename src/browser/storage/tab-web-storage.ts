import type { Protocol } from 'devtools-protocol';
import type { CdpSession } from '../../cdp/session';
import { CdpProtocolError } from '../../cdp/errors';
import {
  WEB_STORAGE_GET_CHARS,
  WEB_STORAGE_LIST_CHARS,
  WEB_STORAGE_LIST_DEFAULT,
  type WebStorageEvent,
} from '../../protocol/actions/content.actions';
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

function entryOf([key = '', value = '']: Protocol.DOMStorage.Item, bound: number): StorageEntry {
  return { key, value: cutValue(value, bound), value_length: value.length };
}

/**
 * list, get, set, delete or clear localStorage or sessionStorage of the page a tab is on, through its own
 * session. The StorageId names the top page's origin (Chromium keys a top-level page's storage by its
 * origin alone), never an origin the client chose, and sessionStorage is that tab's own (DOMStorage on a
 * tab's session reaches that tab's session namespace). Reads go through DOMStorage, not the page's
 * script, which could disguise `localStorage`.
 */
export async function tabWebStorage(session: CdpSession, payload: WebStoragePayload): Promise<WebStorageResult> {
  const origin = webStorageOrigin(await pageUrlOf(session));
  const storageId = { securityOrigin: origin, isLocalStorage: payload.area === 'local' };
  const items = async (): Promise<Protocol.DOMStorage.Item[]> =>
    (await session.send('DOMStorage.getDOMStorageItems', { storageId })).entries;
  const find = async (key: string): Promise<Protocol.DOMStorage.Item | undefined> =>
    (await items()).find(([itemKey]) => itemKey === key);
  const answer = (entries: StorageEntry[], changed: number): WebStorageResult => ({
    origin,
    entries,
    total: entries.length,
    changed,
  });
  const key = payload.key ?? '';
  switch (payload.op) {
    case 'list': {
      const all = (await items()).sort(([a = ''], [b = '']) => (a < b ? -1 : a > b ? 1 : 0));
      const shown = all.slice(0, payload.max_results ?? WEB_STORAGE_LIST_DEFAULT);
      return {
        ...answer(
          shown.map((item) => entryOf(item, WEB_STORAGE_LIST_CHARS)),
          0,
        ),
        total: all.length,
      };
    }
    case 'get': {
      const found = await find(key);
      return answer(found === undefined ? [] : [entryOf(found, WEB_STORAGE_GET_CHARS)], 0);
    }
    case 'set': {
      try {
        await session.send('DOMStorage.setDOMStorageItem', { storageId, key, value: payload.value ?? '' });
      } catch (error) {
        // The page's storage refused the write (past its quota of about 5 MB per origin): the browser's words.
        if (error instanceof CdpProtocolError) {
          throw new TabpilotError('INVALID_PARAMS', `value: ${origin} did not store it: ${error.protocolMessage}`, {
            details: { field: 'value' },
          });
        }
        throw error;
      }
      const stored = await find(key);
      if (stored === undefined) {
        throw new TabpilotError('INVALID_PARAMS', `key: ${origin} did not keep ${JSON.stringify(key)}`, {
          details: { field: 'key' },
        });
      }
      return answer([entryOf(stored, WEB_STORAGE_GET_CHARS)], 1);
    }
    case 'delete': {
      const found = await find(key);
      if (found === undefined) {
        return answer([], 0);
      }
      await session.send('DOMStorage.removeDOMStorageItem', { storageId, key });
      return answer([entryOf(found, WEB_STORAGE_GET_CHARS)], 1);
    }
    case 'clear': {
      const before = (await items()).length;
      await session.send('DOMStorage.clear', { storageId });
      return answer([], before);
    }
  }
}
