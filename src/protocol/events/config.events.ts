import { z } from 'zod';
import { defineEvent } from '../define-event';

/**
 * The running config was replaced (the panel's settings in the extension). Awaited by whoever applied
 * it, so when it completes every watchdog has acted on the new values (the URL policy holds in every
 * controlled tab, permissions are granted, a HAR or downloads folder reopened). Names the top-level fields that changed, never their values.
 */
export const ConfigChangedEvent = defineEvent('ConfigChangedEvent', {
  payload: { changed: z.array(z.string()) },
  result: z.void(),
  timeoutMs: 30_000,
  lifecycle: true,
});
