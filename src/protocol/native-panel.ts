import { z } from 'zod';
import { PeerIdentity } from './native-messages';

/**
 * What the side panel shows of the native side: the host's state and every client, with its
 * connections, its approval and its tabs. Pushed by the worker as a `native` message.
 */

export const NativeClientTab = z.strictObject({
  tab_id: z.string(),
  title: z.string(),
  url: z.string(),
  /** The tab the client works in. */
  focused: z.boolean(),
});
export type NativeClientTab = z.infer<typeof NativeClientTab>;

export const NativeClientStatus = z.strictObject({
  name: z.string(),
  /** Open socket connections under this name (0: it holds tabs but is not connected now). */
  connections: z.number().int(),
  approval: z.enum(['approved', 'pending', 'denied']),
  /** Each connection waiting for the person: who the system says it is (null: not vouched). */
  waiting: z.array(
    z.strictObject({ conn: z.string(), claimed_pid: z.number().int().nullable(), peer: PeerIdentity.nullable() }),
  ),
  tabs: z.array(NativeClientTab),
});
export type NativeClientStatus = z.infer<typeof NativeClientStatus>;

export const NativeHostState = z.strictObject({
  state: z.enum(['off', 'connecting', 'connected', 'waiting']),
  pid: z.number().int().nullable(),
  version: z.string().nullable(),
  /** Why the last attempt failed (Chrome's words: "Specified native messaging host not found."). */
  error: z.string().nullable(),
  retry_at: z.number().nullable(),
});
export type NativeHostState = z.infer<typeof NativeHostState>;

export const NativeStatus = z.strictObject({
  enabled: z.boolean(),
  approve_new_clients: z.boolean(),
  host: NativeHostState,
  clients: z.array(NativeClientStatus),
});
export type NativeStatus = z.infer<typeof NativeStatus>;
