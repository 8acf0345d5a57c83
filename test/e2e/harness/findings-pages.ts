import type { ServerResponse } from 'node:http';
import type { FixtureServer } from './fixture-server';

/**
 * Pages built like the pages written by others where tabpilot fell short: a form inside a same-origin
 * iframe, items that are only `draggable`, a keypad of one-character buttons, a link in a shadow root
 * whose text is slotted, menus that open on hover over what the pointer aims at, and a slider. Each
 * reports what happened to it in its own visible text, read back through a later `state`.
 */

function page(title: string, body: string, script = ''): string {
  return `<!doctype html><html><head><meta charset="utf-8"><title>${title}</title></head><body>${body}${
    script === '' ? '' : `<script>${script}</script>`
  }</body></html>`;
}

function send(res: ServerResponse, html: string): void {
  res.writeHead(200, { 'content-type': 'text/html; charset=utf-8', 'cache-control': 'no-store' });
  res.end(html);
}

/** The inner document of the same-origin frame: a text field, a button, a checkbox and a file input. */
const FRAME_INNER = page(
  'Inner form',
  `<label for="q">Query</label><input id="q">
<button id="go">Go</button><p id="out">go clicks: 0</p>
<label><input type="checkbox" id="keep"> Keep me signed in</label>
<label for="doc">Document</label><input type="file" id="doc"><p id="files">files: none</p>
<p>Inner text marker</p>`,
  `let clicks = 0;
document.getElementById('go').addEventListener('click', (e) => { if (e.isTrusted) clicks++; document.getElementById('out').textContent = 'go clicks: ' + clicks + ', query: ' + document.getElementById('q').value; });
document.getElementById('doc').addEventListener('change', async (e) => {
  const file = e.target.files[0];
  document.getElementById('files').textContent = 'files: ' + file.name + ' says ' + (await file.text());
});`,
);

const FRAME_OUTER = page(
  'Same-origin frame',
  `<h1>Outer page</h1><iframe id="inner" src="/find/frame-inner.html" width="600" height="300"></iframe>`,
);

/** A list sorted by HTML5 drag and drop: every item is only `draggable` (no role, no handler attribute). */
const SORTABLE = page(
  'Sortable',
  `<p id="order">order: Alpha, Beta, Gamma</p>
<div id="list" style="width:200px">
<div draggable="true" style="padding:12px;margin:4px;background:#def">Alpha</div>
<div draggable="true" style="padding:12px;margin:4px;background:#def">Beta</div>
<div draggable="true" style="padding:12px;margin:4px;background:#def">Gamma</div>
</div>`,
  `const list = document.getElementById('list');
let dragged = null;
const show = () => { document.getElementById('order').textContent = 'order: ' + Array.from(list.children, (item) => item.textContent).join(', '); };
for (const item of list.children) {
  item.addEventListener('dragstart', (e) => { dragged = item; e.dataTransfer.setData('text/plain', item.textContent); });
  item.addEventListener('dragover', (e) => e.preventDefault());
  item.addEventListener('drop', (e) => { e.preventDefault(); if (dragged !== null && dragged !== item) { item.after(dragged); show(); } });
}`,
);

/** A calculator keypad and a dialog's close button: every control's whole text is one character. */
const KEYPAD = page(
  'Keypad',
  `<output id="display">display: empty</output>
<div id="keys">
<button>7</button><button>8</button><button>9</button><button>+</button>
<span class="key" style="cursor:pointer;display:inline-block;padding:8px">0</span>
<button>=</button>
</div>
<div id="dialog">Newsletter <button id="close">×</button></div>
<p id="closed">dialog: open</p>`,
  `let typed = '';
const show = (text) => { document.getElementById('display').textContent = 'display: ' + text; };
for (const key of document.querySelectorAll('#keys button, #keys .key')) {
  key.addEventListener('click', () => {
    if (key.textContent === '=') { show(typed + '=' + typed.split('+').reduce((sum, n) => sum + Number(n), 0)); typed = ''; return; }
    typed += key.textContent; show(typed);
  });
}
document.getElementById('close').addEventListener('click', () => { document.getElementById('closed').textContent = 'dialog: closed'; });`,
);

/** A design-system link: a custom element whose shadow root holds the <a>, its text slotted from the light DOM. */
const SHADOW_LINK = page(
  'Shadow link',
  `<p>Links below</p><nav-link href="/a.html">Read the guide</nav-link>`,
  `customElements.define('nav-link', class extends HTMLElement {
  connectedCallback() {
    const root = this.attachShadow({ mode: 'open' });
    const link = document.createElement('a');
    link.href = this.getAttribute('href');
    link.append(document.createElement('slot'));
    root.append(link);
  }
});`,
);

