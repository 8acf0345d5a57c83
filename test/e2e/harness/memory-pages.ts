import type { ServerResponse } from 'node:http';
import type { FixtureServer } from './fixture-server';

function send(res: ServerResponse, html: string): void {
  res.writeHead(200, { 'content-type': 'text/html; charset=utf-8', 'cache-control': 'no-store' });
  res.end(html);
}

/**
 * A page that changes under a long run: `renew()` replaces its buttons with new elements (so a registry
 * that kept every element ever indexed would grow), `replaceFrame(n)` swaps its cross-site iframe for a
 * new one (a new out-of-process frame, its old session gone).
 */
export function addMemoryPages(server: FixtureServer): void {
  server.route('/m/churn.html', (_req, res) => {
    const frame = server.crossUrl('/m/frame.html?n=0');
    send(
      res,
      `<!doctype html><html><head><meta charset="utf-8"><title>Churn</title></head><body>
<h1>Churn</h1>
<input id="name" placeholder="Name">
<div id="list"></div>
<div id="frames"><iframe id="frame" src="${frame}" width="300" height="120"></iframe></div>
<script>
  let round = 0;
  function renew() {
    round++;
    const list = document.getElementById('list');
    list.replaceChildren(...Array.from({ length: 20 }, (_, i) => {
      const button = document.createElement('button');
      button.textContent = 'Round ' + round + ' button ' + i;
      return button;
    }));
    return round;
  }
  function replaceFrame(n) {
    const next = document.createElement('iframe');
    next.id = 'frame';
    next.width = '300';
    next.height = '120';
    next.src = ${JSON.stringify(server.crossUrl('/m/frame.html?n='))} + n;
    document.getElementById('frame').replaceWith(next);
    return new Promise((resolve) => next.addEventListener('load', () => resolve(true), { once: true }));
  }
  renew();
</script></body></html>`,
    );
  });
  server.route('/m/frame.html', (_req, res, url) => {
    send(
      res,
      `<!doctype html><html><head><meta charset="utf-8"><title>Frame</title></head><body>
<button>Frame ${url.searchParams.get('n') ?? ''} button</button><a href="#x">Frame link</a></body></html>`,
    );
  });
}
