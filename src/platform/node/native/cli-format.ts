import type { CommandResponse, EventMessage } from '../../../protocol/commands';
import { fieldOf, isRecord, stringFieldOf } from '../../../shared/narrow';

/**
 * The CLI's human output: a result as indented `key: value` lines (long strings cut, images named by
 * size instead of printed), `tabs` as a table, `state` as its LLM text, an error as `CODE: message`.
 * `--json` prints the response itself instead.
 */

const STRING_LIMIT = 2000;

interface TabRow {
  tab_id: string | undefined;
  url: string | undefined;
  title: string | undefined;
  focused: boolean | undefined;
  controlled: boolean | undefined;
  owner: string | null | undefined;
}

/** A row of the `tabs` answer, each field kept only when it has the type the table prints. */
function tabRowOf(tab: unknown): TabRow {
  const text = (key: string): string | undefined => stringFieldOf(tab, key);
  const flag = (key: string): boolean | undefined => {
    const value = fieldOf(tab, key);
    return typeof value === 'boolean' ? value : undefined;
  };
  return {
    tab_id: text('tab_id'),
    url: text('url'),
    title: text('title'),
    focused: flag('focused'),
    controlled: flag('controlled'),
    owner: fieldOf(tab, 'owner') === null ? null : text('owner'),
  };
}

export function formatResult(action: string, result: unknown): string {
  if (action === 'tabs' && isRecord(result) && Array.isArray(result['tabs'])) {
    const tabs: unknown[] = result['tabs'];
    return formatTabs(tabs.map(tabRowOf));
  }
  if (action === 'state' && isRecord(result) && typeof result['text'] === 'string') {
    const header = `${stringOf(result['title'])}  ${stringOf(result['url'])}`.trim();
    const { text, ...rest } = result;
    const extras = formatValue(omitBulky(rest), 0)
      .split('\n')
      .filter((line) => /^(tab_id|state_error|screenshot):/.test(line));
    return [header, ...extras, '', String(text)].join('\n');
  }
  if (result === null || result === undefined) {
    return 'ok';
  }
  return formatValue(result, 0);
}

export function formatError(response: Extract<CommandResponse, { ok: false }>): string {
  const field = response.error.details?.['field'];
  return `${response.error.code}: ${response.error.message}${typeof field === 'string' && field !== '' && !response.error.message.includes(field) ? ` (field ${field})` : ''}`;
}

export function formatEvent(event: EventMessage): string {
  return `event ${event.event}${event.source === null ? '' : ` (${event.source})`} ${truncate(JSON.stringify(event.data))}`;
}

function formatTabs(tabs: TabRow[]): string {
  if (tabs.length === 0) {
    return 'No controlled tabs.';
  }
  const rows = tabs.map((tab) => [
    tab.focused === true ? '*' : ' ',
    tab.tab_id ?? '',
    tab.controlled === false ? '(not controlled)' : (tab.owner ?? '-'),
    truncate(tab.title ?? '', 40),
    tab.url ?? '',
  ]);
  const widths = [1, 6, 16, 40].map((min, column) => Math.max(min, ...rows.map((row) => (row[column] ?? '').length)));
  return rows
    .map((row) =>
      row.map((cell, column) => (column < widths.length ? cell.padEnd(widths[column] ?? 0) : cell)).join('  '),
    )
    .join('\n');
}

function omitBulky(value: Record<string, unknown>): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [key, field] of Object.entries(value)) {
    if (key !== 'elements' && key !== 'recent_events') {
      out[key] = field;
    }
  }
  return out;
}

function formatValue(value: unknown, depth: number): string {
  const indent = '  '.repeat(depth);
  if (Array.isArray(value)) {
    if (value.length === 0) {
      return `${indent}[]`;
    }
    return value
      .map((item) =>
        isRecord(item) || Array.isArray(item)
          ? `${indent}-\n${formatValue(item, depth + 1)}`
          : `${indent}- ${formatScalar(undefined, item)}`,
      )
      .join('\n');
  }
  if (isRecord(value)) {
    const entries = Object.entries(value);
    if (entries.length === 0) {
      return `${indent}{}`;
    }
    return entries
      .map(([key, field]) =>
        (isRecord(field) && Object.keys(field).length > 0) || (Array.isArray(field) && field.length > 0)
          ? `${indent}${key}:\n${formatValue(field, depth + 1)}`
          : `${indent}${key}: ${formatScalar(key, field)}`,
      )
      .join('\n');
  }
  return `${indent}${formatScalar(undefined, value)}`;
}

function formatScalar(key: string | undefined, value: unknown): string {
  if (typeof value === 'string') {
    if (
      value.length > 200 &&
      /^[A-Za-z0-9+/=]+$/.test(value.slice(0, 200)) &&
      (key === 'screenshot' || key === 'data' || key?.endsWith('_base64') === true)
    ) {
      return `<${Math.round((value.length * 3) / 4 / 1024)} KB base64; --json prints it, or save it with file_name>`;
    }
    return truncate(value);
  }
  if (Array.isArray(value)) {
    return '[]';
  }
  if (isRecord(value)) {
    return '{}';
  }
  return JSON.stringify(value) ?? String(value);
}

function truncate(text: string, limit = STRING_LIMIT): string {
  return text.length <= limit
    ? text
    : `${text.slice(0, limit)}… (${text.length - limit} more characters; --json prints all)`;
}

function stringOf(value: unknown): string {
  return typeof value === 'string' ? value : '';
}
