import { TabpilotError } from '../shared/errors';
import type { ChunkFrame } from './native-messages';

/**
 * Splitting a message too large for one native frame into chunk frames, and joining them again. A
 * chunk carries a slice of the message's JSON text; the slices are cut between characters (never
 * inside a surrogate pair) and sized so that the chunk frame's own JSON stays under the limit even
 * when every character of the slice needs three UTF-8 bytes.
 */

/** Room for the chunk frame's own fields around its data. */
const ENVELOPE_BYTES = 256;

/** UTF-8 length of a string, without encoding it. */
export function utf8Length(text: string): number {
  let bytes = 0;
  for (let i = 0; i < text.length; i++) {
    const code = text.charCodeAt(i);
    if (code < 0x80) {
      bytes += 1;
    } else if (code < 0x800) {
      bytes += 2;
    } else if (code >= 0xd800 && code <= 0xdbff && i + 1 < text.length) {
      const next = text.charCodeAt(i + 1);
      if (next >= 0xdc00 && next <= 0xdfff) {
        bytes += 4;
        i++;
      } else {
        bytes += 3;
      }
    } else {
      bytes += 3;
    }
  }
  return bytes;
}

/**
 * The frames (each a JSON text) that carry `message`: one when it fits in `maxBytes`, else chunk
 * frames. `newId` names one chunked message (unique among those in flight).
 */
export function framesFor(message: unknown, maxBytes: number, newId: () => string): string[] {
  const json = JSON.stringify(message);
  if (json.length <= maxBytes / 3 || utf8Length(json) <= maxBytes) {
    return [json];
  }
  const perChunk = Math.floor((maxBytes - ENVELOPE_BYTES) / 3);
  const slices: string[] = [];
  let start = 0;
  while (start < json.length) {
    let end = Math.min(start + perChunk, json.length);
    const last = json.charCodeAt(end - 1);
    if (end < json.length && last >= 0xd800 && last <= 0xdbff) {
      end--;
    }
    slices.push(json.slice(start, end));
    start = end;
  }
  const id = newId();
  return slices.map((data, index) =>
    JSON.stringify({ type: 'chunk', id, index, total: slices.length, data } satisfies ChunkFrame),
  );
}

interface Partial {
  parts: Array<string | undefined>;
  received: number;
  chars: number;
}

/**
 * Joins chunk frames back into messages. Bounded: at most `maxMessages` partial messages at once and
 * `maxChars` per message; a chunk that breaks the rules (a different total, an index out of range, a
 * repeat) fails with INVALID_REQUEST and drops that message.
 */
export class ChunkJoiner {
  readonly #partials = new Map<string, Partial>();
  readonly #maxMessages: number;
  readonly #maxChars: number;

  constructor(options: { maxMessages?: number; maxChars?: number } = {}) {
    this.#maxMessages = options.maxMessages ?? 16;
    this.#maxChars = options.maxChars ?? 256 * 1024 * 1024;
  }

  /** The whole message once its last chunk arrived (parsed), else undefined. */
  add(chunk: ChunkFrame): unknown {
    let partial = this.#partials.get(chunk.id);
    if (partial === undefined) {
      if (this.#partials.size >= this.#maxMessages) {
        throw new TabpilotError('INVALID_REQUEST', `chunk ${chunk.id}: too many chunked messages in flight`);
      }
      partial = { parts: new Array<string | undefined>(chunk.total).fill(undefined), received: 0, chars: 0 };
      this.#partials.set(chunk.id, partial);
    }
    if (
      partial.parts.length !== chunk.total ||
      chunk.index >= chunk.total ||
      partial.parts[chunk.index] !== undefined
    ) {
      this.#partials.delete(chunk.id);
      throw new TabpilotError(
        'INVALID_REQUEST',
        `chunk ${chunk.id}: index ${chunk.index} of ${chunk.total} does not fit the chunks before it`,
      );
    }
    partial.chars += chunk.data.length;
    if (partial.chars > this.#maxChars) {
      this.#partials.delete(chunk.id);
      throw new TabpilotError('INVALID_REQUEST', `chunk ${chunk.id}: message larger than ${this.#maxChars} characters`);
    }
    partial.parts[chunk.index] = chunk.data;
    partial.received++;
    if (partial.received < chunk.total) {
      return undefined;
    }
    this.#partials.delete(chunk.id);
    try {
      return JSON.parse(partial.parts.join('')) as unknown;
    } catch (error) {
      throw new TabpilotError('INVALID_JSON', `chunked message ${chunk.id} is not JSON`, { cause: error });
    }
  }

  get pending(): number {
    return this.#partials.size;
  }

  clear(): void {
    this.#partials.clear();
  }
}
