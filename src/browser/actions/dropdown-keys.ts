import { errorMessageOf, TabpilotError } from '../../shared/errors';
import { pollUntil } from '../../shared/time';
import { pressKey } from './dropdown-open';
import type { ElementHandle, RoutineContext } from './element';
import type { ActiveOption, DropdownOption } from './in-page-api';
import { callOn } from './in-page-call';

/**
 * Lists whose options cannot be clicked (a virtual list that keeps only the active option and its
 * neighbours for assistive technology, as Ant Design's does) are walked as a keyboard user does: the
 * Down key moves the active option (aria-activedescendant), Enter picks it.
 */

/** Enough for any dropdown a person scrolls through; a longer walk stops here. */
const MAX_STEPS = 500;
/** How long one Down key may take to move the active option. */
const STEP_WAIT_MS = 1000;

async function active(handle: ElementHandle): Promise<ActiveOption | null> {
  return callOn(handle.session, handle.objectId, 'activeOption');
}

/** The active option once it is no longer `from` (bounded by STEP_WAIT_MS), or null when it stayed. */
async function movedFrom(ctx: RoutineContext, handle: ElementHandle, from: string): Promise<ActiveOption | null> {
  return pollUntil(
    async () => {
      const now = await active(handle);
      return now !== null && now.id !== from ? now : undefined;
    },
    {
      timeoutMs: STEP_WAIT_MS,
      intervalMs: 20,
      ...(ctx.signal === undefined ? {} : { signal: ctx.signal }),
      onTimeout: () => new Error('the active option did not move'),
    },
  ).catch((error: unknown) => {
    if (ctx.signal?.aborted === true) {
      throw error;
    }
    ctx.log.debug('the Down key moved no further', { error: errorMessageOf(error) });
    return null;
  });
}

/**
 * What a Down key that left the active option where it was means, read from the option active before
 * (`from`) and after (`now`): the list's end when no enabled option follows; a key the page lost or undid
 * when its list shows one after it, or when it was the walk's first key (a page that resets its active
 * option once, after the first key, does so at its last option too, where a wrapping list shows nothing
 * after it); a list that closed or lost focus during the walk when nothing is active any more.
 */
export function stillKeyMeaning(
  from: ActiveOption | null,
  now: ActiveOption | null,
  firstKey: boolean,
): 'end' | 'lost' | 'closed' {
  if (now === null) {
    return from === null ? 'end' : 'closed';
  }
  return now.followed || firstKey ? 'lost' : 'end';
}

/**
 * The next active option after a Down key, or null at the end of a list that does not wrap. The end is
 * checked, not assumed from a key that moved nothing: a list that shows an option after the active one
 * has not ended, and the walk's first key may have been undone, so the key is pressed once more, as a
 * person presses again when the highlight stayed.
 */
async function stepDown(
  ctx: RoutineContext,
  handle: ElementHandle,
  from: ActiveOption | null,
  firstKey: boolean,
): Promise<ActiveOption | null> {
  await pressKey(handle, 'ArrowDown');
  const moved = await movedFrom(ctx, handle, from?.id ?? '');
  if (moved !== null) {
    return moved;
  }
  const now = await active(handle);
  switch (stillKeyMeaning(from, now, firstKey)) {
    case 'end':
      return null;
    case 'closed':
      throw new TabpilotError(
        'UNSUPPORTED',
        `${handle.label}: its list closed, or it lost the focus, while its options were walked with the keys`,
        { details: { reason: 'list-closed' } },
      );
    case 'lost':
      break;
  }
  ctx.log.debug(
    'the Down key left the active option (an option follows it, or it was the first key); pressing it again',
    {
      element: handle.label,
      active: now?.id,
    },
  );
  await pressKey(handle, 'ArrowDown');
  const again = await movedFrom(ctx, handle, from?.id ?? '');
  if (again === null && stillKeyMeaning(from, now, false) === 'end') {
    // Pressed again, the first key still moved nothing where a later one would mean the end: it is the end.
    return null;
  }
  if (again === null) {
    throw new TabpilotError(
      'TIMEOUT',
      `${handle.label}: the Down key, pressed twice, did not move its active option "${now?.option.text ?? ''}" to the option its list shows after it`,
    );
  }
  return again;
}

/**
 * Moves the active option down from where it is, calling `visit` with each one until it returns true
 * (the walk stops there, on that option), the list comes round to an option seen before, or it ends.
 * Returns every option visited, in walk order, and whether `visit` stopped it.
 */
export async function walkActive(
  ctx: RoutineContext,
  handle: ElementHandle,
  visit: (current: ActiveOption) => Promise<boolean> | boolean,
): Promise<{ visited: ActiveOption[]; stopped: boolean }> {
  const start = await active(handle);
  let current = start ?? (await stepDown(ctx, handle, null, true));
  // Whether the next key is the walk's first (none was pressed to find where it starts).
  let firstKey = start !== null;
  if (current === null) {
    throw new TabpilotError(
      'UNSUPPORTED',
      `${handle.label}: its list has no options that can be clicked and marks none active (aria-activedescendant) for the keys`,
    );
  }
  const seen = new Set<string>();
  const visited: ActiveOption[] = [];
  while (current !== null && !seen.has(current.id) && visited.length < MAX_STEPS) {
    seen.add(current.id);
    visited.push(current);
    if (await visit(current)) {
      return { visited, stopped: true };
    }
    current = await stepDown(ctx, handle, current, firstKey);
    firstKey = false;
  }
  return { visited, stopped: false };
}

/** The trailing number of an option's id (`list_7`), when it has one. */
function idNumber(id: string): number | undefined {
  const match = /(\d+)$/.exec(id);
  return match === null ? undefined : Number(match[1]);
}

/**
 * Options met in a walk, in list order: the walk starts at whichever option was active, so when every id
 * ends in a number (a virtual list's row numbers) the options are sorted by it; indexes follow that order.
 */
export function inListOrder(visited: readonly ActiveOption[]): DropdownOption[] {
  const numbers = visited.map((entry) => idNumber(entry.id));
  const ordered = numbers.every((n) => n !== undefined)
    ? [...visited].sort((a, b) => (idNumber(a.id) ?? 0) - (idNumber(b.id) ?? 0))
    : [...visited];
  return ordered.map((entry, index) => ({ ...entry.option, index }));
}
