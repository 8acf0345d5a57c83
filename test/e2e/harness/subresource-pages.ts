import type { ServerResponse } from 'node:http';
import type { FixtureServer } from './fixture-server';

/** Every kind of request a page can send besides loading a document, each to `<to>/sub/<kind>?c=<tag>`. */
export const SUBRESOURCE_KINDS = [
  'img',
  'script',
  'fetch',
  'xhr',
  'websocket',
  'eventsource',
  'beacon',
  'worker-fetch',
  'iframe',
] as const;
export type SubresourceKind = (typeof SUBRESOURCE_KINDS)[number];

function send(res: ServerResponse, type: string, body: string): void {
  res.writeHead(200, { 'content-type': `${type}; charset=utf-8`, 'cache-control': 'no-store' });
  res.end(body);
}

/**
 * The page's half: fires every kind at once and records each one's outcome in `window.outcomes`
 * ('loaded', 'failed', or the error's name), so a test can tell the page kept working; `window.settled`
 * becomes true when each has an outcome (a blocked request fails fast, a witnessed one is answered), but
 * for the iframe: a refused frame is aborted, so it has no load to wait for.
 */
function subresourceScript(to: string, tag: string): string {
  const at = (kind: SubresourceKind): string => `${to}/sub/${kind}?c=${tag}`;
  const wsUrl = at('websocket').replace(/^http/, 'ws');
  return `
window.outcomes = {};
const note = (kind, outcome) => { window.outcomes[kind] = outcome; };
const kinds = ${JSON.stringify(SUBRESOURCE_KINDS)};
const img = new Image(); img.onload = () => note('img', 'loaded'); img.onerror = () => note('img', 'failed');
img.src = ${JSON.stringify(at('img'))};
const script = document.createElement('script'); script.onload = () => note('script', 'loaded');
script.onerror = () => note('script', 'failed'); script.src = ${JSON.stringify(at('script'))}; document.head.append(script);
fetch(${JSON.stringify(at('fetch'))}, { mode: 'no-cors' }).then(() => note('fetch', 'loaded'), (e) => note('fetch', e.name));
const xhr = new XMLHttpRequest(); xhr.open('GET', ${JSON.stringify(at('xhr'))});
xhr.onload = () => note('xhr', 'loaded'); xhr.onerror = () => note('xhr', 'failed'); xhr.send();
const ws = new WebSocket(${JSON.stringify(wsUrl)}); ws.onopen = () => note('websocket', 'loaded');
ws.onerror = () => note('websocket', 'failed');
const es = new EventSource(${JSON.stringify(at('eventsource'))}); es.onopen = () => note('eventsource', 'loaded');
es.onerror = () => { note('eventsource', 'failed'); es.close(); };
note('beacon', navigator.sendBeacon(${JSON.stringify(at('beacon'))}, 'leak') ? 'queued' : 'refused');
const worker = new Worker('/sec/sub-worker.js?to=' + encodeURIComponent(${JSON.stringify(at('worker-fetch'))}));
worker.onmessage = (event) => note('worker-fetch', event.data);
const frame = document.createElement('iframe'); frame.onload = () => note('iframe', 'loaded');
frame.src = ${JSON.stringify(at('iframe'))}; document.body.append(frame);
const check = setInterval(() => {
  if (kinds.every((kind) => kind === 'iframe' || kind in window.outcomes)) { window.settled = true; clearInterval(check); }
}, 20);`;
}

/**
 * `/sec/subresources.html?to=<origin>&c=<tag>`: a page that sends every subresource kind to `to`; its
 * dedicated worker (`/sec/sub-worker.js`, same origin as the page) fetches on its own. `/sub/*` answers
 * each kind (an image, a script, text, an event stream) wherever the policy lets it through.
 */
export function addSubresourcePages(server: FixtureServer): void {
  server.route('/sec/subresources.html', (_req, res, url) => {
    const to = url.searchParams.get('to') ?? '';
    const tag = url.searchParams.get('c') ?? '0';
    send(
      res,
      'text/html',
      `<!doctype html><html><head><meta charset="utf-8"><title>subresources</title></head><body><h1>subresources</h1><script>${subresourceScript(to, tag)}</script></body></html>`,
    );
  });
  server.route('/sec/sub-worker.js', (_req, res, url) => {
    const to = url.searchParams.get('to') ?? '';
    send(
      res,
      'text/javascript',
      `fetch(${JSON.stringify(to)}, { mode: 'no-cors' }).then(() => postMessage('loaded'), (e) => postMessage(e.name));`,
    );
  });
  for (const kind of SUBRESOURCE_KINDS) {
    server.route(`/sub/${kind}`, (_req, res) => {
      if (kind === 'img') {
        // A 1x1 GIF.
        res.writeHead(200, { 'content-type': 'image/gif', 'cache-control': 'no-store' });
        res.end(Buffer.from('R0lGODlhAQABAIAAAAAAAP///yH5BAEAAAAALAAAAAABAAEAAAIBRAA7', 'base64'));
      } else if (kind === 'eventsource') {
        res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-store' });
        res.end('data: hello\n\n');
      } else {
        send(res, kind === 'script' ? 'text/javascript' : 'text/html', kind === 'script' ? '/* ok */' : 'ok');
      }
    });
  }
}
