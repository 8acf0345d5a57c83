import { TabpilotError, errorMessageOf } from '../../shared/errors';

/**
 * A CDP endpoint as the user gives it: a ws:// URL is used as is; an http(s) URL (like
 * http://127.0.0.1:9222) is resolved through /json/version to the browser's WebSocket URL.
 */
export async function resolveCdpUrl(url: string, timeoutMs = 10_000): Promise<string> {
  if (/^wss?:\/\//i.test(url)) {
    return url;
  }
  if (!/^https?:\/\//i.test(url)) {
    throw new TabpilotError('INVALID_PARAMS', `cdp_url must be ws://, wss://, http:// or https://, got ${url}`);
  }
  const versionUrl = new URL('/json/version', url).toString();
  let response: Response;
  try {
    response = await fetch(versionUrl, { signal: AbortSignal.timeout(timeoutMs) });
  } catch (error) {
    throw new TabpilotError('DISCONNECTED', `Cannot reach ${versionUrl}: ${errorMessageOf(error)}`, { cause: error });
  }
  if (!response.ok) {
    throw new TabpilotError('DISCONNECTED', `${versionUrl} answered HTTP ${response.status}`);
  }
  const body = (await response.json()) as { webSocketDebuggerUrl?: unknown };
  if (typeof body.webSocketDebuggerUrl !== 'string') {
    throw new TabpilotError('DISCONNECTED', `${versionUrl} gave no webSocketDebuggerUrl`);
  }
  return body.webSocketDebuggerUrl;
}
