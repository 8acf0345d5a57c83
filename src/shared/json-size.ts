/** A container being walked: its children (array items, or an object's values) and the next one to read. */
interface Frame {
  readonly children: readonly unknown[];
  next: number;
}

/** Deeper than this is counted as over the limit: JSON data is never this deep, a cycle always is. */
const MAX_DEPTH = 256;

/**
 * Roughly how many bytes `value` would take as JSON (strings counted in UTF-16 code units), found by
 * walking it, never by serialising it. The walk stops as soon as the count passes `limit` and returns
 * that partial count (some number above `limit`), so asking whether a megabyte result is over a small
 * budget costs only as much as the budget. Keys JSON would drop (undefined values, functions) are counted
 * anyway: this is an estimate for budgets, not a serializer.
 */
export function estimateJsonBytes(value: unknown, limit: number): number {
  let total = scalarBytes(value);
  const stack: Frame[] = [];
  let frame = open(value);
  if (frame === undefined) {
    return total;
  }
  total += frame.children.length + 2;
  for (;;) {
    if (total > limit) {
      return total;
    }
    if (frame.next >= frame.children.length) {
      const parent = stack.pop();
      if (parent === undefined) {
        return total;
      }
      frame = parent;
      continue;
    }
    const child = frame.children[frame.next++];
    total += scalarBytes(child);
    const inner = open(child);
    if (inner !== undefined) {
      if (stack.length >= MAX_DEPTH) {
        return limit + 1;
      }
      total += inner.children.length + 2;
      stack.push(frame);
      frame = inner;
    }
  }
}

/** The bytes of a scalar; for an object, the bytes of its keys (its values are walked separately). */
function scalarBytes(value: unknown): number {
  switch (typeof value) {
    case 'string':
      return value.length + 2;
    case 'number':
    case 'bigint':
      return 8;
    case 'boolean':
      return 5;
    case 'object': {
      if (value === null || Array.isArray(value)) {
        return 4;
      }
      let keys = 0;
      for (const key in value) {
        keys += key.length + 3;
      }
      return keys;
    }
    case 'undefined':
    case 'function':
    case 'symbol':
      return 4;
  }
}

function open(value: unknown): Frame | undefined {
  if (typeof value !== 'object' || value === null) {
    return undefined;
  }
  return { children: Array.isArray(value) ? value : Object.values(value), next: 0 };
}
