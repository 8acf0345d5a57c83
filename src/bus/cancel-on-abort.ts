import type { EventRecord } from './event-record';

/**
 * Calls `cancel` with the signal's reason once it aborts (at once when it already has), and forgets
 * the signal when the event completes, so a long-lived signal does not keep finished events.
 */
export function cancelOnAbort(record: EventRecord, signal: AbortSignal, cancel: (reason: string) => void): void {
  const reason = (): string => (typeof signal.reason === 'string' ? signal.reason : 'its caller cancelled it');
  if (signal.aborted) {
    cancel(reason());
    return;
  }
  const onAbort = (): void => cancel(reason());
  signal.addEventListener('abort', onAbort, { once: true });
  void record.whenComplete().then(() => signal.removeEventListener('abort', onAbort));
}

/** The record itself, or one of the events it (or its children) emitted. */
export function descendsFrom(record: EventRecord, ancestor: EventRecord): boolean {
  for (let current: EventRecord | undefined = record; current !== undefined; current = current.parent) {
    if (current === ancestor) {
      return true;
    }
  }
  return false;
}
