import { setFlagsFromString } from 'node:v8';

/**
 * How far V8 lets the old generation grow past what the last full collection kept before it collects
 * again, in percent. V8 picks the factor itself, up to 4 (300 %) on a machine with a few GB of memory;
 * a session that reads whole pages makes garbage fast (a huge page's `state` leaves about 12 MB in Node,
 * the page's answer and its parse among it), so the CLI sat on about 100 MB of garbage, 150 MB of RSS
 * over idle, for a live heap of 28 MB. At 50 % it collects once the old generation is half again what is
 * live, which costs a full collection of that live heap (milliseconds) every state or two.
 */
export const HEAP_GROWING_PERCENT = 50;

/**
 * Sets the growth for this process. Only the CLI's own process calls it (the commands that hold a
 * browser session): the library leaves its host's V8 as it is. V8 reads the flag at each full
 * collection, so setting it after start takes effect.
 */
export function keepHeapNearLive(): void {
  setFlagsFromString(`--heap-growing-percent=${HEAP_GROWING_PERCENT}`);
}
