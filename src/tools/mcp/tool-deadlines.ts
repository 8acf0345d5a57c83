/** Past the action's own timeout, the time a slow answer may take to come back over the channel. */
export const ANSWER_GRACE_MS = 5_000;

/**
 * How long a tool call may take before the server answers TIMEOUT itself. Each action already stops at
 * its event's timeout (navigation 30 s, a click 15 s, typing 60 s, an upload 30 s); the call waits that
 * long and a little more, longer when the call asks for it (a navigate's timeout_ms, a wait's seconds).
 */
export function toolDeadlineMs(action: string, args: Record<string, unknown>, eventTimeoutMs: number): number {
  let ms = eventTimeoutMs;
  const timeout = args['timeout_ms'];
  if (action === 'navigate' && typeof timeout === 'number') {
    ms = Math.max(ms, timeout + 10_000);
  }
  const seconds = args['seconds'];
  if (action === 'wait' && typeof seconds === 'number') {
    ms = Math.max(ms, seconds * 1000 + 5_000);
  }
  return ms + ANSWER_GRACE_MS;
}

/** How often a long call reports progress (when the client asked for it with a progress token). */
export const PROGRESS_INTERVAL_MS = 1_000;
