import type { z } from 'zod';
import type { RouteEvent } from '../../protocol/actions/route.actions';
import type { Protocol } from '../../protocol/cdp';
import { MAX_ROUTE_BODY_BYTES } from '../../protocol/routes';
import { TabpilotError } from '../../shared/errors';
import { bytesToBase64 } from '../../shared/bytes';
import type { ArtifactFiles } from '../artifacts/artifact-files';
import type { RouteSpec } from './tab-routes';

type RoutePayload = z.output<typeof RouteEvent.payloadShape>;
type FulfillIn = NonNullable<RoutePayload['fulfill']>;

const BODY_FILE_FIELD = 'fulfill.body_file';

/**
 * The route an `add` asks for, its body read and encoded once now. A body_file is read through the
 * platform's artifact files, which confine it (Node: under the output folder; the extension: only the
 * JSON files it saved itself), so a client cannot make a route serve a file from elsewhere on the disk.
 */
export async function routeSpecOf(payload: RoutePayload, files: ArtifactFiles | undefined): Promise<RouteSpec> {
  const urlPattern = payload.url_pattern ?? '*';
  const resourceType = payload.resource_type;
  if (payload.fulfill === undefined) {
    return { urlPattern, resourceType, answer: { kind: 'block', reason: payload.error_reason ?? 'blocked_by_client' } };
  }
  const fulfill = payload.fulfill;
  const body = await bodyOf(fulfill, files);
  return {
    urlPattern,
    resourceType,
    answer: { kind: 'fulfill', status: fulfill.status, headers: headersOf(fulfill, body !== ''), bodyBase64: body },
  };
}

async function bodyOf(fulfill: FulfillIn, files: ArtifactFiles | undefined): Promise<string> {
  if (fulfill.body !== undefined) {
    return bytesToBase64(new TextEncoder().encode(fulfill.body));
  }
  if (fulfill.body_base64 !== undefined) {
    return fulfill.body_base64;
  }
  if (fulfill.body_file === undefined) {
    return '';
  }
  if (files === undefined) {
    throw new TabpilotError('UNSUPPORTED', 'This platform reads no files: send the body inline (body or body_base64)', {
      details: { field: BODY_FILE_FIELD },
    });
  }
  const bytes = await files.readFile(fulfill.body_file, BODY_FILE_FIELD);
  if (bytes.length > MAX_ROUTE_BODY_BYTES) {
    throw new TabpilotError(
      'INVALID_PARAMS',
      `${BODY_FILE_FIELD}: the file has ${bytes.length} bytes, more than the ${MAX_ROUTE_BODY_BYTES} a route may serve`,
      { details: { field: BODY_FILE_FIELD } },
    );
  }
  return bytesToBase64(bytes);
}

/** The response headers: the client's, with content_type as Content-Type (text/plain for a body without one). */
function headersOf(fulfill: FulfillIn, hasBody: boolean): Protocol.Fetch.HeaderEntry[] {
  const given = Object.entries(fulfill.headers ?? {}).map(([name, value]) => ({ name, value }));
  const typed = given.some((header) => header.name.toLowerCase() === 'content-type');
  if (fulfill.content_type !== undefined) {
    return [
      ...given.filter((header) => header.name.toLowerCase() !== 'content-type'),
      { name: 'Content-Type', value: fulfill.content_type },
    ];
  }
  return typed || !hasBody ? given : [...given, { name: 'Content-Type', value: 'text/plain; charset=utf-8' }];
}
