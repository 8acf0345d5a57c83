import { isRecord } from '../shared/narrow';

/**
 * A params JSON Schema as a model is sent it (MCP's tools/list, the built-in agent's tools), every turn:
 * what a model needs to call the tool (types, enums, required, numeric ranges, defaults, the short
 * descriptions) without what costs tokens and informs nothing:
 * - the draft marker, and `additionalProperties: false` on every object (the server refuses unknown
 *   params anyway, naming them);
 * - `details`, the long words a param carries for the generated reference only, and `programsOnly`,
 *   which only the built-in agent's tools read (`withoutProgramsOnly`);
 * - the safe-integer bounds zod writes on every integer;
 * - `minLength: 1` on every id and text, `minItems: 1` on a list, and a string's cap (a tab id's, a
 *   locale's), which never change what a model sends; a longer minimum, a list's cap and numeric ranges
 *   stay;
 * - `exclusiveMinimum: 0` on an integer, said as the shorter `minimum: 1`;
 * - the defaults a model assumes of a param it leaves out (false, [], {}), and a null default with the
 *   null it allows (the param is shown as the type it has when given);
 * - a number's default and a free string's (a file name), which a model gives when it cares and need not
 *   know when it does not; a choice's default (an enum's) and a true flag's stay, as they say what
 *   leaving the param out does;
 * - a cap of 1000 or more, there to stop nonsense a model does not send; a smaller cap is a rule it needs;
 * - a floor of 0 or 1 with no cap left (a count, a size, an offset, an index is never negative), which
 *   says nothing a model would get wrong; a range (0 to 100) and any other floor (-1) stay;
 * - zod's own string formats (`starts_with`), which are no JSON Schema format; the pattern stays;
 * - a record's `propertyNames: string` and empty `additionalProperties`, which say "any object".
 */
export function modelSchema(schema: unknown): { type: 'object'; [key: string]: unknown } {
  const cleaned = compact(schema);
  const { $schema: _draft, ...rest } = isRecord(cleaned) ? cleaned : {};
  return { ...rest, type: 'object' };
}

const DROPPED = new Set(['details', 'maxLength', 'programsOnly']);

function compact(schema: unknown): unknown {
  if (Array.isArray(schema)) {
    return schema.map(compact);
  }
  if (!isRecord(schema)) {
    return schema;
  }
  const out: Record<string, unknown> = {};
  const plain = withoutNull(schema);
  const integer = plain['type'] === 'integer';
  const unbounded = !hasCap(plain);
  for (const [key, value] of Object.entries(plain)) {
    if (DROPPED.has(key) || saysNothing(key, value) || defaultSaysNothing(plain, key, value)) {
      continue;
    }
    if (unbounded && plainFloor(key, value)) {
      continue;
    }
    const safeLimit = value === Number.MAX_SAFE_INTEGER || value === Number.MIN_SAFE_INTEGER;
    if (((key === 'maximum' || key === 'minimum') && safeLimit) || sanityCap(key, value)) {
      continue;
    }
    if (key === 'exclusiveMinimum' && value === 0 && integer) {
      out['minimum'] = 1;
      continue;
    }
    out[key] = key === 'properties' && isRecord(value) ? compactProperties(value) : compact(value);
  }
  return out;
}

function saysNothing(key: string, value: unknown): boolean {
  switch (key) {
    case 'additionalProperties':
      return value === false || (isRecord(value) && Object.keys(value).length === 0);
    case 'propertyNames':
      return isRecord(value) && value['type'] === 'string' && Object.keys(value).length === 1;
    case 'format':
      return value === 'starts_with';
    case 'minLength':
    case 'minItems':
      // Non-empty: what every id, text and list a model sends is anyway. A longer minimum is a rule it needs.
      return value === 1;
    default:
      return false;
  }
}

/** The least cap that only stops nonsense (a thousand results, a 120-second timeout, a 10,000-px viewport). */
const SANITY_CAP = 1000;

function sanityCap(key: string, value: unknown): boolean {
  return (key === 'maximum' || key === 'exclusiveMaximum') && typeof value === 'number' && value >= SANITY_CAP;
}

/** A cap the model is sent: below the sanity cap (the safe-integer bound zod writes is above it). */
function hasCap(schema: Record<string, unknown>): boolean {
  return ['maximum', 'exclusiveMaximum'].some((key) => {
    const value = schema[key];
    return typeof value === 'number' && !sanityCap(key, value);
  });
}

/** Not negative, or at least 1 (an integer zod calls positive): what a count, size or index is anyway. */
function plainFloor(key: string, value: unknown): boolean {
  return ((key === 'minimum' || key === 'exclusiveMinimum') && value === 0) || (key === 'minimum' && value === 1);
}

/**
 * A default a model need not be told: one it assumes of a param it leaves out (false, an empty list, an
 * empty object), a number's (a count, a size, a time: it gives one when it cares) and a free string's (a
 * file name). An enum's default and `true` stay: they say what leaving the param out chooses.
 */
function defaultSaysNothing(schema: Record<string, unknown>, key: string, value: unknown): boolean {
  if (key !== 'default') {
    return false;
  }
  return (
    value === false ||
    typeof value === 'number' ||
    (typeof value === 'string' && schema['enum'] === undefined) ||
    (Array.isArray(value) && value.length === 0) ||
    (isRecord(value) && Object.keys(value).length === 0)
  );
}

/**
 * A param that may be null and is null by default, as the type it has when given: a model leaves it out
 * for the default, so the null and the default say nothing it needs.
 */
function withoutNull(schema: Record<string, unknown>): Record<string, unknown> {
  const variants: unknown = schema['anyOf'];
  if (schema['default'] !== null || !Array.isArray(variants)) {
    return schema;
  }
  const given = variants.filter((variant: unknown) => !(isRecord(variant) && variant['type'] === 'null'));
  const only: unknown = given[0];
  if (given.length !== 1 || !isRecord(only)) {
    return schema;
  }
  const { anyOf: _variants, default: _null, ...rest } = schema;
  return { ...rest, ...only };
}

/** The properties by name: a param named `details` or `minLength` is a param, not a keyword. */
function compactProperties(properties: Record<string, unknown>): Record<string, unknown> {
  return Object.fromEntries(Object.entries(properties).map(([name, value]) => [name, compact(value)]));
}

/**
 * The params a program tunes and the built-in agent does without (a navigation's readiness wait, a
 * search engine, keys held during a click, browser-use's second form of a scroll direction, a file's
 * bytes), marked `.meta({ programsOnly: true })` in their event: left out of the agent's tools, where
 * every step pays for them. A program still gets every param.
 */
export function withoutProgramsOnly(schema: unknown): unknown {
  if (!isRecord(schema) || !isRecord(schema['properties'])) {
    return schema;
  }
  const kept = Object.entries(schema['properties']).filter(
    ([, param]) => !isRecord(param) || param['programsOnly'] !== true,
  );
  return { ...schema, properties: Object.fromEntries(kept) };
}
