/**
 * Command-line words to protocol params: `navigate --url example.com --new-tab`, or one JSON object
 * (`navigate '{"url": "example.com"}'`). A value is read by the type the action's JSON Schema (from
 * the action catalog, as `describe` gives it) gives its param: strings stay as typed, numbers and
 * booleans are parsed, arrays and objects are JSON; `--flag` alone is true, `--no-flag` false. A name
 * the action does not take is bad usage.
 */
import { errorMessageOf } from '../../../shared/errors';
import { didYouMean } from './cli-suggest';
import { fieldOf, isOneOf, isRecord } from '../../../shared/narrow';

export interface ParamSchemas {
  /** The JSON Schema `properties` of an action's params. */
  propertiesOf(action: string): Record<string, unknown> | undefined;
}

export class CliUsageError extends Error {
  override name = 'CliUsageError';
}

export function parseParams(action: string, words: readonly string[], schemas?: ParamSchemas): Record<string, unknown> {
  if (words.length === 1 && (words[0] ?? '').trim().startsWith('{')) {
    let parsed: unknown;
    try {
      parsed = JSON.parse(words[0] ?? '');
    } catch (error) {
      throw new CliUsageError(`${action}: the params are not JSON: ${errorMessageOf(error)}`);
    }
    if (!isRecord(parsed)) {
      throw new CliUsageError(`${action}: the params must be a JSON object`);
    }
    return parsed;
  }
  const properties = schemas?.propertiesOf(action);
  const params: Record<string, unknown> = {};
  for (let i = 0; i < words.length; i++) {
    const word = words[i] ?? '';
    if (!word.startsWith('--') || word === '--') {
      throw new CliUsageError(
        `${action}: expected --name value, got "${word}" (or give the params as one JSON object)`,
      );
    }
    const equals = word.indexOf('=');
    let name = (equals === -1 ? word.slice(2) : word.slice(2, equals)).replaceAll('-', '_');
    let raw: string | undefined = equals === -1 ? undefined : word.slice(equals + 1);
    let negated = false;
    if (raw === undefined && name.startsWith('no_') && typeOf(properties?.[name.slice(3)]) === 'boolean') {
      name = name.slice(3);
      negated = true;
    }
    if (properties !== undefined && !Object.hasOwn(properties, name)) {
      // The action's params are known: a name it does not take is a typo, answered before any host is asked.
      throw new CliUsageError(
        `${action}: unknown parameter --${dashed(name)}${didYouMean(dashed(name), Object.keys(properties).map(dashed), '--')}; tabpilot ${action} --help lists them`,
      );
    }
    const type = typeOf(properties?.[name]);
    if (raw === undefined && !negated) {
      const next = words[i + 1];
      if (type !== 'boolean' && next !== undefined && !next.startsWith('--')) {
        raw = next;
        i++;
      } else if (type === 'boolean' && (next === 'true' || next === 'false')) {
        raw = next;
        i++;
      }
    }
    params[name] = negated ? false : convert(action, name, raw, type);
  }
  return params;
}

function dashed(name: string): string {
  return name.replaceAll('_', '-');
}

const SCHEMA_TYPES = ['string', 'number', 'integer', 'boolean', 'array', 'object'] as const;

type ParamType = (typeof SCHEMA_TYPES)[number] | 'unknown';

function typeOf(schema: unknown): ParamType {
  const type = fieldOf(schema, 'type');
  const anyOf = fieldOf(schema, 'anyOf');
  if (isOneOf(SCHEMA_TYPES, type)) {
    return type;
  }
  if (Array.isArray(anyOf)) {
    const types = new Set(anyOf.map(typeOf).filter((t) => t !== 'unknown'));
    return types.size === 1 ? ([...types][0] ?? 'unknown') : 'unknown';
  }
  return 'unknown';
}

function convert(action: string, name: string, raw: string | undefined, type: ParamType): unknown {
  if (raw === undefined) {
    if (type === 'boolean' || type === 'unknown') {
      return true;
    }
    throw new CliUsageError(`${action}: --${name} needs a value`);
  }
  switch (type) {
    case 'string':
      return raw;
    case 'number':
    case 'integer': {
      const value = Number(raw);
      if (raw.trim() === '' || Number.isNaN(value)) {
        throw new CliUsageError(`${action}: --${name} must be a number, got "${raw}"`);
      }
      return value;
    }
    case 'boolean':
      if (raw !== 'true' && raw !== 'false') {
        throw new CliUsageError(`${action}: --${name} is true or false, got "${raw}"`);
      }
      return raw === 'true';
    case 'array':
    case 'object':
    case 'unknown':
      try {
        const value: unknown = JSON.parse(raw);
        return value;
      } catch {
        if (type === 'unknown') {
          return raw;
        }
        throw new CliUsageError(`${action}: --${name} takes JSON (${type}), got "${raw}"`);
      }
  }
}

/** `describe`'s answer as schemas per action. */
export function schemasFromDescribe(described: unknown): ParamSchemas {
  const actions = new Map<string, Record<string, unknown>>();
  const list = fieldOf(described, 'actions');
  const entries: unknown[] = Array.isArray(list) ? list : [];
  for (const action of entries) {
    const name = fieldOf(action, 'name');
    const properties = fieldOf(fieldOf(action, 'params_schema'), 'properties');
    if (typeof name === 'string' && isRecord(properties)) {
      actions.set(name, properties);
    }
  }
  return { propertiesOf: (action) => actions.get(action) };
}

/** Splits a REPL line into words as a shell would: spaces separate, quotes group, backslash escapes. */
export function splitWords(line: string): string[] {
  const words: string[] = [];
  let current = '';
  let quote: '"' | "'" | undefined;
  let started = false;
  for (let i = 0; i < line.length; i++) {
    const char = line[i] ?? '';
    if (quote !== undefined) {
      if (char === quote) {
        quote = undefined;
      } else if (char === '\\' && quote === '"' && i + 1 < line.length) {
        current += line[++i] ?? '';
      } else {
        current += char;
      }
    } else if (char === '"' || char === "'") {
      quote = char;
      started = true;
    } else if (char === '\\' && i + 1 < line.length) {
      current += line[++i] ?? '';
      started = true;
    } else if (/\s/.test(char)) {
      if (started) {
        words.push(current);
        current = '';
        started = false;
      }
    } else {
      current += char;
      started = true;
    }
  }
  if (quote !== undefined) {
    throw new CliUsageError('unclosed quote');
  }
  if (started) {
    words.push(current);
  }
  return words;
}
