import { endianness } from 'node:os';

/**
 * Chrome's native-messaging framing: a 32-bit length in the machine's byte order, then that many
 * bytes of UTF-8 JSON. The decoder hands out every complete frame of a chunk (two frames arriving in
 * one read are both handled) and keeps the rest for the next read.
 */

const LITTLE_ENDIAN = endianness() === 'LE';
const HEADER_BYTES = 4;

export function encodeFrame(json: string): Buffer {
  const body = Buffer.from(json, 'utf8');
  const frame = Buffer.allocUnsafe(HEADER_BYTES + body.length);
  if (LITTLE_ENDIAN) {
    frame.writeUInt32LE(body.length, 0);
  } else {
    frame.writeUInt32BE(body.length, 0);
  }
  body.copy(frame, HEADER_BYTES);
  return frame;
}

export type DecodedFrame =
  | { kind: 'frame'; text: string }
  /** A well-framed body that is not UTF-8. */
  | { kind: 'bad_utf8'; bytes: number }
  /** A length over the limit: its bytes are skipped as they come, never buffered. */
  | { kind: 'oversized'; bytes: number };

const strictUtf8 = new TextDecoder('utf-8', { fatal: true });

export class FrameDecoder {
  readonly #limit: number;
  #buffered: Buffer[] = [];
  #bufferedBytes = 0;
  /** Bytes of an oversized frame still to skip. */
  #skipping = 0;

  constructor(limitBytes: number) {
    this.#limit = limitBytes;
  }

  /** Bytes received but not yet part of a whole frame (a partial header or body). */
  get pendingBytes(): number {
    return this.#bufferedBytes + this.#skipping;
  }

  push(chunk: Buffer): DecodedFrame[] {
    const out: DecodedFrame[] = [];
    let data = chunk;
    if (this.#skipping > 0) {
      const skipped = Math.min(this.#skipping, data.length);
      this.#skipping -= skipped;
      data = data.subarray(skipped);
    }
    if (data.length === 0) {
      return out;
    }
    this.#buffered.push(data);
    this.#bufferedBytes += data.length;
    // A large frame comes in many reads: its pieces are joined once, when the whole frame is there.
    if (this.#bufferedBytes < HEADER_BYTES || this.#bufferedBytes < HEADER_BYTES + this.#nextLength()) {
      return out;
    }
    const [only] = this.#buffered;
    data =
      this.#buffered.length === 1 && only !== undefined ? only : Buffer.concat(this.#buffered, this.#bufferedBytes);
    this.#buffered = [];
    this.#bufferedBytes = 0;
    let offset = 0;
    while (data.length - offset >= HEADER_BYTES) {
      const length = LITTLE_ENDIAN ? data.readUInt32LE(offset) : data.readUInt32BE(offset);
      if (length > this.#limit) {
        out.push({ kind: 'oversized', bytes: length });
        const available = data.length - offset - HEADER_BYTES;
        const skipped = Math.min(available, length);
        this.#skipping = length - skipped;
        offset += HEADER_BYTES + skipped;
        continue;
      }
      if (data.length - offset - HEADER_BYTES < length) {
        break;
      }
      const body = data.subarray(offset + HEADER_BYTES, offset + HEADER_BYTES + length);
      offset += HEADER_BYTES + length;
      try {
        out.push({ kind: 'frame', text: strictUtf8.decode(body) });
      } catch {
        // TextDecoder with fatal: true throws only on malformed UTF-8.
        out.push({ kind: 'bad_utf8', bytes: length });
      }
    }
    if (offset < data.length && this.#skipping === 0) {
      const rest = data.subarray(offset);
      this.#buffered = [rest];
      this.#bufferedBytes = rest.length;
    }
    return out;
  }

  /** The length the buffered header announces (its four bytes may span reads). */
  #nextLength(): number {
    const first = this.#buffered[0];
    const header =
      first !== undefined && first.length >= HEADER_BYTES ? first : Buffer.concat(this.#buffered, this.#bufferedBytes);
    const length = LITTLE_ENDIAN ? header.readUInt32LE(0) : header.readUInt32BE(0);
    // An oversized frame is handled (skipped) as soon as its header is in.
    return length > this.#limit ? 0 : length;
  }
}
