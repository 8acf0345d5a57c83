import {
  enumValues,
  flagOf,
  type ActionCatalog,
  type CatalogAction,
  type ParamSchema,
} from '../../platform/node/native/cli-catalog';
import { ACTION_OPTIONS, COMMANDS, EXIT_CODES, runnableActions, type CommandSpec } from './cli-commands';

/** The help texts the lean entry prints: the overview, a command's, an action's (from the catalog). */

const WIDTH = 100;

export function overviewHelp(catalog: ActionCatalog): string {
  const commands = COMMANDS.filter((command) => command.hidden !== true);
  const nameWidth = Math.max(...commands.map((command) => command.name.length));
  const byCategory = new Map<string, string[]>();
  for (const action of runnableActions(catalog.actions)) {
    const category = action.category ?? 'protocol';
    byCategory.set(category, [...(byCategory.get(category) ?? []), action.name]);
  }
  const categoryWidth = Math.max(...[...byCategory.keys()].map((category) => category.length)) + 1;
  return [
    "tabpilot: drive Chromium with tabpilot's actions, from a shell or a program.",
    '',
    'Usage:  tabpilot <command> [options]',
    "        tabpilot <action> [--param value ...] [--json]     tabpilot <action> '<json params>'",
    '',
    'Commands:',
    ...commands.map((command) => `  ${command.name.padEnd(nameWidth)}  ${command.summary}`),
    '',
    'Actions, run in the browser that has the tabpilot extension, through its native host (no TCP port):',
    ...[...byCategory].flatMap(([category, names]) =>
      wrap(names.join(' '), WIDTH - categoryWidth - 4).map(
        (line, index) => `  ${(index === 0 ? `${category}:` : '').padEnd(categoryWidth)} ${line}`,
      ),
    ),
    '  e.g. tabpilot navigate --url example.com; tabpilot state; tabpilot click --index 3; tabpilot tabs --json',
    '',
    'tabpilot help <command | action> (or <command | action> --help) for its options; tabpilot --version.',
    EXIT_CODES,
    "TABPILOT_STATE_DIR moves the host's state folder (socket, discovery records, log).",
  ].join('\n');
}

export function commandHelp(command: CommandSpec): string {
  const lines = [command.usage ?? `  tabpilot ${command.name}`];
  if (command.options.length > 0) {
    lines.push('', 'Options:', ...optionLines(command.options.map((option) => [optionLabel(option), option.about])));
  }
  return lines.join('\n');
}

export function actionHelp(action: CatalogAction): string {
  const properties = action.params_schema.properties ?? {};
  const required = new Set(action.params_schema.required ?? []);
  const names = Object.keys(properties);
  const lines = [
    `Usage:  tabpilot ${action.name}${names.length === 0 ? '' : ' [--param value ...]'} [--json]`,
    ...(names.length === 0 ? [] : [`        tabpilot ${action.name} '<params as one JSON object>'`]),
    '',
    ...wrap(action.description, WIDTH),
    '',
  ];
  if (names.length === 0) {
    lines.push('Params: none.');
  } else {
    lines.push(
      'Params:',
      ...optionLines(
        names.map((name) => {
          const schema = properties[name];
          const notes = [
            required.has(name) ? 'required' : undefined,
            schema?.default === undefined ? undefined : `default ${JSON.stringify(schema.default)}`,
          ].filter((note) => note !== undefined);
          const about = [notes.length > 0 ? `(${notes.join(', ')})` : '', schema?.details ?? schema?.description ?? '']
            .filter((part) => part !== '')
            .join(' ');
          const label = `${flagOf(name)}${typeOfSchema(schema) === 'boolean' ? `, --no-${flagOf(name).slice(2)}` : ` ${valueLabel(schema)}`}`;
          return [label, about];
        }),
      ),
    );
  }
  lines.push(
    '',
    'Options:',
    ...optionLines(ACTION_OPTIONS.map((option) => [optionLabel(option), option.about])),
    '',
    `${action.category === undefined ? '' : `Category: ${action.category}. `}${EXIT_CODES}`,
  );
  return lines.join('\n');
}

function optionLabel(option: CommandSpec['options'][number]): string {
  return option.value === undefined
    ? option.flag
    : `${option.flag} ${option.choices === undefined ? option.value : option.choices.join('|')}`;
}

function optionLines(rows: Array<[string, string]>): string[] {
  const width = Math.min(30, Math.max(...rows.map(([label]) => label.length)));
  return rows.flatMap(([label, about]) => {
    const text = wrap(about, WIDTH - width - 6);
    if (label.length > width) {
      return [`  ${label}`, ...text.map((line) => `  ${''.padEnd(width)}  ${line}`.trimEnd())].filter(
        (line) => line !== '',
      );
    }
    return text.map((line, index) => `  ${(index === 0 ? label : '').padEnd(width)}  ${line}`.trimEnd());
  });
}

function typeOfSchema(schema: ParamSchema | undefined): string | undefined {
  if (schema?.type !== undefined) {
    return schema.type;
  }
  const types = new Set(
    (schema?.anyOf ?? []).map(typeOfSchema).filter((type) => type !== undefined && type !== 'null'),
  );
  return types.size === 1 ? [...types][0] : undefined;
}

const VALUE_LABELS: Record<string, string> = {
  string: 'TEXT',
  number: 'N',
  integer: 'N',
  boolean: 'true|false',
  array: 'JSON-ARRAY',
  object: 'JSON-OBJECT',
};

/** What the value of a param looks like on the command line. */
function valueLabel(schema: ParamSchema | undefined): string {
  const choices = enumValues(schema);
  if (choices !== undefined && choices.length <= 8) {
    return choices.join('|');
  }
  return VALUE_LABELS[typeOfSchema(schema) ?? ''] ?? 'VALUE';
}

function wrap(text: string, width: number): string[] {
  const lines: string[] = [];
  for (const paragraph of text.split('\n')) {
    let line = '';
    for (const word of paragraph.split(/\s+/).filter((part) => part !== '')) {
      if (line !== '' && line.length + 1 + word.length > width) {
        lines.push(line);
        line = word;
      } else {
        line = line === '' ? word : `${line} ${word}`;
      }
    }
    lines.push(line);
  }
  return lines;
}
