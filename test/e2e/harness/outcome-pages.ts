import type { ServerResponse } from 'node:http';
import { SLOW_SERVER_MS } from './download-pages';
import type { FixtureServer } from './fixture-server';

function send(res: ServerResponse, title: string, body: string): void {
  res.writeHead(200, { 'content-type': 'text/html; charset=utf-8', 'cache-control': 'no-store' });
  res.end(`<!doctype html><html><head><meta charset="utf-8"><title>${title}</title></head><body>${body}</body></html>`);
}

/**
 * What an action's outcome is tested on: a menu a click opens, a button that does nothing (beside a
 * spinner animated by inline style), one a late
 * overlay covers, one whose handler throws, one whose request answers 500, one another disables, one another hides, a panel a click removes, an alert, a download, a field, and
 * links to another page, in this tab and a new one.
 */
export function addOutcomePages(server: FixtureServer): void {
  server.route('/outcome/page.html', (_req, res) =>
    send(
      res,
      'Outcome',
      `<button id="menu">Open menu</button>
<div id="items" hidden><button>Rename</button><button>Delete</button></div>
<button id="noop">Nothing</button>
<div id="spinner" style="width:10px;height:10px;background:#888"></div>
<button id="late">Late</button>
<div id="overlay" hidden style="position:fixed;inset:0;background:rgba(0,0,0,.3);z-index:5">Our newsletter</div>
<button id="broken">Broken</button>
<button id="save">Save</button>
<p id="status"></p>
<button id="lock">Lock</button><button id="send">Send</button>
<label for="name">Name</label><input id="name">
<a href="/outcome/next.html">Next page</a>
<a href="/outcome/next.html" target="_blank">Next in a new tab</a>
<a href="/outcome/notes.txt" download="notes.txt">Get the notes</a>
<a id="kept" href="/outcome/kept.txt" download="kept.txt">Kept notes</a>
<button id="focus-notes">Focus the notes</button><button id="focus-kept">Focus the kept notes</button>
<button id="alert">Say hello</button>
<div id="panel"><button id="dismiss">Dismiss</button><span>Panel text</span></div>
<button id="fold">Fold</button><button id="folded">Folded</button>
<script>
// An animation by inline style, every 16 ms: the page is never without a change, yet settles.
let turn = 0;
setInterval(() => { document.getElementById('spinner').style.transform = 'rotate(' + (turn += 6) + 'deg)'; }, 16);
document.getElementById('menu').addEventListener('click', () => { document.getElementById('items').hidden = false; });
document.getElementById('late').addEventListener('mouseover', (e) => { if (e.isTrusted) document.getElementById('overlay').hidden = false; });
document.getElementById('lock').addEventListener('click', () => { document.getElementById('send').disabled = true; });
document.getElementById('alert').addEventListener('click', () => { alert('Hello there'); });
document.getElementById('dismiss').addEventListener('click', () => { document.getElementById('panel').remove(); });
document.getElementById('fold').addEventListener('click', () => { document.getElementById('folded').style.display = 'none'; });
// Two download links reached by the keyboard: Enter on the first downloads, the second's click is prevented.
document.getElementById('focus-notes').addEventListener('click', () => { document.querySelector('a[download="notes.txt"]').focus(); });
document.getElementById('focus-kept').addEventListener('click', () => { document.getElementById('kept').focus(); });
document.getElementById('kept').addEventListener('click', (event) => { event.preventDefault(); });
document.getElementById('broken').addEventListener('click', () => { window.missing.call(); });
document.getElementById('save').addEventListener('click', async () => {
  const answer = await fetch('/outcome/api', { method: 'POST', body: 'x' });
  document.getElementById('status').textContent = 'Save failed: ' + answer.status;
});
</script>`,
    ),
  );
  server.route('/outcome/api', (_req, res) => {
    res.writeHead(500, { 'content-type': 'text/plain' });
    res.end('no');
  });
  // Slower than the outcome's settling: the download begins only when the server answers.
  server.route('/outcome/notes.txt', (_req, res) => {
    setTimeout(() => {
      res.writeHead(200, { 'content-type': 'text/plain' });
      res.end('notes');
    }, SLOW_SERVER_MS);
  });
  server.route('/outcome/next.html', (_req, res) => send(res, 'Next', '<h1>The next page</h1>'));
}
