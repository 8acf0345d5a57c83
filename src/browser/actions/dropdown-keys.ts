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

/** The next active option after a Down key, or null when it stayed (the end of a list that does not wrap). */
async function stepDown(ctx: RoutineContext, handle: ElementHandle, from: string): Promise<ActiveOption | null> {
  await pressKey(handle, 'ArrowDown');
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
 * Moves the active option down from where it is, calling `visit` with each one until it returns true
 * (the walk stops there, on that option), the list comes round to an option seen before, or it ends.
 * Returns every option visited, in walk order, and whether `visit` stopped it.
 */
export async function walkActive(
  ctx: RoutineContext,
  handle: ElementHandle,
  visit: (current: ActiveOption) => Promise<boolean> | boolean,
): Promise<{ visited: ActiveOption[]; stopped: boolean }> {
  let current = (await active(handle)) ?? (await stepDown(ctx, handle, ''));
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
    current = await stepDown(ctx, handle, current.id);
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
