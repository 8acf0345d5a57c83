import { TabpilotError } from '../../shared/errors';
import { bestEffort } from '../../shared/logger';
import { clickElement } from './click';
import { inListOrder, walkActive } from './dropdown-keys';
import { closeList, openList, pressKey, waitSettled, type OpenInfo } from './dropdown-open';
import { heldOptions, verifyHeld, verifyPicked } from './dropdown-verify';
import { siblingHandle, type ElementHandle, type RoutineContext } from './element';
import type { DropdownOption } from './in-page-api';
import { callOn, handleOn } from './in-page-call';

export interface DropdownOptions {
  type: 'select' | 'listbox' | 'menu';
  options: DropdownOption[];
  multiple: boolean;
}

export interface DropdownSelection {
  type: 'select' | 'listbox' | 'menu';
  /** The option picked by text (null when a set of values was given). */
  option: DropdownOption | null;
  /** What the control holds afterwards, read back from it. */
  selection: DropdownOption[];
}

function optionList(options: readonly DropdownOption[]): string {
  return options.map((option) => `"${option.text}"`).join(', ');
}

function normalize(text: string): string {
  return text.replace(/\s+/g, ' ').trim().toLowerCase();
}

function matches(option: DropdownOption, text: string): boolean {
  return normalize(option.text) === normalize(text) || normalize(option.value) === normalize(text);
}

function noOption(handle: ElementHandle, text: string, options: readonly DropdownOption[]): TabpilotError {
  return new TabpilotError(
    'INVALID_PARAMS',
    `${handle.label} has no option "${text}"; its options: ${optionList(options)}`,
    {
      details: { options: options.map((option) => option.text) },
    },
  );
}

type ListInfo = Extract<OpenInfo, { kind: 'listbox' | 'menu' }>;

/** Every option of an open ARIA list: read, or walked with the keys when it cannot be read whole. */
async function listOptions(ctx: RoutineContext, handle: ElementHandle, info: ListInfo): Promise<DropdownOption[]> {
  return info.keyboard ? inListOrder((await walkActive(ctx, handle, () => false)).visited) : info.options;
}

/** The options of a native select or of an ARIA listbox or menu (opened for reading, closed again). */
export async function dropdownOptions(ctx: RoutineContext, handle: ElementHandle): Promise<DropdownOptions> {
  const { info, opened } = await openList(ctx, handle);
  const options = info.kind === 'select' ? info.options : await listOptions(ctx, handle, info);
  if (opened) {
    await closeList(ctx, handle);
  }
  if (options.length === 0) {
    throw new TabpilotError('ELEMENT_NOT_FOUND', `${handle.label} ${info.element} has no options`);
  }
  return { type: info.kind, options, multiple: info.multiple };
}

/** The opener still says its list is expanded (a multi-select stays open for the next pick). */
async function staysOpen(handle: ElementHandle): Promise<boolean> {
  return (await callOn(handle.session, handle.objectId, 'elementInfo')).attributes['aria-expanded'] === 'true';
}

/** Clicks an ARIA option with a trusted click, as a person chooses it. */
async function clickOption(ctx: RoutineContext, handle: ElementHandle, option: DropdownOption): Promise<void> {
  const optionId = await handleOn(handle.session, handle.objectId, 'ariaOption', option.text);
  if (optionId === null) {
    throw new TabpilotError(
      'ELEMENT_NOT_FOUND',
      `option "${option.text}" of ${handle.label} went away before it was chosen`,
    );
  }
  try {
    await clickElement(ctx, siblingHandle(handle, optionId, `option "${option.text}" of ${handle.label}`), {
      button: 'left',
      clickCount: 1,
      modifiers: [],
    });
  } finally {
    void bestEffort(
      handle.session.send('Runtime.releaseObject', { objectId: optionId }),
      ctx.log,
      'releasing an option handle',
    );
  }
}

/**
 * Moves the keys' active option to the one matching `text` and presses Enter: the option chosen, or
 * (none matched) every option met on the way.
 */
async function enterOption(
  ctx: RoutineContext,
  handle: ElementHandle,
  text: string,
): Promise<{ chosen: DropdownOption } | { missing: DropdownOption[] }> {
  const walk = await walkActive(ctx, handle, (current) => matches(current.option, text));
  const chosen = walk.visited.at(-1);
  if (!walk.stopped || chosen === undefined) {
    return { missing: inListOrder(walk.visited) };
  }
  // Enter on an option a multi-select already holds would deselect it: such a pick closes the list.
  await (chosen.option.selected ? closeList(ctx, handle) : pressKey(handle, 'Enter'));
  return { chosen: chosen.option };
}

async function selectNativeOption(handle: ElementHandle, text: string): Promise<DropdownSelection> {
  const outcome = await callOn(handle.session, handle.objectId, 'selectNative', text);
  switch (outcome.kind) {
    case 'selected':
      return { type: 'select', option: outcome.option, selection: await heldOptions(handle) };
    case 'no-match':
      throw noOption(handle, text, outcome.options);
    case 'disabled':
      throw new TabpilotError('INVALID_PARAMS', `Option "${outcome.option.text}" of ${handle.label} is disabled`);
    case 'reverted':
      throw new TabpilotError(
        'UNSUPPORTED',
        `${handle.label}: the page put "${outcome.now}" back after "${outcome.option.text}" was selected`,
        { details: { reason: 'not-selected', holds: [outcome.now] } },
      );
  }
}

