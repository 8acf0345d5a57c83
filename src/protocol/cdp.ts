/**
 * The one place CDP types are named: aliases over devtools-protocol (types only), so a protocol bump
 * touches this file alone.
 */
import type { ProtocolMapping } from 'devtools-protocol/types/protocol-mapping';

export type { Protocol } from 'devtools-protocol';

export type CdpMethod = keyof ProtocolMapping.Commands;
/** The params as a rest tuple: required params are required, optional ones optional. */
export type CdpParamsTuple<M extends CdpMethod> = ProtocolMapping.Commands[M]['paramsType'];
export type CdpParams<M extends CdpMethod> =
  CdpParamsTuple<M> extends [] ? undefined : NonNullable<CdpParamsTuple<M>[0]>;
export type CdpResult<M extends CdpMethod> = ProtocolMapping.Commands[M]['returnType'];
export type CdpEventName = keyof ProtocolMapping.Events;
export type CdpEventParams<E extends CdpEventName> = ProtocolMapping.Events[E] extends [infer P] ? P : undefined;

/** A command as it crosses the transport seam (objects, not JSON strings). */
export interface CdpRequest {
  id: number;
  method: string;
  params?: object;
  sessionId?: string;
}

export interface CdpErrorPayload {
  code: number;
  message: string;
  data?: string;
}

export interface CdpResponse {
  id: number;
  result?: unknown;
  error?: CdpErrorPayload;
  sessionId?: string;
}

export interface CdpEventMessage {
  method: string;
  params?: unknown;
  sessionId?: string;
}

export type CdpIncoming = CdpResponse | CdpEventMessage;

/** Whether a parsed frame is CDP at all: a response (its id) or an event (its method). */
export function isCdpIncoming(value: unknown): value is CdpIncoming {
  if (typeof value !== 'object' || value === null) {
    return false;
  }
  return ('id' in value && typeof value.id === 'number') || ('method' in value && typeof value.method === 'string');
}

export function isCdpResponse(message: CdpIncoming): message is CdpResponse {
  return typeof (message as CdpResponse).id === 'number';
}
