/**
 * Event ids are UUIDv7 strings (time-ordered, as bubus uses). The random part is drawn once per process
 * and a per-millisecond sequence makes each id unique and ordered: ids are made on the bus's hot
 * path, where per-id random draws and byte-by-byte formatting cost more than the rest of an emit.
 */
const processRandom = crypto.getRandomValues(new Uint32Array(2));
const RANDOM_HIGH = ((processRandom[0] ?? 0) & 0x3fff) | 0x8000; // variant bits 10xx
const RANDOM_LOW = (processRandom[1] ?? 0) & 0xffff;
let sequence = 0;
let cachedMs = -1;
let cachedPrefix = '';

function hex(value: number, width: number): string {
  return value.toString(16).padStart(width, '0');
}

export function uuid7(now: number = Date.now()): string {
  if (now !== cachedMs) {
    cachedMs = now;
    sequence = 0;
    const ms = hex(now, 12);
    cachedPrefix = `${ms.slice(0, 8)}-${ms.slice(8, 12)}-7`;
  } else {
    sequence++;
  }
  // A per-millisecond sequence, high bits in rand_a and low bits at the front of rand_b's tail, keeps
  // ids unique and in order; the process's random bits fill the rest.
  const high = Math.floor(sequence / 0x100000000) & 0xfff;
  const low = sequence % 0x100000000;
  return `${cachedPrefix}${hex(high, 3)}-${hex(RANDOM_HIGH, 4)}-${hex(low, 8)}${hex(RANDOM_LOW, 4)}`;
}

/** A short random id for log correlation and client ids. */
export function shortId(length = 8): string {
  const bytes = crypto.getRandomValues(new Uint8Array(length));
  let out = '';
  for (const byte of bytes) {
    out += (byte % 36).toString(36);
  }
  return out;
}
