import { isRecord } from '../../shared/narrow';

/**
 * The slice of JSON Schema that `describe` produces (zod's toJSONSchema, io: input), and what a form
 * needs to know about a field. The panel only builds forms from it; the worker validates.
 */
export interface JsonSchema {
  type?: string | string[];
  properties?: Record<string, JsonSchema>;
  required?: string[];
  additionalProperties?: boolean | JsonSchema;
  items?: JsonSchema;
  enum?: unknown[];
  const?: unknown;
  anyOf?: JsonSchema[];
  oneOf?: JsonSchema[];
  default?: unknown;
  description?: string;
  /** The long words of a param (a person's; a model gets the short description only). */
  details?: string;
  /** Set on secrets (the config's sensitive_data): the form masks the values. */
  writeOnly?: boolean;
  minimum?: number;
  maximum?: number;
}

export type FieldKind = 'boolean' | 'enum' | 'string' | 'number' | 'integer' | 'object' | 'record' | 'list' | 'json';

export interface FieldShape {
  kind: FieldKind;
  /** The schema without its `null` alternative. */
  schema: JsonSchema;
  nullable: boolean;
}

/** A field's help for a person: its long words where it has them, else its description. */
export function helpOf(schema: JsonSchema): string | undefined {
  return schema.details ?? schema.description;
}

export function asSchema(value: unknown): JsonSchema {
  return typeof value === 'object' && value !== null && !Array.isArray(value) ? value : {};
}

function isNullSchema(schema: JsonSchema): boolean {
  return schema.type === 'null' || (schema.const === null && schema.type === undefined);
}

/** What widget a schema calls for. Anything unusual is edited as JSON and left to the worker to judge. */
export function shapeOf(input: JsonSchema): FieldShape {
  let schema = input;
  let nullable = false;
  const alternatives = input.anyOf ?? input.oneOf;
  if (alternatives !== undefined) {
    const others = alternatives.filter((alternative) => !isNullSchema(alternative));
    nullable = others.length < alternatives.length;
    if (others.length === 1 && others[0] !== undefined) {
      schema = {
        ...others[0],
        description: input.description ?? others[0].description,
        details: input.details ?? others[0].details,
        default: input.default,
      };
    } else {
      return { kind: 'json', schema: input, nullable };
    }
  }
  if (Array.isArray(schema.type)) {
    const types = schema.type.filter((type) => type !== 'null');
    nullable ||= types.length < schema.type.length;
    schema = types.length === 1 ? { ...schema, type: types[0] } : schema;
  }
  if (schema.enum !== undefined && schema.enum.every((value) => typeof value === 'string')) {
    return { kind: 'enum', schema, nullable };
  }
  const type = schema.type;
  if (type === 'boolean' || type === 'string' || type === 'number' || type === 'integer') {
    return { kind: type, schema, nullable };
  }
  if (type === 'object' && schema.properties !== undefined) {
    return { kind: 'object', schema, nullable };
  }
  if (type === 'object' && typeof schema.additionalProperties === 'object') {
    return { kind: 'record', schema, nullable };
  }
  if (type === 'array' && schema.items !== undefined && isSimple(schema.items)) {
    return { kind: 'list', schema, nullable };
  }
  return { kind: 'json', schema, nullable };
}

/** A list item a one-line input can hold: a string, a number, or one of a few strings. */
function isSimple(items: JsonSchema): boolean {
  const kind = shapeOf(items).kind;
  return kind === 'string' || kind === 'number' || kind === 'integer' || kind === 'enum';
}

/** A sensible empty value for a new entry of this schema (a record's new key). */
export function emptyValueOf(schema: JsonSchema): unknown {
  if (schema.default !== undefined) {
    return schema.default;
  }
  const shape = shapeOf(schema);
  switch (shape.kind) {
    case 'boolean':
      return false;
    case 'string':
      return '';
    case 'enum':
      return shape.schema.enum?.[0];
    case 'object':
    case 'record':
      return {};
    case 'list':
      return [];
    case 'number':
    case 'integer':
    case 'json':
      return undefined;
  }
}

/** A number field's text as the value to send: empty is "not given"; anything else goes to the worker. */
export function numberFromText(text: string): number | string | undefined {
  const trimmed = text.trim();
  if (trimmed === '') {
    return undefined;
  }
  const value = Number(trimmed);
  return Number.isNaN(value) ? trimmed : value;
}

/** A JSON field's text as the value to send; text that is not JSON is sent as-is for the worker to refuse. */
export function jsonFromText(text: string): unknown {
  if (text.trim() === '') {
    return undefined;
  }
  try {
    const value: unknown = JSON.parse(text);
    return value;
  } catch {
    // Not JSON: the worker names the field and says what it expected.
    return text;
  }
}

/** A copy of an object with one key set, or removed when the value is undefined. */
export function withKey(object: Record<string, unknown>, key: string, value: unknown): Record<string, unknown> {
  const next = { ...object };
  if (value === undefined) {
    delete next[key];
  } else {
    next[key] = value;
  }
  return next;
}

export function asRecord(value: unknown): Record<string, unknown> {
  return isRecord(value) ? value : {};
}
