import type { Protocol } from 'devtools-protocol';
import { z } from 'zod';
import { strictUtf8 } from '../../shared/bytes';
import { TabpilotError, errorMessageOf } from '../../shared/errors';
import { zodMessage } from '../../shared/zod-issues';
import type { EncodedValue, SavedDatabase } from '../actions/in-page-api';

/** Playwright's storageState format (browser.newContext({ storageState }) reads it; browser-use too). */
const NameValue = z.object({ name: z.string(), value: z.string() });
const Cookie = z.object({
  name: z.string(),
  value: z.string(),
  domain: z.string().min(1),
  path: z.string().min(1),
  /** Seconds since the epoch; -1 for a session cookie. */
  expires: z.number(),
  httpOnly: z.boolean(),
  secure: z.boolean(),
  sameSite: z.enum(['Strict', 'Lax', 'None']),
});
/** A record's value as Playwright writes it: kept as it is, or in its tagged form (checked in the page). */
const Encoded = z.custom<EncodedValue>((value) => value !== undefined, "a value in Playwright's serialization");
const KeyPath = { keyPath: z.string().optional(), keyPathArray: z.array(z.string()).optional() };
const Database = z.object({
  name: z.string().min(1),
  version: z.number().int().positive(),
  stores: z.array(
    z.object({
      name: z.string(),
      autoIncrement: z.boolean(),
      ...KeyPath,
      records: z.array(
        z.object({
          key: z.unknown().optional(),
          keyEncoded: Encoded.optional(),
          value: z.unknown().optional(),
          valueEncoded: Encoded.optional(),
        }),
      ),
      indexes: z.array(z.object({ name: z.string(), ...KeyPath, multiEntry: z.boolean(), unique: z.boolean() })),
    }),
  ),
});
const Origin = z.object({
  origin: z.string().min(1),
  localStorage: z.array(NameValue),
  /** Playwright's opt-in copy of the origin's IndexedDB databases (`storageState({ indexedDB: true })`). */
  indexedDB: z.array(Database).optional(),
});
const StorageStateFile = z.object({ cookies: z.array(Cookie), origins: z.array(Origin) });
export interface StorageOrigin {
  origin: string;
  localStorage: Array<{ name: string; value: string }>;
  indexedDB?: SavedDatabase[];
}
export interface StorageState {
  cookies: StorageCookie[];
  origins: StorageOrigin[];
}
export type StorageCookie = z.infer<typeof Cookie>;

/** Parses a storage state, refusing the whole of it (naming `source` and the field) when any part is wrong. */
export function parseStorageState(value: unknown, source: string, field: string): StorageState {
  const parsed = StorageStateFile.safeParse(value);
  if (!parsed.success) {
    throw new TabpilotError(
      'INVALID_PARAMS',
      `${field}: ${source} is not a storage state at ${zodMessage(parsed.error, { whole: 'the top' })}; nothing was loaded`,
      {
        details: { field },
      },
    );
  }
  return {
    cookies: parsed.data.cookies,
    origins: parsed.data.origins.map((origin) => ({
      origin: origin.origin,
      localStorage: origin.localStorage,
      ...(origin.indexedDB === undefined ? {} : { indexedDB: origin.indexedDB }),
    })),
  };
}

export function parseStorageStateBytes(bytes: Uint8Array, source: string, field: string): StorageState {
  const text = strictUtf8(bytes);
  let json: unknown;
  try {
    json = JSON.parse(text ?? '');
  } catch (error) {
    throw new TabpilotError(
      'INVALID_PARAMS',
      `${field}: ${source} is not valid JSON (${errorMessageOf(error)}); nothing was loaded`,
      { details: { field } },
    );
  }
  return parseStorageState(json, source, field);
}

export function cookieFromCdp(cookie: Protocol.Network.Cookie): StorageCookie {
  return {
    name: cookie.name,
    value: cookie.value,
    domain: cookie.domain,
    path: cookie.path,
    expires: cookie.session ? -1 : cookie.expires,
    httpOnly: cookie.httpOnly,
    secure: cookie.secure,
    sameSite: cookie.sameSite ?? 'Lax',
  };
}

export function cookieToCdp(cookie: StorageCookie): Protocol.Network.CookieParam {
  return {
    name: cookie.name,
    value: cookie.value,
    domain: cookie.domain,
    path: cookie.path,
    httpOnly: cookie.httpOnly,
    secure: cookie.secure,
    sameSite: cookie.sameSite,
    // A session cookie has no expiry (CDP would take 0 or -1 as long expired).
    ...(cookie.expires > 0 ? { expires: cookie.expires } : {}),
  };
}
