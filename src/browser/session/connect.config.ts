import { z } from 'zod';
import { BrowserLaunchEvent, BrowserStartEvent } from '../../protocol/events/lifecycle.events';

export const CONNECT_DEFAULTS = { timeout_ms: 90_000, backoff_ms: [500, 1000, 2000, 4000] };

/**
 * How a browser endpoint is reached (Node): a local Chromium, a remote one, or a browser pool that queues
 * connections and refuses them when full.
 */
export const connectConfigShape = {
  connect: z
    .strictObject({
      timeout_ms: z
        .number()
        .int()
        .min(1000)
        .max(3_600_000)
        .default(CONNECT_DEFAULTS.timeout_ms)
        .describe(
          "The budget for reaching a browser at start or attach: resolving /json/version, waiting in a pool's queue, and retrying a full pool (HTTP 429/503) or a refused connection; past it, connect fails saying why",
        ),
      backoff_ms: z
        .array(z.number().int().min(0))
        .min(1)
        .default(CONNECT_DEFAULTS.backoff_ms)
        .describe('Pauses between connect attempts (the last repeats); a longer Retry-After from the pool wins'),
    })
    .default(CONNECT_DEFAULTS)
    .describe('How tabpilot reaches a browser endpoint (Node), a browser pool included'),
};

/**
 * The bus timeouts with a BrowserStartEvent deadline that leaves room for a launch and the whole connect
 * budget (a pool's queue can take most of it), unless the config's `timeouts` names one itself.
 */
export function withStartDeadline(
  timeouts: Readonly<Record<string, number>>,
  connectTimeoutMs: number,
): Record<string, number> {
  const launchMs = timeouts[BrowserLaunchEvent.type] ?? BrowserLaunchEvent.timeoutMs;
  return { [BrowserStartEvent.type]: launchMs + connectTimeoutMs, ...timeouts };
}
