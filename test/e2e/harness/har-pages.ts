import type { IncomingMessage, ServerResponse } from 'node:http';
import type { FixtureServer } from './fixture-server';

/** What the HAR page's script sends, so tests can look for it in the recording. */
export const HAR_POST_BODY = JSON.stringify({ hello: 'world', n: 42 });
/** The page builds it from parts, so its script's text does not hold it. */
export const HAR_AUTHORIZATION = 'Bearer top-secret-token';
export const HAR_COOKIE_VALUE = 'cookie-secret-value';
export const HAR_READY_TITLE = 'HAR ready';

function send(
  res: ServerResponse,
  status: number,
  type: string,
  body: string | Buffer,
  headers: Record<string, string> = {},
): void {
  res.writeHead(status, { 'content-type': type, 'cache-control': 'no-store', ...headers });
  res.end(body);
}

function readBody(req: IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    let body = '';
    req.on('data', (chunk: Buffer) => (body += chunk.toString()));
    req.on('end', () => resolve(body));
    req.on('error', reject);
  });
}

/** A 1x1 PNG. */
const PIXEL = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8DwHwAFBQIAX8jx0gAAAABJRU5ErkJggg==',
  'base64',
);

/**
 * A page whose traffic covers what a HAR must hold: a document that sets a cookie, a stylesheet, a
 * script, an image, a redirect (302 to JSON), a POST with a JSON body and an Authorization header, and a
 * request that fails (a closed port). The script writes what it fetched into the page, so a replay that
 * serves the recorded bodies shows the same text.
 */
export function addHarPages(server: FixtureServer): void {
  server.route('/har/index.html', (_req, res) =>
    send(
      res,
      200,
      'text/html; charset=utf-8',
      `<!doctype html><html><head><meta charset="utf-8"><title>HAR page</title><link rel="stylesheet" href="/har/style.css"></head>
<body><h1>Recorded</h1><p id="out">waiting</p><p id="posted">not posted</p><img src="/har/pixel.png" alt="pixel"><script src="/har/app.js"></script></body></html>`,
      { 'set-cookie': `session=${HAR_COOKIE_VALUE}; Path=/; HttpOnly` },
    ),
  );
  server.route('/har/style.css', (_req, res) => send(res, 200, 'text/css', 'h1 { color: rgb(0, 128, 0); }'));
  server.route('/har/pixel.png', (_req, res) => send(res, 200, 'image/png', PIXEL));
  server.route('/har/app.js', (_req, res) =>
    send(
      res,
      200,
      'text/javascript',
      `(async () => {
  const data = await (await fetch('/har/redirect')).json();
  document.getElementById('out').textContent = data.message;
  const posted = await (await fetch('/har/submit', { method: 'POST', headers: { 'content-type': 'application/json', authorization: 'Bearer ' + ['top', 'secret', 'token'].join('-') }, body: ${JSON.stringify(HAR_POST_BODY)} })).json();
  document.getElementById('posted').textContent = 'posted ' + posted.received.n;
  await fetch('http://127.0.0.1:1/unreachable').catch(() => undefined);
  document.title = ${JSON.stringify(HAR_READY_TITLE)};
})();`,
    ),
  );
  server.route('/har/redirect', (_req, res) => {
    res.writeHead(302, { location: '/har/data.json', 'cache-control': 'no-store' });
    res.end();
  });
  server.route('/har/data.json', (_req, res) =>
    send(res, 200, 'application/json', JSON.stringify({ message: 'loaded from data.json' })),
  );
  server.route('/har/submit', (req, res) => {
    void readBody(req).then((body) =>
      send(res, 200, 'application/json', JSON.stringify({ received: JSON.parse(body) as unknown })),
    );
  });
}

/** The password the login page is signed in with, as `sensitive_data` holds it. */
export const LOGIN_SECRET = 'Hunter2-correct-horse';
export const LOGIN_DONE_TITLE = 'signed in';

/**
 * A login form where the password travels every way a HAR records: the form body (the password field
 * has focus, so typing fills it and Enter submits), the Set-Cookie of the answer and the Cookie of the
 * requests after, the query string of the redirect, a request header, and the text of the responses.
 */
export function addLoginPages(server: FixtureServer): void {
  server.route('/har/login.html', (_req, res) =>
    send(
      res,
      200,
      'text/html; charset=utf-8',
      '<!doctype html><title>sign in</title><form method="post" action="/har/login"><input type="hidden" name="user" value="ada"><input type="password" name="password" autofocus><button>Sign in</button></form>',
    ),
  );
  server.route('/har/login', (req, res) => {
    void readBody(req).then((body) => {
      const password = new URLSearchParams(body).get('password') ?? '';
      send(res, 302, 'text/plain', `signing in with ${password}`, {
        location: `/har/welcome?token=${encodeURIComponent(password)}`,
        'set-cookie': `auth=${encodeURIComponent(password)}; Path=/`,
      });
    });
  });
  server.route('/har/welcome', (req, res) => {
    const token = new URL(req.url ?? '/', 'http://x').searchParams.get('token') ?? '';
    send(
      res,
      200,
      'text/html; charset=utf-8',
      `<!doctype html><title>welcome</title><p id="token">${token}</p><script>
        fetch('/har/whoami', { headers: { 'x-password': document.getElementById('token').textContent } })
          .then((r) => r.text()).then(() => { document.title = ${JSON.stringify(LOGIN_DONE_TITLE)}; });
      </script>`,
    );
  });
  server.route('/har/whoami', (req, res) =>
    send(res, 200, 'application/json', JSON.stringify({ password: req.headers['x-password'] ?? null })),
  );
}
