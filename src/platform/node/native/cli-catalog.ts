import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { errorMessageOf } from '../../../shared/errors';
import type { ParamSchemas } from './cli-params';

/**
 * The action catalog the build writes next to the CLI (dist/node/action-catalog.json): every action
 * as `describe` gives it (name, description, category, the JSON Schema of its params). The CLI reads
 * it instead of asking the host for `describe` (48k characters over the socket) before each command.
 */

export const CATALOG_FILE = 'action-catalog.json';

export interface ParamSchema {
  type?: string;
  anyOf?: ParamSchema[];
  enum?: unknown[];
  const?: unknown;
  default?: unknown;
  description?: string;
  /** The long words a person reads in help (a model gets the short description only). */
  details?: string;
  items?: ParamSchema;
}

export interface CatalogAction {
  name: string;
  description: string;
  /** Absent for the server's own actions (describe, subscribe, ...), as describe gives them. */
  category?: string;
  params_schema: { properties?: Record<string, ParamSchema>; required?: string[] };
}

export interface ActionCatalog {
  version: string;
  actions: CatalogAction[];
}

/** Reads the catalog beside the bundle; a missing one means the bundle was never built whole. */
export function loadCatalog(dir: string): ActionCatalog {
  const path = join(dir, CATALOG_FILE);
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (error) {
    throw new Error(
      `the action catalog ${path} is missing (${errorMessageOf(error)}): run \`npm run build\` in the tabpilot folder`,
      { cause: error },
    );
  }
  return JSON.parse(text) as ActionCatalog;
}

export function findAction(catalog: ActionCatalog, name: string): CatalogAction | undefined {
  return catalog.actions.find((action) => action.name === name);
}

/** The catalog as the param parser's schemas. */
export function catalogSchemas(catalog: ActionCatalog): ParamSchemas {
  return { propertiesOf: (name) => findAction(catalog, name)?.params_schema.properties };
}

/** The values a param takes when it is one of a few (an enum, or an anyOf of consts). */
export function enumValues(schema: ParamSchema | undefined): string[] | undefined {
  if (schema === undefined) {
    return undefined;
  }
  if (Array.isArray(schema.enum)) {
    return schema.enum.filter(isScalar).map(String);
  }
  if (Array.isArray(schema.anyOf)) {
    const values = schema.anyOf.map(
      (option) => enumValues(option) ?? (isScalar(option.const) ? [String(option.const)] : []),
    );
    const flat = values.flat();
    return flat.length > 0 && values.every((list) => list.length > 0) ? flat : undefined;
  }
  return undefined;
}

/** `new_tab` as a person types it on a command line: `--new-tab`. */
export function flagOf(param: string): string {
  return `--${param.replaceAll('_', '-')}`;
}

function isScalar(value: unknown): value is string | number | boolean {
  return typeof value === 'string' || typeof value === 'number' || typeof value === 'boolean';
}
