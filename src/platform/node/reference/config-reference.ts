import { configJsonSchema } from '../../../browser/config';
import { GENERATED_NOTE } from './protocol-reference';
import { cell, code, schemaRows, type JsonSchema } from './schema-rows';

/** docs/reference/configuration.md, before formatting: every field of the one config, from its zod schema. */
export function renderConfigReference(): string {
  const schema = configJsonSchema() as JsonSchema;
  const rows = schemaRows(schema, { depth: 3 });
  const head = '| field | type | default | description |\n| --- | --- | --- | --- |';
  const body = rows.map(
    (row) => `| ${code(row.path)} | ${cell(row.type)} | ${code(row.default)} | ${cell(row.description)} |`,
  );
  const sections = [
    '# Configuration reference',
    GENERATED_NOTE,
    'Every field of the one configuration object (`src/browser/config.ts` and `src/browser/config/*.config.ts`), with its type, its default and its description. [configuration.md](../configuration.md) explains how the fields work together; `describe` returns the same schema as JSON Schema, and the side panel builds its settings form from it.',
    'In Node the config is a JSON file given with `--config FILE`; in the extension it is the side panel\'s Settings. Every level is strict: an unknown or invalid field is refused at start, naming it. A nested field is written as its path (`reconnect.max_attempts` is `{"reconnect": {"max_attempts": 3}}`).',
    [head, ...body].join('\n'),
  ];
  return `${sections.join('\n\n')}\n`;
}
