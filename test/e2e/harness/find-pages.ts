import type { ServerResponse } from 'node:http';
import type { FixtureServer } from './fixture-server';

function send(res: ServerResponse, title: string, body: string): void {
  res.writeHead(200, { 'content-type': 'text/html; charset=utf-8', 'cache-control': 'no-store' });
  res.end(`<!doctype html><html><head><meta charset="utf-8"><title>${title}</title></head><body>${body}</body></html>`);
}

/**
 * The page `find` searches: "zephyr" in the text at the top, in a button, in a same-origin and a
 * cross-site iframe, far below the fold, and where no person sees it (hidden three ways, a password).
 */
export function addFindPages(server: FixtureServer): void {
  server.route('/find/page.html', (_req, res) =>
    send(
      res,
      'Find',
      `<p>Zephyr at the top of the page</p>
<button id="add" onclick="document.getElementById('count').textContent = 'added ' + (++window.added)">Add a <b>zephyr</b></button>
<span id="count">added 0</span><script>window.added = 0;</script>
<p style="display:none">zephyr display none</p>
<p style="visibility:hidden">zephyr visibility hidden</p>
<p aria-hidden="true">zephyr aria hidden</p>
<input type="password" value="zephyr-password">
<iframe src="/find/child.html?who=same" width="400" height="80"></iframe>
<iframe src="${server.crossUrl('/find/child.html?who=cross')}" width="400" height="80"></iframe>
<div style="height:4000px"></div>
<p id="deep">The deep zephyr lies here</p>`,
    ),
  );
  server.route('/find/box.html', (_req, res) =>
    send(
      res,
      'Find in a box',
      `<div id="box" style="height:60px;overflow:auto;border:1px solid">${'<div>line</div>'.repeat(10)}<div>zephyr in a scrolled box</div></div>`,
    ),
  );
  server.route('/find/child.html', (_req, res, url) => {
    const who = url.searchParams.get('who') ?? 'child';
    send(
      res,
      `Child ${who}`,
      `<p>zephyr in ${who} frame</p><button onclick="this.textContent = 'Pressed in ${who}'">Press in ${who}</button>`,
    );
  });
}
