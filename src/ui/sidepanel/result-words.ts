import type { CommandResponse } from '../../protocol/commands';
import type { ErrorCode } from '../../shared/errors';
import { capitalised, hostAndPath } from './activity';

/**
 * A protocol answer said for people: one line for what a success did ("Clicked [6] "Go"", "Navigated
 * to example.com in 310 ms"), and for an error what went wrong and what to do next.
 */

type Result = Record<string, unknown>;

/** A plain value as text (a string, number or boolean); anything else is the fallback. */
function str(value: unknown, fallback: string | number = ''): string {
  return typeof value === 'string' || typeof value === 'number' || typeof value === 'boolean'
    ? String(value)
    : String(fallback);
}

function asResult(value: unknown): Result {
  return typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as Result) : {};
}

function count(n: number, one: string, many = `${one}s`): string {
  return `${n} ${n === 1 ? one : many}`;
}

function quoted(value: unknown, max = 40): string {
  const text = str(value);
  return `"${text.length > max ? `${text.slice(0, max - 1)}…` : text}"`;
}

function elementOf(params: Result, result: Result): string {
  const index = result['index'] ?? params['index'];
  const label =
    typeof result['element'] === 'string' && result['element'] !== '' ? ` ${quoted(result['element'])}` : '';
  return `${typeof index === 'number' ? `[${index}]` : 'the element'}${label}`;
}

function scrolled(r: Result): string {
  const x = Number(r['moved_x'] ?? 0);
  const y = Number(r['moved_y'] ?? 0);
  if (x === 0 && y === 0) {
    return 'did not scroll: already at the end';
  }
  const vertical = Math.abs(y) >= Math.abs(x);
  const direction = vertical ? (y < 0 ? 'up' : 'down') : x < 0 ? 'left' : 'right';
  const distance = Math.round(Math.abs(vertical ? y : x));
  return `scrolled ${direction} ${distance} px${r['at_end'] === true ? ' (now at the end)' : ''}`;
}

const SUCCESS: Record<string, (params: Result, result: Result) => string> = {
  navigate: (_p, r) => `navigated to ${hostAndPath(str(r['url'], ''))}`,
  go_back: (_p, r) => `went back to ${hostAndPath(str(r['url'], ''))}`,
  go_forward: (_p, r) => `went forward to ${hostAndPath(str(r['url'], ''))}`,
  refresh: (_p, r) => `reloaded ${hostAndPath(str(r['url'], ''))}`,
  search: (p) => `searched the web for ${quoted(p['query'])}`,
  wait: (_p, r) => `waited ${str(r['waited_seconds'], '')} s`,
  tabs: (_p, r) => count(Array.isArray(r['tabs']) ? r['tabs'].length : 0, 'tab') + ' controlled',
  switch: (_p, r) => `switched to ${quoted(r['title'] ?? r['url'] ?? 'the tab')}`,
  close: () => 'closed the tab',
  attach: (_p, r) => `attached ${quoted(r['title'] ?? r['url'] ?? 'the tab')}`,
  release: (_p, r) =>
    `released ${Array.isArray(r['released_tab_ids']) ? count(r['released_tab_ids'].length, 'tab') : 'the tab'}`,
  stop: () => 'stopped',
  state: (_p, r) =>
    `read ${quoted(r['title'] ?? r['url'] ?? 'the page')}: ${count(Array.isArray(r['elements']) ? r['elements'].length : 0, 'element')}`,
  screenshot: (_p, r) =>
    `took a ${str(r['width'])}×${str(r['height'])} screenshot${r['path'] ? ` saved as ${str(r['path'])}` : ''}`,
  highlight: (_p, r) =>
    r['highlighted'] === null ? 'cleared the highlight' : `highlighted [${str(r['highlighted'])}]`,
  click: (p, r) => `clicked ${elementOf(p, r)}${r['opened_target_id'] ? ', which opened a new tab' : ''}`,
  input: (p, r) => `typed ${count([...str(p['text'], '')].length, 'character')} into ${elementOf(p, r)}`,
  scroll: (_p, r) => scrolled(r),
  send_keys: (p) => `pressed ${str(p['keys'])}`,
  find_text: (p, r) => (r['found'] === true ? `scrolled to ${quoted(p['text'])}` : `did not find ${quoted(p['text'])}`),
  upload_file: (p, r) =>
    `uploaded ${count(Array.isArray(r['files']) ? r['files'].length : 0, 'file')} to ${elementOf(p, r)}`,
  dropdown_options: (p, r) =>
    `${count(Array.isArray(r['options']) ? r['options'].length : 0, 'option')} in ${elementOf(p, r)}`,
  select_dropdown: (p, r) =>
    Array.isArray(p['values'])
      ? `set ${elementOf(p, r)} to ${p['values'].length === 0 ? 'nothing' : p['values'].map((value) => quoted(value)).join(', ')}`
      : `chose ${quoted(asResult(r['selected'])['text'] ?? p['text'])} in ${elementOf(p, r)}`,
  hover: (p, r) => `hovered over ${elementOf(p, r)}`,
  drag: (p, r) => `dragged ${elementOf(p, r)}`,
  extract: () => 'extracted the content',
  search_page: (p, r) =>
    `${count(Number(r['total'] ?? (Array.isArray(r['matches']) ? r['matches'].length : 0)), 'match', 'matches')} for ${quoted(p['pattern'])}`,
  find_elements: (p, r) =>
    `${count(Array.isArray(r['elements']) ? r['elements'].length : 0, 'element')} match ${quoted(p['selector'])}`,
  save_as_pdf: (_p, r) => `saved the page as a PDF${r['path'] ? `: ${str(r['path'])}` : ''}`,
  start_har: (_p, r) => `recording the network to ${str(r['path'])}`,
  stop_har: (_p, r) => `recorded ${count(Number(r['entries'] ?? 0), 'request')} to ${str(r['path'])}`,
  evaluate: () => 'ran the script',
};

