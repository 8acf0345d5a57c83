import { isRecord } from '../../shared/narrow';

/**
 * One event of a Chrome trace, in the Trace Event Format that DevTools' Performance panel loads: the
 * fields the vitals are read from. `ts` and `dur` are microseconds on the trace's own clock.
 */
export interface TraceEvent {
  name: string;
  /** The phase: X complete, b/e async begin/end, I instant, M metadata, ... */
  ph: string;
  ts: number;
  pid: number;
  tid: number;
  cat: string;
  dur?: number;
  args: Record<string, unknown>;
}

/** A trace event read from what the browser sent, or undefined for anything without the format's fields. */
export function traceEventOf(value: unknown): TraceEvent | undefined {
  if (!isRecord(value)) {
    return undefined;
  }
  const { name, ph, ts, pid, tid, cat, dur, args } = value;
  if (typeof name !== 'string' || typeof ph !== 'string' || typeof pid !== 'number' || typeof tid !== 'number') {
    return undefined;
  }
  return {
    name,
    ph,
    // Metadata events (ph M) may come without a time.
    ts: typeof ts === 'number' ? ts : 0,
    pid,
    tid,
    cat: typeof cat === 'string' ? cat : '',
    ...(typeof dur === 'number' ? { dur } : {}),
    args: isRecord(args) ? args : {},
  };
}

/** The record at `key` of `value`, or an empty one. */
export function recordAt(value: Record<string, unknown>, key: string): Record<string, unknown> {
  const field = value[key];
  return isRecord(field) ? field : {};
}

export function stringAt(value: Record<string, unknown>, key: string): string | undefined {
  const field = value[key];
  return typeof field === 'string' ? field : undefined;
}

export function numberAt(value: Record<string, unknown>, key: string): number | undefined {
  const field = value[key];
  return typeof field === 'number' && Number.isFinite(field) ? field : undefined;
}
