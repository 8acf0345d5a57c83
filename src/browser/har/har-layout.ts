import type { HarCreator, HarEntry, HarPage } from './har-types';

/** One write to make: `bytes` at byte `offset`. */
export interface FileWrite {
  offset: number;
  bytes: Uint8Array;
}

const encoder = new TextEncoder();

/**
 * Lays a HAR out so that the file is a complete HAR 1.2 document after every single write, which is what
 * makes a HAR from a session that ended abruptly readable. The entries come first and the pages after
 * them (key order means nothing in JSON):
 *
 *   {"log":{"version":"1.2","creator":…,"browser":…,"entries":[E1,…,En],"pages":[…]}}
 *
 * A new entry is one write at the end of the entries that also rewrites the short pages tail after it; a
 * change to the pages rewrites only that tail. A tail that came out shorter than the one it replaces is
 * padded with spaces (JSON allows trailing white space), so no write ever leaves old bytes past the end.
 */
export class HarFileLayout {
  #entriesEnd = 0;
  #fileEnd = 0;
  #entries = 0;
  #pages: readonly HarPage[] = [];

  /** The first write: an empty log. */
  start(creator: HarCreator, browser: HarCreator): FileWrite {
    const head = encoder.encode(
      `{"log":{"version":"1.2","creator":${JSON.stringify(creator)},"browser":${JSON.stringify(browser)},"entries":[`,
    );
    this.#entriesEnd = head.length;
    const tail = this.#tail(this.#entriesEnd);
    const bytes = new Uint8Array(head.length + tail.length);
    bytes.set(head, 0);
    bytes.set(tail, head.length);
    this.#fileEnd = bytes.length;
    return { offset: 0, bytes };
  }

  get entryCount(): number {
    return this.#entries;
  }

  /** The size of the file once every write so far is made. */
  get size(): number {
    return this.#fileEnd;
  }

  addEntry(entry: HarEntry): FileWrite {
    const text = encoder.encode(`${this.#entries === 0 ? '' : ','}${JSON.stringify(entry)}`);
    const offset = this.#entriesEnd;
    this.#entriesEnd += text.length;
    this.#entries += 1;
    const tail = this.#tail(this.#entriesEnd);
    const bytes = new Uint8Array(text.length + tail.length);
    bytes.set(text, 0);
    bytes.set(tail, text.length);
    this.#fileEnd = offset + bytes.length;
    return { offset, bytes };
  }

  setPages(pages: readonly HarPage[]): FileWrite {
    this.#pages = pages;
    const bytes = this.#tail(this.#entriesEnd);
    this.#fileEnd = this.#entriesEnd + bytes.length;
    return { offset: this.#entriesEnd, bytes };
  }

  /** `],"pages":[…]}}` for a tail starting at `at`, padded to reach at least the current end of file. */
  #tail(at: number): Uint8Array {
    const raw = encoder.encode(`],"pages":${JSON.stringify(this.#pages)}}}\n`);
    const length = Math.max(raw.length, this.#fileEnd - at);
    if (length === raw.length) {
      return raw;
    }
    const padded = new Uint8Array(length).fill(0x20);
    padded.set(raw.subarray(0, raw.length - 1), 0);
    padded[length - 1] = 0x0a;
    return padded;
  }
}
