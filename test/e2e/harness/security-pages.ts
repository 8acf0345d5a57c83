import type { ServerResponse } from 'node:http';
import type { FixtureServer } from './fixture-server';

function html(body: string, head = ''): string {
  return `<!doctype html><html><head><meta charset="utf-8"><title>security</title>${head}</head><body>${body}</body></html>`;
}

function send(res: ServerResponse, body: string): void {
  res.writeHead(200, { 'content-type': 'text/html; charset=utf-8', 'cache-control': 'no-store' });
  res.end(body);
}

const attribute = (value: string): string => value.replace(/&/g, '&amp;').replace(/"/g, '&quot;');

/**
 * Pages that try to leave for `?to=URL` by each road a page has: a link (optionally target=_blank), a
 * script, a meta refresh, a form post, a frame, a redirect; and an empty page to start from.
 */
export function addSecurityPages(server: FixtureServer): void {
  const to = (url: URL): string => url.searchParams.get('to') ?? '/a.html';
  server.route('/sec/empty.html', (_req, res) => send(res, html('<h1>empty</h1>')));
  server.route('/sec/link.html', (_req, res, url) => {
    const target = url.searchParams.get('target');
    send(
      res,
      html(
        `<a id="go" href="${attribute(to(url))}"${target === null ? '' : ` target="${attribute(target)}"`} style="display:block;width:300px;height:60px">go</a>`,
      ),
    );
  });
  server.route('/sec/script.html', (_req, res, url) =>
    send(res, html(`<script>setTimeout(() => { location.href = ${JSON.stringify(to(url))}; }, 50);</script>`)),
  );
  server.route('/sec/meta.html', (_req, res, url) =>
    send(res, html('<p>refreshing</p>', `<meta http-equiv="refresh" content="0;url=${attribute(to(url))}">`)),
  );
  server.route('/sec/form.html', (_req, res, url) =>
    send(
      res,
      html(
        `<form id="f" method="post" action="${attribute(to(url))}"><input name="secret" value="s3cret"></form><script>document.getElementById('f').submit();</script>`,
      ),
    ),
  );
  server.route('/sec/frame.html', (_req, res, url) =>
    send(res, html(`<h1>framed</h1><iframe id="inner" src="${attribute(to(url))}" width="400" height="200"></iframe>`)),
  );
  server.route('/sec/open.html', (_req, res, url) =>
    send(
      res,
      html(`<script>addEventListener('load', () => window.open(${JSON.stringify(to(url))}, '_blank'));</script>`),
    ),
  );
  server.route('/sec/redirect', (_req, res, url) => {
    res.writeHead(302, { location: to(url), 'cache-control': 'no-store' });
    res.end();
  });
}
