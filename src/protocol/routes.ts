/**
 * The `route` action's vocabulary: the request types a route may be narrowed to, the network errors a
 * blocked request may fail with, and the bounds. Shared by the declaration and the route table.
 */

/** At most this many routes per tab; an add past it is refused. */
export const MAX_ROUTES_PER_TAB = 20;

/** A fulfilled response's body, decoded, is at most this large (5 MiB). */
export const MAX_ROUTE_BODY_BYTES = 5 * 1024 * 1024;

/**
 * The request types CDP's Fetch domain pauses, as Network.ResourceType names them (a WebSocket handshake
 * never pauses there, so it is not offered).
 */
export const ROUTE_RESOURCE_TYPES = [
  'Document',
  'Stylesheet',
  'Image',
  'Media',
  'Font',
  'Script',
  'TextTrack',
  'XHR',
  'Fetch',
  'EventSource',
  'Manifest',
  'Ping',
  'Other',
] as const;
export type RouteResourceType = (typeof ROUTE_RESOURCE_TYPES)[number];

/** The network errors a blocked request fails with, by name, and CDP's Network.ErrorReason for each. */
export const BLOCK_REASONS = {
  blocked_by_client: 'BlockedByClient',
  failed: 'Failed',
  aborted: 'Aborted',
  timed_out: 'TimedOut',
  access_denied: 'AccessDenied',
  connection_refused: 'ConnectionRefused',
  connection_reset: 'ConnectionReset',
  name_not_resolved: 'NameNotResolved',
  internet_disconnected: 'InternetDisconnected',
  address_unreachable: 'AddressUnreachable',
} as const;
export type BlockReasonName = keyof typeof BLOCK_REASONS;
export const BLOCK_REASON_NAMES = [
  'blocked_by_client',
  'failed',
  'aborted',
  'timed_out',
  'access_denied',
  'connection_refused',
  'connection_reset',
  'name_not_resolved',
  'internet_disconnected',
  'address_unreachable',
] as const satisfies readonly BlockReasonName[];

/** A header name as HTTP allows it (a token). */
export const HEADER_NAME = /^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/;
