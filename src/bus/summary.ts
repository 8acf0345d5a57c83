import { estimateJsonBytes } from '../shared/json-size';

/** A top-level field at most this big (as JSON) is kept in a summary as it is. */
const FIELD_BYTES = 256;
/** What the kept fields of one summary may add up to. */
const KEPT_BYTES = 2048;
/** How many omitted fields a summary names one by one. */
const MAX_NOTES = 24;

/** The key under which a summary says what it left out. */
export const OMITTED_KEY = '_omitted';

/**
 * A small stand-in for a large payload or result that history no longer keeps whole: the small
 * top-level fields as they were (ids, urls, flags, counts, so `find` predicates on them still work) and,
 * under `_omitted`, a size note for each field left out (`"string, 1048576 chars"`, `"array, 10512
 * items"`). A value that is not an object is left out whole, its note under `_omitted.value`.
 */
export function summarize(value: unknown): Record<string, unknown> {
  const omitted: Record<string, string> = {};
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    omitted['value'] = sizeNote(value);
    return { [OMITTED_KEY]: omitted };
  }
  const kept: Record<string, unknown> = {};
  let keptBytes = 0;
  let notes = 0;
  let unnamed = 0;
  for (const key in value) {
    const item = (value as Record<string, unknown>)[key];
    const bytes = estimateJsonBytes(item, FIELD_BYTES);
    if (bytes <= FIELD_BYTES && keptBytes + bytes <= KEPT_BYTES) {
      kept[key] = item;
      keptBytes += bytes;
    } else if (notes < MAX_NOTES) {
      omitted[key] = sizeNote(item);
      notes++;
    } else {
      unnamed++;
    }
  }
  if (unnamed > 0) {
    omitted['…'] = `${unnamed} more fields`;
  }
  return { ...kept, [OMITTED_KEY]: omitted };
}

function sizeNote(value: unknown): string {
  if (typeof value === 'string') {
    return `string, ${value.length} chars`;
  }
  if (Array.isArray(value)) {
    return `array, ${value.length} items`;
  }
  if (typeof value === 'object' && value !== null) {
    return `object, ${Object.keys(value).length} fields`;
  }
  return typeof value;
}
