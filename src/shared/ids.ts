/**
 * Event ids are UUIDv7 strings (time-ordered, as bubus uses). Random bytes are drawn in batches because
 * `crypto.getRandomValues` per id would dominate the bus's per-event cost.
 */
const RANDOM_BATCH = 4096;
let randomPool = new Uint8Array(0);
let randomOffset = RANDOM_BATCH;
let lastMs = 0;
let sequence = 0;

function randomBytes(count: number): Uint8Array {
  if (randomOffset + count > randomPool.length) {
    randomPool = crypto.getRandomValues(new Uint8Array(RANDOM_BATCH));
    randomOffset = 0;
  }
  const slice = randomPool.subarray(randomOffset, randomOffset + count);
  randomOffset += count;
  return slice;
}

const HEX: string[] = Array.from({ length: 256 }, (_, i) => i.toString(16).padStart(2, '0'));

export function uuid7(now: number = Date.now()): string {
  // A counter in the 12 "rand_a" bits keeps ids strictly increasing within one millisecond.
  if (now === lastMs) {
    sequence = (sequence + 1) & 0xfff;
  } else {
    lastMs = now;
    sequence = 0;
  }
  const random = randomBytes(8);
  const bytes = new Array<number>(16);
  let ms = now;
  for (let i = 5; i >= 0; i--) {
    bytes[i] = ms % 256;
    ms = Math.floor(ms / 256);
  }
  bytes[6] = 0x70 | (sequence >> 8);
  bytes[7] = sequence & 0xff;
  bytes[8] = 0x80 | ((random[0] ?? 0) & 0x3f);
  for (let i = 9; i < 16; i++) {
    bytes[i] = random[i - 8] ?? 0;
  }
  let out = '';
  for (let i = 0; i < 16; i++) {
    if (i === 4 || i === 6 || i === 8 || i === 10) {
      out += '-';
    }
    out += HEX[bytes[i] ?? 0];
  }
  return out;
}

/** A short random id for log correlation and synthetic session ids. */
export function shortId(length = 8): string {
  const bytes = randomBytes(length);
  let out = '';
  for (const byte of bytes) {
    out += (byte % 36).toString(36);
  }
  return out;
}
