import { errorMessageOf, TabpilotError } from '../../shared/errors';
import { pollUntil } from '../../shared/time';
import { clickElement } from './click';
import type { ElementHandle, RoutineContext } from './element';
import type { DropdownInfo } from './in-page-api';
import { callOn } from './in-page-call';
import { pressStrokes } from './keyboard';
import { namedKey } from './keys';

/** How long a list may take to show after the opener was clicked (Material UI opens one after a transition). */
const OPEN_WAIT_MS = 3000;
/** How long a click has to mark the opener expanded before the Down key is tried instead. */
const EXPAND_WAIT_MS = 600;
/** How long a closed popup may take to leave (its exit transition keeps a backdrop over the page). */
const CLOSE_WAIT_MS = 2000;

export type OpenInfo = Extract<DropdownInfo, { kind: 'select' | 'listbox' | 'menu' }>;

function shown(info: DropdownInfo): OpenInfo | undefined {
  return info.kind === 'listbox' || info.kind === 'menu' || info.kind === 'select' ? info : undefined;
}

/** Presses one named key (Escape, ArrowDown, Enter) in the element's tab. */
export async function pressKey(handle: ElementHandle, name: string): Promise<void> {
  const key = namedKey(name);
  if (key === undefined) {
    throw new TabpilotError('INTERNAL', `no key named ${name}`);
  }
  await pressStrokes(handle.pageSession, [{ kind: 'chord', modifiers: [], key, label: name }], 'other');
}

async function expanded(handle: ElementHandle): Promise<boolean> {
  const info = await callOn(handle.session, handle.objectId, 'elementInfo');
  return info.attributes['aria-expanded'] === 'true';
}

/**
 * The element's list, opened when it is a collapsed ARIA combobox or popup button: a trusted click, as a
 * person opens it; when that leaves it collapsed (a combobox that opens on typing, as Headless UI's does)
 * the Down key, which opens any ARIA combobox. Waits for the list to be shown.
 */
export async function openList(
  ctx: RoutineContext,
  handle: ElementHandle,
): Promise<{ info: OpenInfo; opened: boolean }> {
  const info = await callOn(handle.session, handle.objectId, 'dropdownInfo');
  if (info.kind === 'none') {
    throw new TabpilotError(
      'INVALID_PARAMS',
      `${handle.label} ${info.element} is not a dropdown (no select, listbox or menu on, in or controlled by it)`,
    );
  }
  const already = shown(info);
  if (already !== undefined) {
    return { info: already, opened: false };
  }
  const signal = ctx.signal === undefined ? {} : { signal: ctx.signal };
  const listNow = async (): Promise<OpenInfo | undefined> =>
    shown(await callOn(handle.session, handle.objectId, 'dropdownInfo'));
  await clickElement(ctx, handle, { button: 'left', clickCount: 1, modifiers: [] });
  const early = await pollUntil(async () => (await listNow()) ?? ((await expanded(handle)) ? 'expanded' : undefined), {
    timeoutMs: EXPAND_WAIT_MS,
    intervalMs: 50,
    ...signal,
    onTimeout: () => new Error('still collapsed'),
  }).catch((error: unknown) => {
    if (ctx.signal?.aborted === true) {
      throw error;
    }
    return undefined;
  });
  if (early !== undefined && early !== 'expanded') {
    return { info: early, opened: true };
  }
  if (early === undefined) {
    ctx.log.debug('the click left the dropdown collapsed; pressing Down', { element: handle.label });
    await pressKey(handle, 'ArrowDown');
  }
  const opened = await pollUntil(listNow, {
    timeoutMs: OPEN_WAIT_MS,
    intervalMs: 50,
    ...signal,
    onTimeout: () =>
      new TabpilotError('TIMEOUT', `${handle.label} ${info.element} showed no list within ${OPEN_WAIT_MS} ms`),
  });
  return { info: opened, opened: true };
}

/** Closes a list that was opened for reading (Escape, as the ARIA pattern has it) and waits for it to leave. */
export async function closeList(ctx: RoutineContext, handle: ElementHandle): Promise<void> {
  await pressKey(handle, 'Escape');
  await waitSettled(ctx, handle);
}

/**
 * Waits (bounded) until the popup is gone and the element takes the pointer again, so the next action
 * does not meet the closing popup's backdrop; a popup still there after the bound is left to that action.
 */
export async function waitSettled(ctx: RoutineContext, handle: ElementHandle): Promise<void> {
  await pollUntil(async () => ((await callOn(handle.session, handle.objectId, 'dropdownSettled')) ? true : undefined), {
    timeoutMs: CLOSE_WAIT_MS,
    intervalMs: 50,
    ...(ctx.signal === undefined ? {} : { signal: ctx.signal }),
    onTimeout: () => new Error(`${handle.label}'s popup did not leave within ${CLOSE_WAIT_MS} ms`),
  }).catch((error: unknown) => {
    if (ctx.signal?.aborted === true) {
      throw error;
    }
    ctx.log.debug('a dropdown popup is still there', { error: errorMessageOf(error) });
  });
}
