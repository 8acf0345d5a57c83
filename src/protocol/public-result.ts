/**
 * The protocol never shows CDP target ids: a tab is named by its short `tab_id`. Handlers speak target
 * ids (`target_id`, `opened_target_id`, `released_target_ids`, ...); this turns every such key of a
 * result into its tab form (`tab_id`, `opened_tab_id`, `released_tab_ids`) with the value mapped,
 * at any depth. Nothing else changes.
 */
export function publicResult(value: unknown, tabIdOf: (targetId: string) => string): unknown {
  if (Array.isArray(value)) {
    return value.map((item) => publicResult(item, tabIdOf));
  }
  if (typeof value !== 'object' || value === null) {
    return value;
  }
  const out: Record<string, unknown> = {};
  for (const [key, item] of Object.entries(value as Record<string, unknown>)) {
    if (key === 'target_id' || key.endsWith('_target_id')) {
      out[`${key.slice(0, -'target_id'.length)}tab_id`] = typeof item === 'string' ? tabIdOf(item) : item;
    } else if (key === 'target_ids' || key.endsWith('_target_ids')) {
      out[`${key.slice(0, -'target_ids'.length)}tab_ids`] = Array.isArray(item)
        ? item.map((targetId: unknown) => (typeof targetId === 'string' ? tabIdOf(targetId) : targetId))
        : item;
    } else {
      out[key] = publicResult(item, tabIdOf);
    }
  }
  return out;
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
