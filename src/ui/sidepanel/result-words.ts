import type { CommandResponse } from '../../protocol/commands';
import { ERROR_CODES, type ErrorCode } from '../../shared/errors';
import { declarationOf } from '../../protocol/actions';
import { capitalised } from './activity';
import { isOneOf, isRecord } from '../../shared/narrow';

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
  return isRecord(value) ? value : {};
}

/**
 * The declaration's words for a success. The answer is the action's declared result: the worker checked
 * it against the result schema before it answered, so it is taken as that type here.
 */
function successWords(action: string, params: Result, result: unknown): string | undefined {
  const words = declarationOf(action)?.panel.success;
  return words === undefined || typeof result !== 'object' || result === null ? undefined : words(params, result);
}

/** One line for a success; the elapsed time is what the person waited, measured in the panel. */
export function successLine(action: string, params: Result, result: unknown, elapsedMs?: number): string {
  const words = successWords(action, params, result) ?? `${action.replace(/_/g, ' ')} done`;
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
  return isOneOf(ERROR_CODES, code) ? NEXT_STEP[code] : undefined;
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
