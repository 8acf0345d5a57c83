import { TabpilotError } from '../../shared/errors';
import { bestEffort } from '../../shared/logger';
import { pollUntil } from '../../shared/time';
import { clickElement } from './click';
import { siblingHandle, type ElementHandle, type RoutineContext } from './element';
import type { DropdownInfo, DropdownOption } from './in-page-api';
import { callOn, handleOn } from './in-page-call';
import { pressStrokes } from './keyboard';
import { namedKey } from './keys';

const OPEN_WAIT_MS = 1500;

export interface DropdownOptions {
  type: 'select' | 'listbox' | 'menu';
  options: DropdownOption[];
  multiple: boolean;
}

export interface DropdownSelection {
  type: 'select' | 'listbox' | 'menu';
  option: DropdownOption;
}

type OpenInfo = Extract<DropdownInfo, { kind: 'select' | 'listbox' | 'menu' }>;

/** Opens an ARIA combobox with a trusted click when its list is not shown, and waits for the list. */
async function openInfo(ctx: RoutineContext, handle: ElementHandle): Promise<{ info: OpenInfo; opened: boolean }> {
  const info = await callOn(handle.session, handle.objectId, 'dropdownInfo');
  if (info.kind === 'none') {
    throw new TabpilotError(
      'INVALID_PARAMS',
      `${handle.label} ${info.element} is not a dropdown (no select, listbox or menu on, in or controlled by it)`,
    );
  }
  if (info.kind !== 'collapsed') {
    return { info, opened: false };
  }
  await clickElement(ctx, handle, { button: 'left', clickCount: 1, modifiers: [] });
  const shown = await pollUntil(
    async () => {
      const now = await callOn(handle.session, handle.objectId, 'dropdownInfo');
      return now.kind === 'listbox' || now.kind === 'menu' || now.kind === 'select' ? now : undefined;
    },
    {
      timeoutMs: OPEN_WAIT_MS,
      intervalMs: 50,
      ...(ctx.signal === undefined ? {} : { signal: ctx.signal }),
      onTimeout: () =>
        new TabpilotError('TIMEOUT', `${handle.label} ${info.element} showed no list within ${OPEN_WAIT_MS} ms`),
    },
  );
  return { info: shown, opened: true };
}

function optionList(options: readonly DropdownOption[]): string {
  return options.map((option) => `"${option.text}"`).join(', ');
}

/** The options of a native select or of an ARIA listbox or menu (opened for reading, closed again). */
export async function dropdownOptions(ctx: RoutineContext, handle: ElementHandle): Promise<DropdownOptions> {
  const { info, opened } = await openInfo(ctx, handle);
  if (opened) {
    // Leave the page as it was: the ARIA pattern closes a popup on Escape.
    const escape = namedKey('Escape');
    if (escape !== undefined) {
      await pressStrokes(handle.pageSession, [{ kind: 'chord', modifiers: [], key: escape, label: 'Escape' }], 'other');
    }
  }
  if (info.options.length === 0) {
    throw new TabpilotError('ELEMENT_NOT_FOUND', `${handle.label} ${info.element} has no options`);
  }
  return { type: info.kind, options: info.options, multiple: info.kind === 'select' && info.multiple };
}

/**
 * Picks an option by its exact text or value (case and surrounding spaces ignored). A native select is
 * set the way frameworks accept (native setter, input and change) and checked to have stuck; an ARIA
 * option gets a trusted click, as a person would choose it.
 */
export async function selectDropdownOption(
  ctx: RoutineContext,
  handle: ElementHandle,
  text: string,
): Promise<DropdownSelection> {
  const { info } = await openInfo(ctx, handle);
  if (info.kind === 'select') {
    const outcome = await callOn(handle.session, handle.objectId, 'selectNative', text);
    switch (outcome.kind) {
      case 'selected':
        return { type: 'select', option: outcome.option };
      case 'no-match':
        throw new TabpilotError(
          'INVALID_PARAMS',
          `${handle.label} has no option "${text}"; its options: ${optionList(outcome.options)}`,
          { details: { options: outcome.options.map((option) => option.text) } },
        );
      case 'disabled':
        throw new TabpilotError('INVALID_PARAMS', `Option "${outcome.option.text}" of ${handle.label} is disabled`);
      case 'reverted':
        throw new TabpilotError(
          'UNSUPPORTED',
          `${handle.label}: the page put "${outcome.now}" back after "${outcome.option.text}" was selected`,
        );
    }
  }
  const option = info.options.find(
    (candidate) =>
      candidate.text.trim().toLowerCase() === text.trim().toLowerCase() ||
      candidate.value.trim().toLowerCase() === text.trim().toLowerCase(),
  );
  const optionId = option === undefined ? null : await handleOn(handle.session, handle.objectId, 'ariaOption', text);
  if (option === undefined || optionId === null) {
    throw new TabpilotError(
      'INVALID_PARAMS',
      `${handle.label} has no option "${text}"; its options: ${optionList(info.options)}`,
      { details: { options: info.options.map((candidate) => candidate.text) } },
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
  return { type: info.kind, option: { ...option, selected: true } };
}
