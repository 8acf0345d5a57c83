import { createRequire } from 'node:module';
import { Ajv, type ErrorObject } from 'ajv';
import addFormats from 'ajv-formats';

const require = createRequire(import.meta.url);

/**
 * An independent HAR 1.2 check: the JSON Schemas of har-schema (the schemas behind har-validator)
 * compiled with ajv, formats (date-time, uri, ipv4/ipv6) checked. har-schema writes `min` where JSON
 * Schema says `minimum`, so ajv runs non-strict and those are ignored, as har-validator ignores them.
 */
export function validateHar(har: unknown): ErrorObject[] {
  const ajv = new Ajv({ strict: false, allErrors: true });
  ajv.addMetaSchema(require('ajv/dist/refs/json-schema-draft-06.json') as object);
  addFormats.default(ajv);
  const schemas = require('har-schema') as Record<string, { $id: string }>;
  for (const schema of Object.values(schemas)) {
    ajv.addSchema(schema);
  }
  const validate = ajv.getSchema('har.json#');
  if (validate === undefined) {
    throw new Error('har-schema has no har.json');
  }
  return validate(har) ? [] : (validate.errors ?? []);
}
