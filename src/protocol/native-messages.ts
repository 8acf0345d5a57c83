import { z } from 'zod';
import { CLIENT_NAME_PATTERN, CLIENT_NAME_RULE } from './client-name';
import { CommandResponseSchema, ErrorCodeSchema, EventMessageSchema } from './commands';

/**
 * What the native-messaging host and the extension's worker say to each other, one JSON message per
 * Chrome frame (a 32-bit native-order length, then UTF-8 JSON). Both directions are zod unions,
 * validated on receipt. The host brokers local clients: each socket connection is a `conn`, each
 * request it forwards carries the host's own `seq`, so every answer goes back to the connection that
 * asked and the host can answer what is still open when the extension goes away.
 */

/** The host's name in its manifest (`[a-z0-9_.]`, no dot at either end). */
export const NATIVE_HOST_NAME = 'com.tabpilot.host';
/** The extension id, pinned by the manifest's key. Only this origin may start the host. */
export const EXTENSION_ID = 'dakiagajobemlckhchkemohalbompofb';
export const EXTENSION_ORIGIN = `chrome-extension://${EXTENSION_ID}/`;
export const NATIVE_PROTOCOL_VERSION = 1;

/** Chrome refuses a host-to-extension message over 1 MiB; larger ones travel as chunks. */
export const HOST_TO_EXTENSION_MAX_BYTES = 1024 * 1024;
/** Chrome caps extension-to-host messages at 64 MiB; the worker chunks above half of that. */
export const EXTENSION_TO_HOST_MAX_BYTES = 32 * 1024 * 1024;
/** The largest frame the host accepts from Chrome (Chrome's own cap). */
export const FRAME_READ_LIMIT_BYTES = 64 * 1024 * 1024;

/**
 * A client's name: `tabpilot` (the CLI), `tabpilot:<label>` (another CLI session, a script),
 * `mcp:<client name>` (an MCP server speaking for a coding agent). The name is what leases, approvals
 * and the timeline know a client by, so two CLI runs under the same name are the same client.
 */
export const ClientName = z.string().regex(CLIENT_NAME_PATTERN, CLIENT_NAME_RULE);
export type ClientName = z.infer<typeof ClientName>;

const ConnId = z.string().min(1).max(40);
const Seq = z.number().int().nonnegative();

export const ProtocolErrorSchema = z.strictObject({ code: ErrorCodeSchema, message: z.string() });

/** One piece of a message too large for one frame; the pieces' `data` joined is the message's JSON. */
export const ChunkFrame = z.strictObject({
  type: z.literal('chunk'),
  id: z.string().min(1).max(40),
  index: z.number().int().nonnegative(),
  total: z.number().int().min(2).max(4096),
  data: z.string(),
});
export type ChunkFrame = z.infer<typeof ChunkFrame>;

export const HostInfo = z.strictObject({
  pid: z.number().int(),
  version: z.string(),
  socket: z.string(),
  /** The browser profile that started the host, when its command line names one. */
  user_data_dir: z.string().nullable(),
  started_at: z.number(),
});
export type HostInfo = z.infer<typeof HostInfo>;

/** A process as /proc tells it (the client's own words play no part). */
export const PeerProcess = z.strictObject({ pid: z.number().int(), exe: z.string(), cmdline: z.string() });
export type PeerProcess = z.infer<typeof PeerProcess>;

/**
 * Who connected, as the operating system vouches (Linux: the socket's peer through `ss` and /proc),
 * with its parent (the coding agent that started an MCP server, the shell that ran the CLI).
 */
export const PeerIdentity = PeerProcess.extend({ parent: PeerProcess.nullable() });
export type PeerIdentity = z.infer<typeof PeerIdentity>;

/** The sha-256 (hex) of the key a client presented in its hello; the key itself stays in the host. */
export const KeyHash = z.string().regex(/^[0-9a-f]{64}$/);

export const HostToWorker = z.discriminatedUnion('type', [
  z.strictObject({ type: z.literal('hello'), protocol: z.number().int(), host: HostInfo }),
  z.strictObject({
    type: z.literal('client_connected'),
    conn: ConnId,
    client: ClientName,
    /** The pid the client says it has: shown, never trusted. */
    pid: z.number().int().nullable(),
    /** What the system says of the caller; null when it did not vouch (no `ss`, not Linux, an older host). */
    peer: PeerIdentity.nullable().default(null),
    /** The hash of the key it presented (from an earlier "allow until revoked"), or null. */
    key_hash: KeyHash.nullable().default(null),
  }),
  z.strictObject({ type: z.literal('client_disconnected'), conn: ConnId }),
  /** A client's request line, parsed as JSON by the host; the CommandServer validates its shape. */
  z.strictObject({ type: z.literal('request'), conn: ConnId, seq: Seq, message: z.unknown() }),
  z.strictObject({ type: z.literal('ping'), conn: ConnId, seq: Seq }),
  ChunkFrame,
  /** The host could not read a frame the worker sent. */
  z.strictObject({ type: z.literal('protocol_error'), error: ProtocolErrorSchema }),
]);
export type HostToWorker = z.infer<typeof HostToWorker>;

export const ExtensionInfo = z.strictObject({
  id: z.string(),
  version: z.string(),
  /** The browser's user agent. */
  browser: z.string(),
  /** A random id kept in the profile's storage: which profile this is, without its path. */
  profile_id: z.string(),
});
export type ExtensionInfo = z.infer<typeof ExtensionInfo>;

/** Where a client stands with the person: approval is asked only when the settings say so. */
export const ClientApproval = z.enum(['approved', 'pending', 'denied']);
export type ClientApproval = z.infer<typeof ClientApproval>;

export const WorkerToHost = z.discriminatedUnion('type', [
  z.strictObject({ type: z.literal('hello'), protocol: z.number().int(), extension: ExtensionInfo }),
  z.strictObject({ type: z.literal('response'), conn: ConnId, seq: Seq, response: CommandResponseSchema }),
  z.strictObject({ type: z.literal('event'), conn: ConnId, message: EventMessageSchema }),
  z.strictObject({ type: z.literal('pong'), conn: ConnId, seq: Seq, extension: ExtensionInfo }),
  z.strictObject({
    type: z.literal('client_status'),
    conn: ConnId,
    approval: ClientApproval,
    message: z.string(),
    /** Issued when the person allows the program until revoked: the client keeps it and presents it. */
    key: z.string().optional(),
  }),
  /** The person pressed Disconnect for this client in the panel: the host closes its socket. */
  z.strictObject({ type: z.literal('disconnect_client'), conn: ConnId, reason: z.string() }),
  ChunkFrame,
  z.strictObject({ type: z.literal('protocol_error'), error: ProtocolErrorSchema }),
]);
export type WorkerToHost = z.infer<typeof WorkerToHost>;
