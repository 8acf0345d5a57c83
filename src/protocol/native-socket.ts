import { z } from 'zod';
import { ClientApproval, ClientName, ExtensionInfo, HostInfo } from './native-messages';
import { CLIENT_KEY_PATTERN } from './client-key';

/**
 * What local clients and the native host say on the host's Unix socket: JSON lines. A client first
 * says hello with its name; after that every line is a command-protocol request, answered by its
 * response, exactly as on `tabpilot connect`'s stdin and stdout. A few host-level lines sit beside
 * them, each recognised by its single key (`hello`, `ping`, `pong`, `notice`).
 */

export const ClientHello = z.strictObject({
  hello: z.strictObject({
    client: ClientName,
    protocol: z.number().int().optional(),
    pid: z.number().int().optional(),
    /** The key an earlier "allow until revoked" issued to this program (see CLIENT_KEY_PATTERN). */
    key: z.string().regex(CLIENT_KEY_PATTERN).optional(),
  }),
});
export type ClientHello = z.infer<typeof ClientHello>;

/** Asks the extension to answer, without running a command (doctor's last check). */
export const ClientPing = z.strictObject({ ping: z.strictObject({}).optional() });

export const HostWelcome = z.strictObject({
  hello: z.strictObject({
    client: ClientName,
    host: HostInfo,
    /** Null until the worker has said hello on its side (a moment after the host starts). */
    extension: ExtensionInfo.nullable(),
  }),
});
export type HostWelcome = z.infer<typeof HostWelcome>;

export const HostPong = z.strictObject({ pong: z.strictObject({ extension: ExtensionInfo }) });

/** Something the client should know that is not an answer: approval pending, denied, disconnected. */
export const HostNotice = z.strictObject({
  notice: z.strictObject({
    approval: ClientApproval.optional(),
    message: z.string(),
    /** The key of an "allow until revoked": the client keeps it (0600) and says it in later hellos. */
    key: z.string().optional(),
  }),
});
export type HostNotice = z.infer<typeof HostNotice>;

/**
 * The discovery record a host publishes next to its socket, so clients find it without
 * configuration. Removed when the host exits; a record whose pid is gone is stale.
 */
export const HostRecord = z.strictObject({
  pid: z.number().int(),
  socket: z.string(),
  extension_id: z.string(),
  /** The browser profile (its --user-data-dir) when the host could read it; null for the default. */
  user_data_dir: z.string().nullable(),
  /** The profile id the extension reported, once it has. */
  profile_id: z.string().nullable(),
  browser: z.string().nullable(),
  version: z.string(),
  started_at: z.number(),
});
export type HostRecord = z.infer<typeof HostRecord>;
