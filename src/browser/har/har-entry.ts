import type { Protocol } from 'devtools-protocol';
import type { HarCookie, HarNameValue, HarPostData, HarTimings } from './har-types';

export const REDACTED = '<redacted>';

/** CDP headers (an object, values joined by newlines for repeated headers) as HAR's name/value list. */
export function headerList(headers: Protocol.Network.Headers | undefined): HarNameValue[] {
  const out: HarNameValue[] = [];
  for (const [name, raw] of Object.entries(headers ?? {})) {
    for (const value of String(raw).split('\n')) {
      out.push({ name, value });
    }
  }
  return out;
}

export function headerValue(headers: readonly HarNameValue[], name: string): string | undefined {
  const lower = name.toLowerCase();
  return headers.find((header) => header.name.toLowerCase() === lower)?.value;
}

/** Values of the listed headers replaced (names compared without case). */
export function redactHeaders(headers: HarNameValue[], redacted: ReadonlySet<string>): HarNameValue[] {
  return headers.map((header) =>
    redacted.has(header.name.toLowerCase()) ? { name: header.name, value: REDACTED } : header,
  );
}

/** The cookies of a request's Cookie headers. */
export function requestCookies(headers: readonly HarNameValue[], redact: boolean): HarCookie[] {
  const out: HarCookie[] = [];
  for (const header of headers) {
    if (header.name.toLowerCase() !== 'cookie') {
      continue;
    }
    for (const pair of header.value.split(';')) {
      const at = pair.indexOf('=');
      const name = (at < 0 ? pair : pair.slice(0, at)).trim();
      if (name !== '') {
        out.push({ name, value: redact ? REDACTED : at < 0 ? '' : pair.slice(at + 1).trim() });
      }
    }
  }
  return out;
}

/** The cookies a response sets, one per Set-Cookie header, with their attributes. */
export function responseCookies(headers: readonly HarNameValue[], redact: boolean): HarCookie[] {
  const out: HarCookie[] = [];
  for (const header of headers) {
    if (header.name.toLowerCase() !== 'set-cookie') {
      continue;
    }
    const [pair = '', ...attributes] = header.value.split(';');
    const at = pair.indexOf('=');
    const cookie: HarCookie = {
      name: (at < 0 ? pair : pair.slice(0, at)).trim(),
      value: redact ? REDACTED : at < 0 ? '' : pair.slice(at + 1).trim(),
    };
    for (const attribute of attributes) {
      const [rawKey = '', ...rest] = attribute.split('=');
      const key = rawKey.trim().toLowerCase();
      const value = rest.join('=').trim();
      if (key === 'path') {
        cookie.path = value;
      } else if (key === 'domain') {
        cookie.domain = value;
      } else if (key === 'expires') {
        const date = new Date(value);
        if (!Number.isNaN(date.getTime())) {
          cookie.expires = date.toISOString();
        }
      } else if (key === 'httponly') {
        cookie.httpOnly = true;
      } else if (key === 'secure') {
        cookie.secure = true;
      } else if (key === 'samesite') {
        cookie.sameSite = value;
      }
    }
    out.push(cookie);
  }
  return out;
}

export function queryString(url: string): HarNameValue[] {
  try {
    const out: HarNameValue[] = [];
    const search = new URL(url).search.replace(/^\?/, '');
    for (const part of search === '' ? [] : search.split('&')) {
      const at = part.indexOf('=');
      out.push({
        name: decodeComponent(at < 0 ? part : part.slice(0, at)),
        value: decodeComponent(at < 0 ? '' : part.slice(at + 1)),
      });
    }
    return out;
  } catch {
    // A URL the browser sent but URL() cannot parse has no query string HAR can list.
    return [];
  }
}

function decodeComponent(text: string): string {
  try {
    return decodeURIComponent(text.replace(/\+/g, ' '));
  } catch {
    // A malformed escape is kept as written.
    return text;
  }
}

/** HAR's httpVersion from CDP's protocol name (h2 is HTTP/2, and so on). */
export function httpVersion(protocol: string | undefined): string {
  switch ((protocol ?? '').toLowerCase()) {
    case 'h2':
      return 'HTTP/2.0';
    case 'h3':
    case 'quic':
      return 'HTTP/3.0';
    case 'http/1.0':
      return 'HTTP/1.0';
    case 'http/1.1':
    case '':
      return 'HTTP/1.1';
    default:
      return protocol ?? 'HTTP/1.1';
  }
}

