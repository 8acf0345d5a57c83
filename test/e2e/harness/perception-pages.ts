import type { IncomingMessage, ServerResponse } from 'node:http';
import type { FixtureServer } from './fixture-server';

function page(title: string, body: string, head = ''): string {
  return `<!doctype html><html><head><meta charset="utf-8"><title>${title}</title>${head}</head><body>${body}</body></html>`;
}

function send(res: ServerResponse, html: string): void {
  res.writeHead(200, { 'content-type': 'text/html; charset=utf-8', 'cache-control': 'no-store' });
  res.end(html);
}

type Route = (req: IncomingMessage, res: ServerResponse, url: URL) => void;

/** Pages for the perception contract: what a state must show, and what it must leave out. */
export function addPerceptionPages(server: FixtureServer): void {
  const routes: Record<string, Route> = {
    '/p/visibility.html': (_req, res) =>
      send(
        res,
        page(
          'Visibility',
          `<h1>Visible heading</h1>
<button id="shown">Shown button</button>
<button id="gone" style="display:none">Display none button</button>
<button id="invisible" style="visibility:hidden">Visibility hidden button</button>
<button id="transparent" style="opacity:0">Opacity zero button</button>
<div style="display:none"><button id="in-hidden">Inside hidden parent</button></div>
<input type="hidden" name="token" value="secret-token">
<button id="far" style="position:absolute;top:9000px">Far below button</button>
<label for="email">Email address</label><input id="email" type="email" value="a@b.test">
<input id="pw" type="password" value="hunter2">
<label><input type="checkbox" id="agree" checked> I agree</label>
<label>Size <select id="size"><option>Small</option><option selected>Medium</option><option>Large</option></select></label>
<label>Comment <textarea id="comment">draft text</textarea></label>
<a id="docs" href="/docs/start?x=1">Read the docs</a>
<textarea id="notes">typed notes</textarea>`,
        ),
      ),
    '/p/extract.html': (_req, res) =>
      send(
        res,
        page(
          'Extract',
          `<h1>Plans</h1>
<p><span>Action 1: haven</span>
<span>Action 2: jetty</span></p>
<table><caption>Storage per plan</caption><tr><td>Basic</td><td><a href="/plans/basic">Details</a> and <code>5 GB</code></td></tr>
<tr><td>Pro | Team</td><td><strong>50 GB</strong></td></tr></table>`,
        ),
      ),
    '/p/list.html': (_req, res) =>
      send(
        res,
        page(
          'Long list',
          `<h1>Items</h1><ul>${Array.from({ length: 300 }, (_, i) => `<li><a href="/item/${i + 1}">Item number ${i + 1}</a></li>`).join('')}</ul>`,
        ),
      ),
    '/p/scroll.html': (_req, res) =>
      send(
        res,
        page(
          'Scroll containers',
          `<div id="outer" style="height:200px;overflow:auto;border:1px solid">
  <p>Outer top</p>
  <div id="inner" style="height:100px;overflow:auto;border:1px solid">${Array.from({ length: 30 }, (_, i) => `<p>Inner line ${i + 1}</p>`).join('')}</div>
  ${Array.from({ length: 30 }, (_, i) => `<p>Outer line ${i + 1}</p>`).join('')}
</div>
<div id="wide" style="width:300px;overflow-x:auto;white-space:nowrap;border:1px solid"><span style="display:inline-block;width:1500px">A very wide row</span></div>`,
        ),
      ),
    '/p/far-hidden.html': (_req, res) =>
      send(
        res,
        page(
          'Hidden content far below',
          `<h1>Near the top</h1><a href="/near">Near link</a>
<div style="height:6000px"></div>
<section>
  <a href="/far/1">Far link 1</a> <a href="/far/2">Far link 2</a>
  <details><summary>Far details</summary><p><a href="/in-details/1">Link in closed details</a></p><a href="/in-details/2">Bare link in closed details</a></details>
  <div hidden="until-found"><p><a href="/until-found">Link until found</a></p></div>
  <div style="display:none"><p><a href="/gone">Link in display none</a></p></div>
</section>`,
        ),
      ),
    '/p/scroll-controls.html': (_req, res) =>
      send(
        res,
        page(
          'Controls in a scroll box',
          `<div id="rows" style="height:120px;overflow:auto;border:1px solid">
  ${Array.from({ length: 20 }, (_, i) => `<button style="display:block;height:30px">Row button ${i + 1}</button>`).join('')}
  <button style="position:fixed;top:320px;left:20px">Escaped menu item</button>
</div>
<p style="height:600px">Below the box</p>`,
        ),
      ),
    '/p/frames.html': (_req, res) =>
      send(
        res,
        page(
          'Frames',
          `<h1>Frames page</h1>
<iframe id="same" src="/p/frame-child.html?who=same" width="400" height="150"></iframe>
<iframe id="cross" src="http://127.0.0.1:${server.port}/p/frame-child.html?who=cross" width="400" height="150"></iframe>`,
        ),
      ),
    '/p/frame-child.html': (_req, res, url) => {
      const who = url.searchParams.get('who') ?? 'child';
      send(
        res,
        page(`Child ${who}`, `<p>Frame text ${who}</p><button id="btn-${who}">Button in ${who} frame</button>`),
      );
    },
    '/p/shadow.html': (_req, res) =>
      send(
        res,
        page(
          'Shadow',
          `<h1>Shadow page</h1>
<open-widget><template shadowrootmode="open"><p>Open shadow text</p><button>Open shadow button</button></template></open-widget>
<closed-widget></closed-widget>
<div id="closed-div"></div>
<slotted-card><template shadowrootmode="open"><p>Card header</p><div role="group" aria-label="Card body"><slot></slot></div><slot name="none">Card fallback</slot><p>Card footer</p></template><button>Slotted button</button></slotted-card>
<div style="display:contents"><button>Button in a contents wrapper</button></div>
<script>
  customElements.define('closed-widget', class extends HTMLElement {
    constructor() {
      super();
      const root = this.attachShadow({ mode: 'closed' });
      root.innerHTML = '<p>Closed shadow text</p><button>Closed shadow button</button><nested-closed></nested-closed>';
    }
  });
  customElements.define('nested-closed', class extends HTMLElement {
    constructor() {
      super();
      this.attachShadow({ mode: 'closed' }).innerHTML = '<button>Nested closed button</button>';
    }
  });
  document.getElementById('closed-div').attachShadow({ mode: 'closed' }).innerHTML = '<a href="/closed-link">Link in a closed div root</a>';
</script>`,
        ),
      ),
    '/p/disabled.html': (_req, res) =>
      send(
        res,
        page(
          'Disabled',
          `<form><button disabled>Disabled submit</button>
<fieldset disabled><input placeholder="Inside a disabled fieldset"></fieldset>
<a href="/x" aria-disabled="true">Disabled link</a>
<button type="button">Enabled button</button></form>`,
        ),
      ),
    '/p/custom-controls.html': (_req, res) =>
      send(
        res,
        page(
          'Custom controls',
          `<style>.sr-only{position:absolute;width:1px;height:1px;overflow:hidden;clip:rect(0,0,0,0)}</style>
<label><input type="checkbox" id="news" style="opacity:0;position:absolute"><span>☐</span> Send me news</label>
<input type="checkbox" id="terms" hidden><label for="terms">I accept the terms</label>
<label><input type="radio" name="plan" id="plan-pro" class="sr-only"> Pro plan</label>
<label for="plain">Plain box</label><input type="checkbox" id="plain">
<p id="out"></p>
<script>
  const report = () => { document.getElementById('out').textContent = ['news', 'terms', 'plan-pro'].map((id) => id + '=' + document.getElementById(id).checked).join(' '); };
  document.addEventListener('change', report); report();
</script>`,
        ),
      ),
    '/p/inert.html': (_req, res) =>
      send(
        res,
        page(
          'Inert',
          `<div inert><p>Inert text</p><button>Inert button</button><a href="/x">Inert link</a></div>
<button>Live button</button>`,
        ),
      ),
    '/p/modal.html': (_req, res) =>
      send(
        res,
        page(
          'Modal',
          `<button>Button behind the modal</button>
<button style="position:absolute;top:2400px">Button far below the modal</button>
<dialog id="modal"><p>Modal text</p><button>Modal button</button></dialog>
<script>document.getElementById('modal').showModal();</script>`,
        ),
      ),
    '/p/overlay.html': (_req, res) =>
      send(
        res,
        page(
          'Overlay',
          `<button id="covered" style="position:absolute;left:20px;top:20px;width:160px;height:40px">Covered button</button>
<div id="glass" style="position:absolute;left:0;top:0;width:400px;height:100px;background:transparent"></div>
<button id="free" style="position:absolute;left:20px;top:200px">Free button</button>`,
        ),
      ),
    // The late button comes when the test calls addLateButton(), so a slow first state cannot see it.
    '/p/dynamic.html': (_req, res) =>
      send(
        res,
        page(
          'Dynamic',
          `<button id="first">First button</button><button id="second">Second button</button>`,
          `<script>function addLateButton() { const b = document.createElement('button'); b.textContent = 'Late button'; document.body.prepend(b); }</script>`,
        ),
      ),
    '/p/menu.html': (_req, res) =>
      send(
        res,
        page(
          'Menu',
          `<button id="open" onclick="document.getElementById('menu').hidden = false">Open menu</button>` +
            `<button id="idle">Do nothing</button><input id="query" value="start">` +
            `<ul id="menu" hidden><li><button onclick="pick(this)">Alpha item</button></li>` +
            `<li><button onclick="pick(this)">Beta item</button></li><li><button onclick="pick(this)">Gamma item</button></li></ul>` +
            `<p id="picked">none picked</p>`,
          `<script>function pick(item) { document.getElementById('menu').hidden = true; document.getElementById('picked').textContent = item.textContent + ' picked'; }</script>`,
        ),
      ),
    '/p/busy.html': (_req, res) =>
      send(
        res,
        page(
          'Busy',
          '<p>busy page</p>',
          `<script>addEventListener('load', () => setTimeout(() => { const end = Date.now() + 4000; while (Date.now() < end) {} }, 100));</script>`,
        ),
      ),
  };
  for (const [path, handler] of Object.entries(routes)) {
    server.route(path, (req, res, url) => handler(req, res, url));
  }
}
