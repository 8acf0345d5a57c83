import { z } from 'zod';
import { LOCATOR_SELECTOR_PREFIX, type PageLocator } from '../../dom/payload';
import type { FlowLocator } from '../../protocol/flow';
import { sleep } from '../../shared/time';
import type { ServerActionCaller } from '../server-action';

// The page's locator type and the flow's schema are one contract (the in-page code cannot import zod).
true satisfies FlowLocator extends PageLocator ? (PageLocator extends FlowLocator ? true : false) : false;

/** When the element is looked for again, from the step's start: a page answers the step before in its own time. */
const LOOK_AT_MS = [0, 150, 400, 800, 1_500, 2_500, 4_000, 6_000];

const Found = z.looseObject({
  total: z.number(),
  elements: z.array(z.looseObject({ index: z.number().nullable() })),
});

/** How a locator reads in a reason: `button "Sign up"`, `the field labelled "Email"`, ... */
export function describeLocator(locator: FlowLocator): string {
  if ('role' in locator) {
    return `${locator.role} ${JSON.stringify(locator.name)}`;
  }
  if ('label' in locator) {
    return `the field labelled ${JSON.stringify(locator.label)}`;
  }
  if ('text' in locator) {
    return `the text ${JSON.stringify(locator.text)}`;
  }
  if ('test_id' in locator) {
    return `test id ${JSON.stringify(locator.test_id)}`;
  }
  return `CSS ${JSON.stringify(locator.css)}`;
}

/** The element's index, or why there is none; `several` is not looked for again (a page rarely drops one). */
export type Located = { index: number } | { missing: string; several?: true };

/** One look: a fresh state (indexes name elements of the latest state only), then the locator's matches. */
async function lookOnce(
  locator: FlowLocator,
  onTab: { tab_id?: string },
  caller: ServerActionCaller,
): Promise<Located> {
  await caller.runAction('state', { ...onTab });
  const found = Found.parse(
    await caller.runAction('find_elements', {
      ...onTab,
      selector: `${LOCATOR_SELECTOR_PREFIX}${JSON.stringify(locator)}`,
      max_results: 5,
      include_text: false,
    }),
  );
  const what = describeLocator(locator);
  if (found.total === 0) {
    return { missing: `no element on the page is ${what}` };
  }
  if (found.total > 1) {
    return { missing: `${found.total} elements are ${what}; a step must name one`, several: true };
  }
  const index = found.elements[0]?.index ?? null;
  return index === null ? { missing: `${what} is on the page but cannot be acted on (hidden or covered)` } : { index };
}

/**
 * The index of the one element a locator names now, through the client's own road (`state`, then
 * `find_elements`), looked for again for a few seconds while it is missing; else what is wrong.
 */
export async function locate(
  locator: FlowLocator,
  onTab: { tab_id?: string },
  caller: ServerActionCaller,
): Promise<Located> {
  const start = performance.now();
  let last: Located = { missing: `no element on the page is ${describeLocator(locator)}` };
  for (const at of LOOK_AT_MS) {
    const wait = start + at - performance.now();
    if (wait > 0) {
      await sleep(wait, caller.signal);
    }
    caller.signal.throwIfAborted();
    last = await lookOnce(locator, onTab, caller);
    if ('index' in last || last.several === true) {
      return last;
    }
  }
  return last;
}