export function postDataOf(text: string | undefined, contentType: string | undefined): HarPostData | undefined {
  if (text === undefined) {
    return undefined;
  }
  const mimeType = contentType ?? '';
  const postData: HarPostData = { mimeType, text };
  if (mimeType.toLowerCase().startsWith('application/x-www-form-urlencoded')) {
    postData.params = queryString(`http://x/?${text}`);
  }
  return postData;
}

function round(ms: number): number {
  return Math.round(ms * 1000) / 1000;
}

/**
 * HAR timings (ms) from CDP's ResourceTiming: its offsets are ms after `requestTime` (s, monotonic).
 * `requestTimestamp` is when the request was issued and `endTimestamp` when its body finished (both s).
 * Phases the browser skipped (a reused connection has no dns or connect) are -1; ssl lies inside connect.
 */
export function harTimings(
  timing: Protocol.Network.ResourceTiming | undefined,
  requestTimestamp: number,
  responseTimestamp: number | undefined,
  endTimestamp: number | undefined,
): { timings: HarTimings; time: number } {
  let timings: HarTimings;
  if (timing === undefined) {
    const wait = responseTimestamp === undefined ? 0 : (responseTimestamp - requestTimestamp) * 1000;
    const receive =
      endTimestamp === undefined || responseTimestamp === undefined ? 0 : (endTimestamp - responseTimestamp) * 1000;
    timings = {
      blocked: -1,
      dns: -1,
      connect: -1,
      ssl: -1,
      send: 0,
      wait: round(Math.max(0, wait)),
      receive: round(Math.max(0, receive)),
    };
  } else {
    const queued = Math.max(0, (timing.requestTime - requestTimestamp) * 1000);
    const firstPhase = [timing.dnsStart, timing.connectStart, timing.sendStart].find((value) => value >= 0) ?? 0;
    const phase = (start: number, end: number): number => (start >= 0 && end >= start ? round(end - start) : -1);
    const end = endTimestamp === undefined ? timing.receiveHeadersEnd : (endTimestamp - timing.requestTime) * 1000;
    timings = {
      blocked: round(queued + firstPhase),
      dns: phase(timing.dnsStart, timing.dnsEnd),
      connect: phase(timing.connectStart, timing.connectEnd),
      ssl: phase(timing.sslStart, timing.sslEnd),
      send: round(Math.max(0, timing.sendEnd - timing.sendStart)),
      wait: round(Math.max(0, timing.receiveHeadersEnd - timing.sendEnd)),
      receive: round(Math.max(0, end - timing.receiveHeadersEnd)),
    };
  }
  const time = [timings.blocked, timings.dns, timings.connect, timings.send, timings.wait, timings.receive]
    .filter((value) => value > 0)
    .reduce((sum, value) => sum + value, 0);
  return { timings, time: round(time) };
}

/** Response bodies kept as text in the HAR (others are base64). */
export function isTextual(mimeType: string): boolean {
  const type = mimeType.toLowerCase().split(';')[0]?.trim() ?? '';
  return (
    type.startsWith('text/') ||
    /[/+](json|xml|javascript|ecmascript|x-www-form-urlencoded)$/.test(type) ||
    type === 'image/svg+xml'
  );
}

/** A file extension for an attached body, from its MIME type. */
export function extensionFor(mimeType: string): string {
  const type = mimeType.toLowerCase().split(';')[0]?.trim() ?? '';
  const known: Record<string, string> = {
    'text/html': 'html',
    'text/css': 'css',
    'text/plain': 'txt',
    'text/javascript': 'js',
    'application/javascript': 'js',
    'application/json': 'json',
    'image/png': 'png',
    'image/jpeg': 'jpg',
    'image/gif': 'gif',
    'image/svg+xml': 'svg',
    'image/webp': 'webp',
    'application/pdf': 'pdf',
    'font/woff2': 'woff2',
  };
  return known[type] ?? 'dat';
}
