import type { EventRecord } from './event-record';

/**
 * The bus's FIFO of records waiting to run. Dequeuing advances a head index rather than shifting the
 * array, and the consumed prefix is dropped once it is most of the array.
 */
export class EventQueue {
  #records: Array<EventRecord | undefined> = [];
  #head = 0;

  /** Records not yet dequeued, including ones that already ran inline or were cancelled. */
  get size(): number {
    return this.#records.length - this.#head;
  }

  push(record: EventRecord): void {
    this.#records.push(record);
  }

  /** The next record still queued; records that already ran inline or were cancelled are skipped. */
  next(): EventRecord | undefined {
    while (this.#head < this.#records.length) {
      const record = this.#records[this.#head];
      // Let go of the record: the queue must not keep finished events alive.
      this.#records[this.#head] = undefined;
      this.#head++;
      if (this.#head > 1024 && this.#head * 2 > this.#records.length) {
        this.#records = this.#records.slice(this.#head);
        this.#head = 0;
      }
      if (record !== undefined && record.status === 'queued') {
        return record;
      }
    }
    return undefined;
  }

  /** The records not yet dequeued, oldest first; a record pushed while iterating is visited too. */
  *waiting(): Generator<EventRecord> {
    for (let i = this.#head; i < this.#records.length; i++) {
      const record = this.#records[i];
      if (record !== undefined) {
        yield record;
      }
    }
  }
}