/**
 * Picks an option by its exact text or value (case and surrounding spaces ignored). A native select is
 * set the way frameworks accept (native setter, input and change); an ARIA option gets a trusted click,
 * as a person would choose it, or (a list whose options cannot be clicked) the keys. Then the control is
 * read back: one that does not hold the option fails UNSUPPORTED. An option the list already marks
 * selected is left as it is (in a multi-select a click would deselect it).
 */
export async function selectDropdownOption(
  ctx: RoutineContext,
  handle: ElementHandle,
  text: string,
): Promise<DropdownSelection> {
  const { info, opened } = await openList(ctx, handle);
  if (info.kind === 'select') {
    return selectNativeOption(handle, text);
  }
  let option: DropdownOption | undefined;
  if (info.keyboard) {
    const entered = await enterOption(ctx, handle, text);
    if ('missing' in entered) {
      await closeList(ctx, handle);
      throw noOption(handle, text, entered.missing);
    }
    option = entered.chosen;
  } else {
    option = info.options.find((candidate) => matches(candidate, text));
    if (option === undefined || option.disabled) {
      const refusal =
        option === undefined
          ? noOption(handle, text, info.options)
          : new TabpilotError('INVALID_PARAMS', `Option "${option.text}" of ${handle.label} is disabled`);
      if (opened) {
        await closeList(ctx, handle);
      }
      throw refusal;
    }
    if (!option.selected) {
      await clickOption(ctx, handle, option);
    } else if (!info.multiple && opened) {
      // The list marks it selected already: nothing to click (in a multi-select a click would deselect
      // it); a single-select's list opened for this is closed again.
      await closeList(ctx, handle);
    }
  }
  const selection = info.kind === 'menu' ? [option] : await verifyPicked(ctx, handle, option);
  if (!(await staysOpen(handle))) {
    // A single-select closes on the pick, some after a transition whose backdrop still covers the page.
    await waitSettled(ctx, handle);
  }
  return { type: info.kind, option: { ...option, selected: true }, selection };
}

/** Sets a native multi-select to exactly `values`. */
async function exactNative(handle: ElementHandle, values: readonly string[]): Promise<DropdownSelection> {
  const outcome = await callOn(handle.session, handle.objectId, 'selectNativeExact', [...values]);
  switch (outcome.kind) {
    case 'selected':
      return { type: 'select', option: null, selection: outcome.options };
    case 'not-multiple':
      throw new TabpilotError('INVALID_PARAMS', `${handle.label} takes one option: pick it with text, not values`);
    case 'no-match':
      throw noOption(handle, outcome.missing.join('", "'), outcome.options);
    case 'disabled':
      throw new TabpilotError('INVALID_PARAMS', `Option "${outcome.option.text}" of ${handle.label} is disabled`);
    case 'reverted':
      throw new TabpilotError(
        'UNSUPPORTED',
        `${handle.label}: the page holds ${outcome.now.length === 0 ? 'nothing' : outcome.now.map((text) => `"${text}"`).join(', ')} after the selection was set`,
        { details: { reason: 'not-selected', holds: outcome.now } },
      );
  }
}

/** The options to toggle so that the list holds exactly `values`: refused whole when one is missing or disabled. */
function toToggle(
  handle: ElementHandle,
  options: readonly DropdownOption[],
  values: readonly string[],
): DropdownOption[] {
  const missing = values.filter((value) => !options.some((option) => matches(option, value)));
  if (missing.length > 0) {
    throw noOption(handle, missing.join('", "'), options);
  }
  const changing = options.filter((option) => option.selected !== values.some((value) => matches(option, value)));
  const disabled = changing.find((option) => option.disabled);
  if (disabled !== undefined) {
    throw new TabpilotError('INVALID_PARAMS', `Option "${disabled.text}" of ${handle.label} is disabled`);
  }
  return changing;
}

/** The list open again (a single-select closes on a pick), as a listbox. */
async function reopened(ctx: RoutineContext, handle: ElementHandle): Promise<ListInfo> {
  const { info } = await openList(ctx, handle);
  if (info.kind === 'select') {
    throw new TabpilotError('INTERNAL', `${handle.label} turned into a native select`);
  }
  return info;
}

/**
 * Sets a multi-select to exactly the options named by `values` (texts or values): a native one at once;
 * an ARIA list by choosing each option whose state differs, as a person toggles them (clicks, or the keys
 * for a list whose options cannot be clicked). Then every option is read back: a list that holds another
 * set fails UNSUPPORTED saying what it holds.
 */
export async function selectDropdownValues(
  ctx: RoutineContext,
  handle: ElementHandle,
  values: readonly string[],
): Promise<DropdownSelection> {
  const { info } = await openList(ctx, handle);
  if (info.kind === 'select') {
    return exactNative(handle, values);
  }
  if (info.kind === 'menu') {
    throw new TabpilotError('INVALID_PARAMS', `${handle.label} is a menu: it holds no selection to set`);
  }
  const changing = toToggle(handle, await listOptions(ctx, handle, info), values);
  for (const option of changing) {
    const list = await reopened(ctx, handle);
    if (list.keyboard) {
      await walkActive(ctx, handle, (current) => matches(current.option, option.text));
      await pressKey(handle, 'Enter');
    } else {
      await clickOption(ctx, handle, option);
    }
    if (!(await staysOpen(handle))) {
      // The list closed on the pick: the next one waits for it to have left, not to click its ghost.
      await waitSettled(ctx, handle);
    }
  }
  const list = await reopened(ctx, handle);
  const held = await listOptions(ctx, handle, list);
  await closeList(ctx, handle);
  return { type: 'listbox', option: null, selection: verifyHeld(handle, held, values) };
}
