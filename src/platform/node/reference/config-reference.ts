import { configJsonSchema } from '../../../agent/tabpilot-config';
import { GENERATED_NOTE } from './protocol-reference';
import { code, schemaRows } from './schema-rows';

/** docs/reference/configuration.md, before formatting: every field of the one config, from its zod schema. */
export function renderConfigReference(): string {
  const schema = configJsonSchema();
  const rows = schemaRows(schema, { depth: 3 });
  // A list, not a table: the descriptions are long, and a table pads every row to the longest.
  const body = rows.map((row) => {
    const facts = [row.type, ...(row.default === '' ? [] : [`default ${code(row.default)}`])].join(', ');
    return `- ${code(row.path)} (${facts})${row.description === '' ? '' : `: ${row.description}`}`;
  });
  const sections = [
    '# Configuration reference',
    GENERATED_NOTE,
    'Every field of the one configuration object (the browser part in `src/browser/config.ts`, the agent part in `src/agent/agent.config.ts`, composed in `src/agent/tabpilot-config.ts`), with its type, its default and its description. [configuration.md](../configuration.md) explains how the fields work together; `describe` returns the same schema as JSON Schema, and the side panel builds its settings form from it.',
    'In Node the config is a JSON file given with `--config FILE`; in the extension it is the side panel\'s Settings. Every level is strict: an unknown or invalid field is refused at start, naming it. A nested field is written as its path (`reconnect.max_attempts` is `{"reconnect": {"max_attempts": 3}}`).',
    body.join('\n'),
  ];
  return `${sections.join('\n\n')}\n`;
}
