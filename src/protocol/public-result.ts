/**
 * The protocol never shows CDP target ids: a tab is named by its short `tab_id`. Handlers speak target
 * ids (`target_id`, `opened_target_id`, `released_target_ids`, ...); this turns every such key of a
 * result into its tab form (`tab_id`, `opened_tab_id`, `released_tab_ids`) with the value mapped,
 * at any depth. Nothing else changes: a part with no such key is the same object, not a copy (a
 * whole-page state holds tens of thousands of elements, and copying them was a tenth of its time in
 * Node). Results are not changed in place: the bus may still hold the one a handler returned.
 */
export function publicResult(value: unknown, tabIdOf: (targetId: string) => string): unknown {
  if (Array.isArray(value)) {
    let out: unknown[] | undefined;
    for (let index = 0; index < value.length; index++) {
      const item: unknown = value[index];
      const mapped = publicResult(item, tabIdOf);
      if (out === undefined && mapped !== item) {
        out = value.slice(0, index);
      }
      out?.push(mapped);
    }
    return out ?? value;
  }
  if (typeof value !== 'object' || value === null) {
    return value;
  }
  const record = value as Record<string, unknown>;
  let out: Record<string, unknown> | undefined;
  // for...in rather than Object.keys: no array of keys per object (results are plain JSON-like objects).
  for (const key in record) {
    if (!Object.hasOwn(record, key)) {
      continue;
    }
    const item = record[key];
    const tabKey = tabKeyOf(key);
    const mapped = tabKey === null ? publicResult(item, tabIdOf) : tabValueOf(item, tabIdOf);
    if (out === undefined && (tabKey !== null || mapped !== item)) {
      out = copiedBefore(record, key);
    }
    if (out !== undefined) {
      out[tabKey ?? key] = mapped;
    }
  }
  return out ?? value;
}

/** The first change: the entries before `stop` are copied as they are. */
function copiedBefore(record: Record<string, unknown>, stop: string): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const key in record) {
    if (key === stop) {
      break;
    }
    if (Object.hasOwn(record, key)) {
      out[key] = record[key];
    }
  }
  return out;
}

/** `target_id` → `tab_id`, `opened_target_id` → `opened_tab_id`, `…_target_ids` → `…_tab_ids`; else null. */
function tabKeyOf(key: string): string | null {
  if (key === 'target_id' || key.endsWith('_target_id')) {
    return `${key.slice(0, -'target_id'.length)}tab_id`;
  }
  if (key === 'target_ids' || key.endsWith('_target_ids')) {
    return `${key.slice(0, -'target_ids'.length)}tab_ids`;
  }
  return null;
}

/** A target id, or a list of them, as tab ids (anything else as it is). */
function tabValueOf(item: unknown, tabIdOf: (targetId: string) => string): unknown {
  if (typeof item === 'string') {
    return tabIdOf(item);
  }
  return Array.isArray(item)
    ? item.map((targetId: unknown) => (typeof targetId === 'string' ? tabIdOf(targetId) : targetId))
    : item;
}

type PublicKey<K extends string> = K extends 'target_id'
  ? 'tab_id'
  : K extends `${infer P}_target_id`
    ? `${P}_tab_id`
    : K extends 'target_ids'
      ? 'tab_ids'
      : K extends `${infer P}_target_ids`
        ? `${P}_tab_ids`
        : K;

/** The type of a result as the protocol shows it: what `publicResult` makes of a `T`. */
export type Public<T> = T extends readonly (infer U)[]
  ? Array<Public<U>>
  : T extends object
    ? { [K in keyof T as K extends string ? PublicKey<K> : K]: Public<T[K]> }
    : T;
