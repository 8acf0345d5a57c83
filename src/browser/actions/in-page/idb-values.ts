/**
 * Values of IndexedDB records as Playwright's storageState writes them: a value made only of plain
 * objects, arrays, strings, finite numbers, booleans and null is kept as it is (`value`); any other is
 * written in Playwright's tagged form (`valueEncoded`), which keeps dates, regular expressions, URLs,
 * big integers, maps, sets, typed arrays, array buffers, errors, the special numbers, undefined and
 * shared references. A Blob or File (which neither form can hold) is refused by the caller rather than
 * written as an empty object, as Playwright does.
 */
import type { EncodedValue } from '../in-page-api';

const TYPED_ARRAYS = {
  i8: Int8Array,
  ui8: Uint8Array,
  ui8c: Uint8ClampedArray,
  i16: Int16Array,
  ui16: Uint16Array,
  i32: Int32Array,
  ui32: Uint32Array,
  f32: Float32Array,
  f64: Float64Array,
  bi64: BigInt64Array,
  bui64: BigUint64Array,
} as const;
type TypedArrayKind = keyof typeof TYPED_ARRAYS;

const tagOf = (value: object): string => Object.prototype.toString.call(value);

/** A plain object: made by a literal or Object.create(null), not by a class. */
function isPlainObject(value: object): boolean {
  const proto: unknown = Object.getPrototypeOf(value);
  return tagOf(value) === '[object Object]' && (proto === null || Object.getPrototypeOf(proto) === null);
}

/** Whether the value is kept as it is (JSON-shaped all the way down, with no shared references). */
function isTrivial(value: unknown, seen = new Set<object>()): boolean {
  if (value === null || typeof value === 'string' || typeof value === 'boolean') {
    return true;
  }
  if (typeof value === 'number') {
    return Number.isFinite(value) && !Object.is(value, -0);
  }
  if (typeof value !== 'object' || seen.has(value)) {
    return false;
  }
  seen.add(value);
  if (Array.isArray(value)) {
    return value.every((child) => isTrivial(child, seen));
  }
  return isPlainObject(value) && Object.values(value).every((child) => isTrivial(child, seen));
}

function bytesToBase64(view: ArrayBufferView): string {
  const bytes = new Uint8Array(view.buffer, view.byteOffset, view.byteLength);
  let binary = '';
  for (let i = 0; i < bytes.length; i += 0x8000) {
    binary += String.fromCharCode(...bytes.subarray(i, i + 0x8000));
  }
  return btoa(binary);
}

function base64ToBytes(base64: string): Uint8Array<ArrayBuffer> {
  const binary = atob(base64);
  const bytes = new Uint8Array(new ArrayBuffer(binary.length));
  for (let i = 0; i < binary.length; i++) {
    bytes[i] = binary.charCodeAt(i);
  }
  return bytes;
}

/** A value that neither form can hold: the caller names where it was. */
export class UnsavableValue extends Error {}

