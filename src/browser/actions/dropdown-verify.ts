import { errorMessageOf, TabpilotError } from '../../shared/errors';
import { pollUntil } from '../../shared/time';
import type { ElementHandle, RoutineContext } from './element';
import type { DropdownOption } from './in-page-api';
import { callOn } from './in-page-call';

/**
 * Reading a dropdown back after a pick, as clicks are verified: the control must hold what was chosen,
 * or the action fails UNSUPPORTED saying what it holds, instead of answering ok for a pick the widget
 * did not take.
 */

/** How long a widget may take to show a pick (React renders it a frame or a transition later). */
const VERIFY_WAIT_MS = 2000;

function normalize(text: string): string {
  return text.replace(/\s+/g, ' ').trim().toLowerCase();
}

function same(a: DropdownOption, b: DropdownOption): boolean {
  return normalize(a.text) === normalize(b.text) && a.value === b.value;
}

/** The options a native select holds now. */
export async function heldOptions(handle: ElementHandle): Promise<DropdownOption[]> {
  const info = await callOn(handle.session, handle.objectId, 'dropdownInfo');
  return info.kind === 'select' ? info.options.filter((option) => option.selected) : [];
}

/**
 * Waits (bounded) until the control holds `option`: its list, still shown, marks it selected (a
 * multi-select stays open), or the control shows its text as its value (a closed single-select). Returns
 * what it holds: a shown multi-select's every selected option, else the option.
 */
export async function verifyPicked(
  ctx: RoutineContext,
  handle: ElementHandle,
  option: DropdownOption,
): Promise<DropdownOption[]> {
  try {
    return await pollUntil(
      async () => {
        const info = await callOn(handle.session, handle.objectId, 'dropdownInfo');
        if (info.kind === 'listbox' && !info.keyboard) {
          const held = info.options.filter((candidate) => candidate.selected);
          if (held.some((candidate) => same(candidate, option))) {
            return info.multiple ? held : [option];
          }
        }
        return (await callOn(handle.session, handle.objectId, 'dropdownShows', option.text)) ? [option] : undefined;
      },
      {
        timeoutMs: VERIFY_WAIT_MS,
        intervalMs: 50,
        ...(ctx.signal === undefined ? {} : { signal: ctx.signal }),
        onTimeout: () => new Error('not held'),
      },
    );
  } catch (error) {
    if (ctx.signal?.aborted === true) {
      throw error;
    }
    const shows = (await callOn(handle.session, handle.objectId, 'elementInfo')).text;
    ctx.log.debug('the dropdown does not hold the pick', { error: errorMessageOf(error) });
    throw new TabpilotError(
      'UNSUPPORTED',
      `${handle.label} does not hold "${option.text}" after it was chosen: its list does not mark it selected and the control shows ${shows === '' ? 'no text' : `"${shows}"`}. Take a new state and look at the widget`,
      { details: { reason: 'not-selected', option: option.text, shows } },
    );
  }
}

/** Checks that a list read back holds exactly `values`; returns the options it holds. */
export function verifyHeld(
  handle: ElementHandle,
  options: readonly DropdownOption[],
  values: readonly string[],
): DropdownOption[] {
  const wanted = (option: DropdownOption): boolean =>
    values.some((value) => normalize(value) === normalize(option.text) || normalize(value) === normalize(option.value));
  const held = options.filter((option) => option.selected);
  const wrong = options.filter((option) => option.selected !== wanted(option));
  if (wrong.length > 0) {
    throw new TabpilotError(
      'UNSUPPORTED',
      `${handle.label} holds ${held.length === 0 ? 'nothing' : held.map((option) => `"${option.text}"`).join(', ')} after its selection was set (${wrong.map((option) => `"${option.text}"`).join(', ')} did not change)`,
      { details: { reason: 'not-selected', holds: held.map((option) => option.text) } },
    );
  }
  return held;
}