/** Counts trusted clicks per `data-count` element in #out. */
const CLICK_COUNTER = `const counts = {};
const show = () => { document.getElementById('out').textContent = 'clicks: ' + Object.entries(counts).map(([id, n]) => id + ' ' + n).join(', '); };
for (const element of document.querySelectorAll('[data-count]')) {
  counts[element.id] = 0;
  element.addEventListener('click', (e) => { if (e.isTrusted) { counts[element.id]++; show(); } });
}
show();`;

/**
 * A menu that opens when the pointer comes over the button, a moment later (a timer, as hover menus do),
 * over the button itself: the press reaches the button, the release and the click land on the menu.
 */
function hoverMenu(delay: 'timeout' | 'frame'): string {
  const later = delay === 'timeout' ? 'setTimeout(open, 0)' : 'requestAnimationFrame(open)';
  return page(
    'Hover menu',
    `<p id="out"></p><p id="presses">presses: none</p>
<button id="buy" data-count style="margin:40px;width:200px;height:60px">Buy now</button>
<div id="menu" data-count hidden style="position:fixed;inset:0;background:rgba(0,0,0,.3);z-index:5">Menu: Sale items</div>`,
    `${CLICK_COUNTER}
const menu = document.getElementById('menu');
const open = () => { menu.hidden = false; };
document.getElementById('buy').addEventListener('mouseover', (e) => { if (e.isTrusted) ${later}; });
document.getElementById('buy').addEventListener('mousedown', (e) => { document.getElementById('presses').textContent = 'presses: buy'; });`,
  );
}

/** A promotion in a same-origin iframe that opens over the page when the pointer comes over the button. */
const HOVER_FRAME_PROMO = page(
  'Hover promotion frame',
  `<p id="out"></p>
<button id="buy" data-count style="margin:40px;width:200px;height:60px">Buy now</button>
<iframe id="promo" hidden src="/find/promo-inner.html" style="position:fixed;inset:0;width:100%;height:100%;border:0;z-index:5"></iframe>`,
  `${CLICK_COUNTER}
document.getElementById('buy').addEventListener('mouseover', (e) => { if (e.isTrusted) document.getElementById('promo').hidden = false; });`,
);

const PROMO_INNER = page(
  'Promotion',
  `<div id="sale" style="position:fixed;inset:0;background:rgba(0,0,0,.3)">Sale: everything must go</div>`,
  `let presses = 0;
document.addEventListener('mousedown', () => { presses++; parent.document.title = 'promo presses: ' + presses; });`,
);

/** A slider that follows the mouse with the button held (pointer events, no native drag). */
const SLIDER = page(
  'Slider',
  `<p id="value">slider: 0</p>
<div id="track" role="slider" aria-label="Volume" aria-valuenow="0" style="position:relative;margin:40px;width:400px;height:24px;background:#ccc">
<div id="thumb" style="position:absolute;left:0;top:0;width:24px;height:24px;background:#36c"></div></div>`,
  `const track = document.getElementById('track');
let held = false;
const set = (e) => {
  const box = track.getBoundingClientRect();
  const value = Math.round(Math.min(1, Math.max(0, (e.clientX - box.left) / box.width)) * 100);
  track.setAttribute('aria-valuenow', String(value));
  document.getElementById('thumb').style.left = (value * 3.76) + 'px';
  document.getElementById('value').textContent = 'slider: ' + value;
};
track.addEventListener('pointerdown', (e) => { held = true; set(e); });
window.addEventListener('pointermove', (e) => { if (held) set(e); });
window.addEventListener('pointerup', () => { held = false; });`,
);

export function addFindingsPages(server: FixtureServer): void {
  const routes: Record<string, string> = {
    '/find/frame.html': FRAME_OUTER,
    '/find/frame-inner.html': FRAME_INNER,
    '/find/sortable.html': SORTABLE,
    '/find/keypad.html': KEYPAD,
    '/find/shadow-link.html': SHADOW_LINK,
    '/find/hover-timeout.html': hoverMenu('timeout'),
    '/find/hover-frame.html': hoverMenu('frame'),
    '/find/slider.html': SLIDER,
    '/find/hover-promo-frame.html': HOVER_FRAME_PROMO,
    '/find/promo-inner.html': PROMO_INNER,
  };
  for (const [path, html] of Object.entries(routes)) {
    server.route(path, (_req, res) => send(res, html));
  }
}