function encode(value: unknown, seen: Map<object, number>, next: { id: number }): EncodedValue {
  if (value === undefined) {
    return { v: 'undefined' };
  }
  if (value === null) {
    return { v: 'null' };
  }
  if (typeof value === 'number') {
    if (Number.isNaN(value)) return { v: 'NaN' };
    if (value === Infinity) return { v: 'Infinity' };
    if (value === -Infinity) return { v: '-Infinity' };
    if (Object.is(value, -0)) return { v: '-0' };
    return value;
  }
  if (typeof value === 'string' || typeof value === 'boolean') {
    return value;
  }
  if (typeof value === 'bigint') {
    return { bi: value.toString() };
  }
  if (typeof value !== 'object') {
    throw new UnsavableValue(`a ${typeof value}`);
  }
  const tag = tagOf(value);
  if (tag === '[object Blob]' || tag === '[object File]' || tag === '[object FileList]') {
    throw new UnsavableValue(`a ${tag.slice(8, -1)}`);
  }
  if (tag === '[object Date]') {
    return { d: (value as Date).toJSON() };
  }
  if (tag === '[object RegExp]') {
    const regexp = value as RegExp;
    return { r: { p: regexp.source, f: regexp.flags } };
  }
  if (tag === '[object URL]') {
    return { u: (value as URL).href };
  }
  if (tag === '[object Error]') {
    const error = value as Error;
    return { e: { n: error.name, m: error.message, s: error.stack ?? `${error.name}: ${error.message}` } };
  }
  for (const [kind, constructor] of Object.entries(TYPED_ARRAYS)) {
    if (tag === `[object ${constructor.name}]`) {
      return { ta: { b: bytesToBase64(value as ArrayBufferView), k: kind } };
    }
  }
  if (tag === '[object ArrayBuffer]') {
    return { ab: { b: bytesToBase64(new Uint8Array(value as ArrayBuffer)) } };
  }
  const known = seen.get(value);
  if (known !== undefined) {
    return { ref: known };
  }
  const id = ++next.id;
  seen.set(value, id);
  if (tag === '[object Map]') {
    return {
      m: [...(value as Map<unknown, unknown>)].map(([k, v]) => ({
        k: encode(k, seen, next),
        v: encode(v, seen, next),
      })),
      id,
    };
  }
  if (tag === '[object Set]') {
    return { s: [...(value as Set<unknown>)].map((item) => encode(item, seen, next)), id };
  }
  if (Array.isArray(value)) {
    return { a: value.map((item: unknown) => encode(item, seen, next)), id };
  }
  return {
    o: Object.entries(value).map(([k, v]) => ({ k, v: encode(v, seen, next) })),
    id,
  };
}

/** A record's key or value as Playwright writes it: `{ plain }` kept as it is, or `{ encoded }`. */
export function saveValue(value: unknown): { plain: unknown } | { encoded: EncodedValue } {
  return isTrivial(value) ? { plain: value } : { encoded: encode(value, new Map(), { id: 0 }) };
}

type Tagged = Exclude<EncodedValue, string | number | boolean | null>;

function decode(value: EncodedValue, refs: Map<number, unknown>): unknown {
  if (value === null || typeof value !== 'object') {
    return value;
  }
  const tagged: Tagged = value;
  if ('ref' in tagged) return refs.get(tagged.ref);
  if ('v' in tagged) {
    const special: Record<string, unknown> = {
      undefined: undefined,
      null: null,
      NaN: NaN,
      Infinity: Infinity,
      '-Infinity': -Infinity,
      '-0': -0,
    };
    return special[tagged.v];
  }
  if ('d' in tagged) return new Date(tagged.d);
  if ('u' in tagged) return new URL(tagged.u);
  if ('bi' in tagged) return BigInt(tagged.bi);
  if ('r' in tagged) return new RegExp(tagged.r.p, tagged.r.f);
  if ('e' in tagged) {
    const error = new Error(tagged.e.m);
    error.name = tagged.e.n;
    error.stack = tagged.e.s;
    return error;
  }
  if ('ta' in tagged) {
    const constructor = TYPED_ARRAYS[tagged.ta.k as TypedArrayKind];
    return new constructor(base64ToBytes(tagged.ta.b).buffer);
  }
  if ('ab' in tagged) return base64ToBytes(tagged.ab.b).buffer;
  if ('a' in tagged) {
    const out: unknown[] = [];
    refs.set(tagged.id, out);
    for (const item of tagged.a) out.push(decode(item, refs));
    return out;
  }
  if ('m' in tagged) {
    const out = new Map<unknown, unknown>();
    refs.set(tagged.id, out);
    for (const { k, v } of tagged.m) out.set(decode(k, refs), decode(v, refs));
    return out;
  }
  if ('s' in tagged) {
    const out = new Set<unknown>();
    refs.set(tagged.id, out);
    for (const item of tagged.s) out.add(decode(item, refs));
    return out;
  }
  if ('o' in tagged) {
    const out: Record<string, unknown> = {};
    refs.set(tagged.id, out);
    for (const { k, v } of tagged.o) {
      if (k !== '__proto__') out[k] = decode(v, refs);
    }
    return out;
  }
  return undefined;
}

/** The value a record's `valueEncoded` / `keyEncoded` stands for. */
export function loadValue(encoded: EncodedValue): unknown {
  return decode(encoded, new Map());
}
