import type { Protocol } from 'devtools-protocol';
import { base64ToBytes, bytesToBase64, strictUtf8, utf8 } from '../../shared/bytes';
import { errorMessageOf } from '../../shared/errors';
import { saveFile, type FileSaver } from '../host';
import { extensionFor, isTextual, REDACTED } from './har-entry';
import type { KeptRequest } from './request-log';

/** What the answer says of one body. */
export interface BodyDetail {
  /** Its size in bytes (after secrets were replaced). */
  bytes: number;
  /** The text, cut at the answer's bound; null for a binary body, one written to a file, or none. */
  text: string | null;
  /** The text was cut. */
  truncated: boolean;
  /** Where the body was written, when asked to. */
  path: string | null;
  /** Why no body is given: none was sent, the browser no longer holds it, it is still coming. */
  missing: string | null;
}

export interface RequestDetail {
  request_headers: Array<{ name: string; value: string }>;
  response_headers: Array<{ name: string; value: string }> | null;
  request_body: BodyDetail | null;
  response_body: BodyDetail | null;
}

/**
 * Replaced in every answer whatever the config says: a client reads its own tab's requests, not the
 * profile's credentials (an HttpOnly cookie is kept from the page's own scripts too).
 */
const ALWAYS_REDACTED = ['cookie', 'set-cookie', 'authorization', 'proxy-authorization'];

export interface DetailOptions {
  /** Header names whose values are replaced besides ALWAYS_REDACTED (config: record_har_redact_headers). */
  redactHeaders: readonly string[];
  /** Replaces the config's secrets in text (harSecrets). */
  redactText: (text: string) => string;
  maxBodyChars: number;
  /** Writes each body to a file instead of the answer; undefined keeps them in the answer. */
  toFile: { files: FileSaver | undefined; baseName: string } | undefined;
}

function headerList(
  headers: Protocol.Network.Headers,
  redacted: ReadonlySet<string>,
  redactText: (text: string) => string,
) {
  return Object.entries(headers).map(([name, value]) => ({
    name,
    value: redacted.has(name.toLowerCase()) ? REDACTED : redactText(String(value)),
  }));
}

function missing(reason: string): BodyDetail {
  return { bytes: 0, text: null, truncated: false, path: null, missing: reason };
}

/** A body's bytes as the answer gives them: text inline (cut), or written to a file. */
async function bodyDetail(
  bytes: Uint8Array,
  mimeType: string,
  options: DetailOptions,
  suffix: string,
): Promise<BodyDetail> {
  const raw = isTextual(mimeType) ? strictUtf8(bytes) : undefined;
  const text = raw === undefined ? undefined : options.redactText(raw);
  const clean = text === undefined ? bytes : utf8(text);
  if (options.toFile !== undefined) {
    const name = `${options.toFile.baseName}-${suffix}.${extensionFor(mimeType)}`;
    const path = await saveFile(
      options.toFile.files,
      name,
      bytesToBase64(clean),
      mimeType || 'application/octet-stream',
    );
    return { bytes: clean.length, text: null, truncated: false, path, missing: null };
  }
  if (text === undefined) {
    return { ...missing('binary: ask with to_file to have it written to a file'), bytes: clean.length };
  }
  return {
    bytes: clean.length,
    text: text.slice(0, options.maxBodyChars),
    truncated: text.length > options.maxBodyChars,
    path: null,
    missing: null,
  };
}

async function requestBody(request: KeptRequest, options: DetailOptions): Promise<BodyDetail | null> {
  if (!request.hasPostData) {
    return null;
  }
  let postData: string;
  try {
    ({ postData } = await request.session.send('Network.getRequestPostData', { requestId: request.cdpRequestId }));
  } catch (error) {
    return missing(`the browser no longer holds it (${errorMessageOf(error)})`);
  }
  const type = headerValue(request.requestHeaders, 'content-type') ?? 'text/plain';
  return bodyDetail(utf8(postData), type, options, 'request');
}

async function responseBody(request: KeptRequest, options: DetailOptions): Promise<BodyDetail | null> {
  if (request.status === null || request.responseHeaders === null) {
    return request.failure === null ? missing('no response yet') : null;
  }
  if (request.redirected) {
    return null; // A redirect hop has no body of its own.
  }
  let answer: { body: string; base64Encoded: boolean };
  try {
    answer = await request.session.send('Network.getResponseBody', { requestId: request.cdpRequestId });
  } catch (error) {
    // Chrome gives a body once it came whole (a page that never reads one may hold it open), and keeps
    // bodies within the Network domain's buffers (request-log.ts): older or larger ones go.
    return missing(
      request.duration_ms === null
        ? `still coming: the page has not read it whole (${errorMessageOf(error)})`
        : `the browser no longer holds it (${errorMessageOf(error)})`,
    );
  }
  const bytes = answer.base64Encoded ? base64ToBytes(answer.body) : utf8(answer.body);
  return bodyDetail(bytes, request.mime_type ?? '', options, 'response');
}

function headerValue(headers: Protocol.Network.Headers, name: string): string | undefined {
  const found = Object.entries(headers).find(([key]) => key.toLowerCase() === name);
  return found === undefined ? undefined : String(found[1]);
}

/**
 * One request's headers and bodies, for `network_request`: cookies, authorization and the headers named
 * in record_har_redact_headers replaced, the config's secrets replaced in every header and text body; a body
 * in the answer is cut at `maxBodyChars`, or written whole to a file when asked (a binary one only then).
 */
export async function requestDetail(request: KeptRequest, options: DetailOptions): Promise<RequestDetail> {
  const redacted = new Set([...ALWAYS_REDACTED, ...options.redactHeaders.map((name) => name.toLowerCase())]);
  return {
    request_headers: headerList(request.requestHeaders, redacted, options.redactText),
    response_headers:
      request.responseHeaders === null ? null : headerList(request.responseHeaders, redacted, options.redactText),
    request_body: await requestBody(request, options),
    response_body: await responseBody(request, options),
  };
}
