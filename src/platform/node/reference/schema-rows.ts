import { isRecord } from '../../../shared/narrow';

/**
 * JSON Schema (as zod 4's toJSONSchema writes it) turned into the rows of a markdown table: one row per
 * field, nested objects and lists of objects walked into (`tabs[].tab_id`), each with its type in words,
 * whether it is required, its default and its description.
 */

export type JsonSchema = Record<string, unknown>;

export interface SchemaRow {
  readonly path: string;
  readonly type: string;
  readonly required: boolean;
  readonly default: string;
  readonly description: string;
}

export interface RowOptions {
  /** How deep nested objects are walked; 0 shows only the top-level fields. */
  readonly depth: number;
  /** A field's name as the reader sees it (results show `tab_id` where the handler wrote `target_id`). */
  readonly rename?: (key: string) => string;
}

function asSchema(value: unknown): JsonSchema {
  return isRecord(value) ? value : {};
}

function variants(schema: JsonSchema): JsonSchema[] | undefined {
  const list = schema['anyOf'] ?? schema['oneOf'];
  return Array.isArray(list) ? list.map(asSchema) : undefined;
}

function bounds(schema: JsonSchema): string {
  const parts: string[] = [];
  const min = schema['minimum'] ?? schema['exclusiveMinimum'];
  const max = schema['maximum'] ?? schema['exclusiveMaximum'];
  const safe = (value: unknown): boolean =>
    typeof value === 'number' && Math.abs(value) < Number.MAX_SAFE_INTEGER && value !== 0;
  if (schema['exclusiveMinimum'] === 0) {
    parts.push('> 0');
  } else if (typeof min === 'number' && (safe(min) || min === 0)) {
    parts.push(`≥ ${min}`);
  }
  if (safe(max)) {
    parts.push(`≤ ${String(max)}`);
  }
  if (typeof schema['minLength'] === 'number' && schema['minLength'] > 0) {
    parts.push(`length ≥ ${schema['minLength']}`);
  }
  if (typeof schema['maxLength'] === 'number') {
    parts.push(`length ≤ ${schema['maxLength']}`);
  }
  if (typeof schema['minItems'] === 'number' && schema['minItems'] > 0) {
    parts.push(`≥ ${schema['minItems']} items`);
  }
  if (typeof schema['maxItems'] === 'number') {
    parts.push(`≤ ${schema['maxItems']} items`);
  }
  return parts.length === 0 ? '' : ` (${parts.join(', ')})`;
}

/** A schema's type in words: `integer (≥ 1)`, `"png" or "jpeg"`, `array of string`, `string or null`. */
export function typeText(schemaValue: unknown): string {
  const schema = asSchema(schemaValue);
  if (Array.isArray(schema['enum'])) {
    return schema['enum'].map((value) => JSON.stringify(value)).join(' or ');
  }
  if ('const' in schema) {
    return JSON.stringify(schema['const']);
  }
  const anyOf = variants(schema);
  if (anyOf !== undefined) {
    return [...new Set(anyOf.map(typeText))].join(' or ');
  }
  if (typeof schema['$ref'] === 'string') {
    return 'object';
  }
  const type = schema['type'];
  if (Array.isArray(type)) {
    const types: unknown[] = type;
    return types.map((one) => typeText({ ...schema, type: one })).join(' or ');
  }
  switch (type) {
    case 'array': {
      const items = schema['items'];
      return `array of ${items === undefined ? 'any' : typeText(items)}${bounds(schema)}`;
    }
    case 'object': {
      const extra = schema['additionalProperties'];
      const named = schema['properties'] !== undefined;
      if (!named && typeof extra === 'object' && extra !== null && Object.keys(extra).length > 0) {
        return `object of ${typeText(extra)}`;
      }
      return 'object';
    }
    case 'string':
    case 'number':
    case 'integer':
      return `${type}${bounds(schema)}`;
    case 'boolean':
    case 'null':
      return type;
    default:
      return 'any';
  }
}

/** The object schema inside a field: itself, a nullable object's object, or a list's items. */
function innerObject(schema: JsonSchema): { object: JsonSchema; suffix: string } | undefined {
  if (schema['properties'] !== undefined) {
    return { object: schema, suffix: '' };
  }
  if (schema['type'] === 'array') {
    const inner = innerObject(asSchema(schema['items']));
    return inner === undefined ? undefined : { object: inner.object, suffix: `[]${inner.suffix}` };
  }
  const anyOf = variants(schema);
  if (anyOf !== undefined) {
    const objects = anyOf.map(innerObject).filter((inner) => inner !== undefined);
    return objects.length === 1 ? objects[0] : undefined;
  }
  return undefined;
}

/**
 * A field's words in the reference: its `details` where it has them (the long words a model is not sent,
 * model-schema.ts), else the description a model reads too.
 */
function described(field: JsonSchema): string {
  const words = field['details'] ?? field['description'];
  return typeof words === 'string' ? words : '';
}

/** One row per field of an object schema, nested fields after their parent. */
export function schemaRows(schemaValue: unknown, options: RowOptions, prefix = '', level = 0): SchemaRow[] {
  const schema = asSchema(schemaValue);
  const properties = asSchema(schema['properties']);
  const listed = schema['required'];
  const required = new Set(Array.isArray(listed) ? listed.filter((name) => typeof name === 'string') : []);
  const rows: SchemaRow[] = [];
  for (const [key, value] of Object.entries(properties)) {
    const field = asSchema(value);
    const name = options.rename === undefined ? key : options.rename(key);
    const path = `${prefix}${name}`;
    const inner = innerObject(field);
    const children =
      inner !== undefined && level < options.depth
        ? schemaRows(inner.object, options, `${path}${inner.suffix}.`, level + 1)
        : [];
    rows.push({
      path,
      type: typeText(field),
      required: required.has(key) && !('default' in field),
      // An object's default is its fields' defaults, each on its own row.
      default: 'default' in field && children.length === 0 ? JSON.stringify(field['default']) : '',
      description: described(field),
    });
    rows.push(...children);
  }
  return rows;
}

/** Text safe inside a markdown table cell: no pipes, no line breaks. */
export function cell(text: string): string {
  return text
    .replace(/\\/g, '\\\\')
    .replace(/\|/g, '\\|')
    .replace(/\s*\n\s*/g, ' ');
}

/** Text as an inline code span, safe inside a table cell. */
export function code(text: string): string {
  if (text === '') {
    return '';
  }
  const ticks = text.includes('`') ? '``' : '`';
  const pad = ticks.length > 1 ? ' ' : '';
  return `${ticks}${pad}${text.replace(/\|/g, '\\|')}${pad}${ticks}`;
}
