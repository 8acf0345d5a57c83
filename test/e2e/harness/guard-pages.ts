import type { ServerResponse } from 'node:http';
import type { FixtureServer } from './fixture-server';

function page(title: string, body: string, head = ''): string {
  return `<!doctype html><html><head><meta charset="utf-8"><title>${title}</title>${head}</head><body>${body}</body></html>`;
}

function send(res: ServerResponse, html: string): void {
  res.writeHead(200, { 'content-type': 'text/html; charset=utf-8', 'cache-control': 'no-store' });
  res.end(html);
}

/** The secret the guard contract types; it must never come back out of the session. */
export const SECRET_MAIL = 'secret-mail@x.test';

/** Pages for the guard contract: a form that echoes what is typed, hidden text, a stuck page. */
export function addGuardPages(server: FixtureServer): void {
  // Echoes the typed value where pages do: a paragraph, an attribute, a link's query, the title.
  server.route('/g/echo.html', (_req, res) =>
    send(
      res,
      page(
        'Echo form',
        `<label for="em">Email</label><input id="em" type="email">
<p id="echo">Nothing typed yet</p>
<a id="share" href="/g/echo.html">Share</a>
<script>
  const em = document.getElementById('em');
  em.addEventListener('input', () => {
    document.getElementById('echo').textContent = 'You typed ' + em.value + ' just now';
    em.setAttribute('data-last', em.value);
    document.getElementById('share').href = '/g/echo.html?who=' + encodeURIComponent(em.value);
  });
</script>`,
      ),
    ),
  );
}
