import { z } from 'zod';
import { defineEvent } from '../define-event';

/** Connects to the browser (launching one first when there is no endpoint). */
export const BrowserStartEvent = defineEvent('BrowserStartEvent', {
  payload: { cdp_url: z.string().nullable().default(null) },
  result: z.strictObject({ cdp_url: z.string() }),
  timeoutMs: 30_000,
  lifecycle: true,
});

/** Detaches everything; emitted with `preempt` by the emergency stop, so it cancels all work first. */
export const BrowserStopEvent = defineEvent('BrowserStopEvent', {
  payload: {
    force: z
      .boolean()
      .default(true)
      .describe('Also kill a browser tabpilot launched')
      .meta({ details: 'Node: also kill the browser tabpilot launched (false disconnects and leaves it running)' }),
  },
  result: z.strictObject({
    stopped: z.literal(true),
    /** How many queued or running events the stop cancelled. */
    cancelled: z.number().int(),
  }),
  timeoutMs: 45_000,
  lifecycle: true,
  description:
    'Emergency stop: cancel queued and running work and detach everything (Node: also kill a browser tabpilot launched).',
});

export const BrowserLaunchEvent = defineEvent('BrowserLaunchEvent', {
  payload: {},
  result: z.strictObject({ cdp_url: z.string() }),
  timeoutMs: 30_000,
  lifecycle: true,
});

export const BrowserKillEvent = defineEvent('BrowserKillEvent', {
  payload: {},
  result: z.void(),
  timeoutMs: 30_000,
  lifecycle: true,
});

export const BrowserConnectedEvent = defineEvent('BrowserConnectedEvent', {
  payload: { cdp_url: z.string() },
  result: z.void(),
  timeoutMs: 30_000,
});

export const BrowserStoppedEvent = defineEvent('BrowserStoppedEvent', {
  payload: { reason: z.string().nullable().default(null) },
  result: z.void(),
  timeoutMs: 30_000,
  lifecycle: true,
});

export const BrowserReconnectingEvent = defineEvent('BrowserReconnectingEvent', {
  payload: { cdp_url: z.string(), attempt: z.number().int(), max_attempts: z.number().int() },
  result: z.void(),
  timeoutMs: 30_000,
  lifecycle: true,
});

export const BrowserReconnectedEvent = defineEvent('BrowserReconnectedEvent', {
  payload: { cdp_url: z.string(), attempt: z.number().int(), downtime_seconds: z.number() },
  result: z.void(),
  timeoutMs: 30_000,
  lifecycle: true,
});

/** Errors that have no awaiting caller land here, so the history and the timeline show them. */
export const BrowserErrorEvent = defineEvent('BrowserErrorEvent', {
  payload: {
    error_type: z.string(),
    message: z.string(),
    details: z.record(z.string(), z.unknown()).default({}),
  },
  result: z.void(),
  timeoutMs: 30_000,
  lifecycle: true,
});
