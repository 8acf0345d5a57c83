import { isRecord } from '../../shared/narrow';

/**
 * A JSON Schema as MCP takes it: an object schema, without the draft marker, and without the bounds
 * that bound nothing (zod writes the safe-integer limits on every integer), which every client would
 * send its model on every turn.
 */
export function mcpSchema(schema: unknown): { type: 'object'; [key: string]: unknown } {
  const cleaned = withoutNoise(schema);
  const { $schema: _draft, ...rest } = isRecord(cleaned) ? cleaned : {};
  return { ...rest, type: 'object' };
}

function withoutNoise(schema: unknown): unknown {
  if (Array.isArray(schema)) {
    return schema.map(withoutNoise);
  }
  if (typeof schema !== 'object' || schema === null) {
    return schema;
  }
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(schema)) {
    const safeLimit = value === Number.MAX_SAFE_INTEGER || value === Number.MIN_SAFE_INTEGER;
    if ((key === 'maximum' || key === 'minimum') && safeLimit) {
      continue;
    }
    out[key] = withoutNoise(value);
  }
  return out;
}
