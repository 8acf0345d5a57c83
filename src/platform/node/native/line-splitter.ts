/**
 * Splits a byte stream into newline-terminated lines, bounded: a line longer than the limit is
 * reported once as too long and its bytes are dropped up to its newline, so one runaway client line
 * never grows memory. Lines are decoded as strict UTF-8.
 */

export type SplitLine = { kind: 'line'; text: string } | { kind: 'bad_utf8' } | { kind: 'too_long'; bytes: number };

const NEWLINE = 0x0a;
const strictUtf8 = new TextDecoder('utf-8', { fatal: true });

export class LineSplitter {
  readonly #limit: number;
  #parts: Buffer[] = [];
  #length = 0;
  #dropping = false;
  #dropped = 0;

  constructor(limitBytes: number) {
    this.#limit = limitBytes;
  }

  push(chunk: Buffer): SplitLine[] {
    const out: SplitLine[] = [];
    let start = 0;
    while (start <= chunk.length) {
      const newline = chunk.indexOf(NEWLINE, start);
      const end = newline === -1 ? chunk.length : newline;
      this.#take(chunk.subarray(start, end));
      if (newline === -1) {
        break;
      }
      out.push(this.#finish());
      start = newline + 1;
    }
    return out;
  }

  /** What is left when the stream ends without a final newline. */
  end(): SplitLine[] {
    return this.#length === 0 && !this.#dropping ? [] : [this.#finish()];
  }

  #take(piece: Buffer): void {
    if (piece.length === 0) {
      return;
    }
    if (this.#dropping) {
      this.#dropped += piece.length;
      return;
    }
    if (this.#length + piece.length > this.#limit) {
      this.#dropping = true;
      this.#dropped = this.#length + piece.length;
      this.#parts = [];
      this.#length = 0;
      return;
    }
    this.#parts.push(piece);
    this.#length += piece.length;
  }

  #finish(): SplitLine {
    if (this.#dropping) {
      const bytes = this.#dropped;
      this.#dropping = false;
      this.#dropped = 0;
      return { kind: 'too_long', bytes };
    }
    const bytes = Buffer.concat(this.#parts, this.#length);
    this.#parts = [];
    this.#length = 0;
    try {
      return { kind: 'line', text: strictUtf8.decode(bytes) };
    } catch {
      // TextDecoder with fatal: true throws only on malformed UTF-8.
      return { kind: 'bad_utf8' };
    }
  }
}