/** One line for a success; the elapsed time is what the person waited, measured in the panel. */
export function successLine(action: string, params: Result, result: unknown, elapsedMs?: number): string {
  const words = SUCCESS[action]?.(params, asResult(result)) ?? `${action.replace(/_/g, ' ')} done`;
  return capitalised(elapsedMs === undefined ? words : `${words} in ${Math.round(elapsedMs)} ms`);
}

const NEXT_STEP: Partial<Record<ErrorCode, string>> = {
  INVALID_PARAMS: 'Correct the marked field and run it again.',
  UNKNOWN_ACTION: 'Pick an action from the list.',
  NOT_ATTACHED: 'Attach a tab first (Attach current tab at the top).',
  TAB_NOT_FOUND: 'The tab is gone or not controlled; pick a tab from the list at the top.',
  TAB_CRASHED: 'The page crashed: run refresh to bring it back.',
  ELEMENT_NOT_FOUND: 'The page changed since it was read: read the page again and pick the element anew.',
  ELEMENT_OCCLUDED: 'Something covers the element (a dialog or banner): close it, or scroll, then try again.',
  NAVIGATION_FAILED: 'Check the address and that the site is reachable.',
  URL_BLOCKED: 'The settings do not allow this address (allowed and prohibited domains).',
  TIMEOUT: 'The page took too long; try again, or wait for it and read the page.',
  DISCONNECTED: 'The extension restarted while it ran; press Retry.',
  CANCELLED: 'It was stopped before it finished; run it again when you are ready.',
  FORBIDDEN: 'The settings do not allow this; change them in Settings if you mean it.',
  PERSON_NEEDED: 'The tab waits for you: solve the check in the tab, then the actions resume.',
  UNSUPPORTED: 'tabpilot cannot do this here.',
};

/** What to do after an error, in a sentence, when there is something to do. */
export function nextStep(code: string): string | undefined {
  return NEXT_STEP[code as ErrorCode];
}

/** The field an INVALID_PARAMS error names, if any. */
export function refusedField(response: CommandResponse | undefined): string | undefined {
  if (response === undefined || response.ok) {
    return undefined;
  }
  const field = response.error.details?.['field'];
  return typeof field === 'string' && field !== '' ? field : undefined;
}

/** A result's picture, when it carries one: a `screenshot` action's data, a `state`'s screenshot. */
export function imageOf(result: unknown): { src: string; width?: number; height?: number } | undefined {
  const r = asResult(result);
  if (typeof r['data'] === 'string' && typeof r['format'] === 'string' && typeof r['width'] === 'number') {
    return { src: `data:image/${r['format']};base64,${r['data']}`, width: r['width'], height: Number(r['height']) };
  }
  if (typeof r['screenshot'] === 'string' && r['screenshot'] !== '') {
    return { src: `data:image/${str(r['screenshot_format'], 'png')};base64,${r['screenshot']}` };
  }
  return undefined;
}

const LONG_TEXT = 2000;

/** The JSON as shown under the summary: picture data (kilobytes of base64) stands as its size. */
export function shownJson(response: CommandResponse): string {
  return JSON.stringify(
    response,
    (key, value: unknown) =>
      (key === 'data' || key === 'screenshot') && typeof value === 'string' && value.length > LONG_TEXT
        ? `(${Math.round((value.length * 3) / 4 / 1024)} kB image, shown above)`
        : value,
    2,
  );
}
