import type { IncomingMessage, ServerResponse } from 'node:http';
import type { FixtureServer } from './fixture-server';

/**
 * Pages for the actions contract. Every page reports what happened to it in its own visible text
 * (counters, echoes, visibility and focus at the moment of the event), so tests read results through a
 * later `state`, never through a second automation client. Form posts are recorded by the server.
 */

function page(title: string, body: string, script = '', head = ''): string {
  return `<!doctype html><html><head><meta charset="utf-8"><title>${title}</title>${head}</head><body>${body}${
    script === '' ? '' : `<script>${script}</script>`
  }</body></html>`;
}

function send(res: ServerResponse, html: string): void {
  res.writeHead(200, { 'content-type': 'text/html; charset=utf-8', 'cache-control': 'no-store' });
  res.end(html);
}

/** What the page can tell about itself when an event reaches it. */
const MOMENT = `const moment = () => 'visibility: ' + document.visibilityState + ', focus: ' + document.hasFocus();`;

const BUTTONS = page(
  'Buttons',
  `<h1>Buttons</h1>
<button id="inc">Add one</button>
<p id="count">clicks: 0</p>
<button id="which">Which button</button>
<p id="which-out">last button: none</p>
<button id="dbl">Double click me</button>
<p id="dbl-out">double clicks: 0</p>
<label><input type="checkbox" id="agree"> I agree</label>
<input type="radio" name="size" id="small" value="small"><label for="small">Small</label>
<input type="radio" name="size" id="large" value="large"><label for="large">Large</label>
<p><a id="open-link" href="/c.html" target="_blank">Open C in a new tab</a></p>
<button id="open-popup">Open B in a popup</button>
<button id="show-banner">Show cookie banner</button>
<div style="margin-top:20px"><button id="buy">Buy now</button></div>
<p id="buy-out">buy clicks: 0</p>
<p id="banner-out">banner clicks: 0</p>
<div id="cookie-banner" hidden style="position:fixed;inset:0;background:rgba(0,0,0,.35)">We use cookies</div>
<div id="tiny" style="width:0;height:0;overflow:hidden" onclick="document.getElementById('tiny-out').textContent='tiny clicks: 1'"></div>
<p id="tiny-out">tiny clicks: 0</p>`,
  `${MOMENT}
let clicks = 0, buys = 0, banner = 0, doubles = 0;
const $ = (id) => document.getElementById(id);
$('inc').addEventListener('click', (e) => { if (e.isTrusted) clicks++; $('count').textContent = 'clicks: ' + clicks + ' (' + moment() + ')'; });
$('which').addEventListener('mousedown', (e) => { $('which-out').textContent = 'last button: ' + e.button; });
$('which').addEventListener('contextmenu', (e) => e.preventDefault());
$('dbl').addEventListener('dblclick', () => { doubles++; $('dbl-out').textContent = 'double clicks: ' + doubles; });
$('open-popup').addEventListener('click', () => window.open('/b.html', '_blank'));
$('show-banner').addEventListener('click', () => { $('cookie-banner').hidden = false; });
$('buy').addEventListener('click', () => { buys++; $('buy-out').textContent = 'buy clicks: ' + buys; });
$('cookie-banner').addEventListener('click', () => { banner++; $('banner-out').textContent = 'banner clicks: ' + banner; });`,
);

const FORM = page(
  'Form',
  `<form id="f" method="post" action="/act/submit">
<label for="name">Name</label><input id="name" name="name" value="Old name">
<label for="bio">Bio</label><textarea id="bio" name="bio"></textarea>
<label for="email">Email</label><input id="email" name="email" type="email">
<label for="pw">Password</label><input id="pw" name="pw" type="password">
<label for="when">Date</label><input id="when" name="when" type="date">
<label for="at">Time</label><input id="at" name="at" type="time">
<label for="colour">Colour</label><input id="colour" name="colour" type="color" value="#000000">
<label for="volume">Volume</label><input id="volume" name="volume" type="range" min="0" max="100">
<label for="ro">Fixed</label><input id="ro" readonly value="fixed">
<div id="editor" contenteditable="true" aria-label="Editor" style="border:1px solid;min-height:2em">Old <b>rich</b> text</div>
<p id="editor-out">editor says: Old rich text</p>
<p id="typed-out">typed: nothing</p>
<label for="keys">Key log</label><input id="keys" name="keys">
<p id="keylog">keys:</p>
<button type="submit" id="send">Send</button>
</form>`,
  `${MOMENT}
const $ = (id) => document.getElementById(id);
$('editor').addEventListener('input', () => { $('editor-out').textContent = 'editor says: ' + $('editor').innerText.trim(); });
$('name').addEventListener('input', () => { $('typed-out').textContent = 'typed: ' + $('name').value + ' (' + moment() + ')'; });
$('keys').addEventListener('keydown', (e) => {
  const mods = (e.ctrlKey ? 'Control+' : '') + (e.metaKey ? 'Meta+' : '') + (e.altKey ? 'Alt+' : '') + (e.shiftKey && e.key.length > 1 ? 'Shift+' : '');
  $('keylog').textContent += ' ' + mods + (e.key === ' ' ? 'Space' : e.key);
});
$('keys').addEventListener('keydown', (e) => { if (e.key === 'Enter') e.preventDefault(); });`,
);

/**
 * A controlled input the way React does it: the framework tracks the value it last wrote (an instance
 * setter), takes a change only from an input event whose value differs from that, and re-renders the
 * field from its state on every input, blur and click. Text that did not reach its state is wiped.
 */
const CONTROLLED = page(
  'Controlled',
  `<label for="controlled">Search</label><input id="controlled">
<p id="state-out"></p>
<label for="sticky">Sticky</label><input id="sticky" value="Old value">
<p id="sticky-out">sticky: Old value</p>
<button id="elsewhere">Somewhere else</button>`,
  `const input = document.getElementById('controlled');
const out = document.getElementById('state-out');
const native = Object.getOwnPropertyDescriptor(HTMLInputElement.prototype, 'value');
let tracked = '';
let state = 'React old';
Object.defineProperty(input, 'value', {
  configurable: true,
  get() { return native.get.call(this); },
  set(value) { tracked = String(value); native.set.call(this, value); },
});
const render = () => { input.value = state; out.textContent = 'state: ' + state; };
input.addEventListener('input', () => { const now = native.get.call(input); if (now !== tracked) state = now; render(); });
input.addEventListener('blur', render);
document.addEventListener('click', render);
render();
// A field that re-renders itself right after gaining focus: the caret lands at the end, so text typed
// over a selection is appended to the old value instead.
const sticky = document.getElementById('sticky');
let stickyState = sticky.value;
sticky.addEventListener('focus', () => queueMicrotask(() => { sticky.value = ''; sticky.value = stickyState; }));
sticky.addEventListener('input', () => { stickyState = sticky.value; document.getElementById('sticky-out').textContent = 'sticky: ' + stickyState; });`,
);

const SELECT = page(
  'Select',
  `<label for="fruit">Fruit</label>
<select id="fruit"><option value="">Pick one</option><option value="a">Apple</option><option value="b">Banana</option><option value="c" disabled>Cherry</option></select>
<p id="fruit-out">fruit: none</p>
<span id="colour-label">Colour</span>
<button id="colour-box" role="combobox" aria-labelledby="colour-label" aria-haspopup="listbox" aria-expanded="false" aria-controls="colour-list">Choose a colour</button>
<ul id="colour-list" role="listbox" hidden>
  <li role="option" data-value="red">Red</li><li role="option" data-value="green">Green</li><li role="option" data-value="blue">Blue</li>
</ul>
<p id="colour-out">colour: none</p>`,
  `const $ = (id) => document.getElementById(id);
// React-like: the state follows change events and every render writes it back.
let fruit = '';
const fruitSelect = $('fruit');
const renderFruit = () => { fruitSelect.value = fruit; $('fruit-out').textContent = 'fruit: ' + (fruit || 'none'); };
fruitSelect.addEventListener('change', () => { fruit = fruitSelect.value; renderFruit(); });
document.addEventListener('click', renderFruit);
const box = $('colour-box'), list = $('colour-list');
const open = (yes) => { list.hidden = !yes; box.setAttribute('aria-expanded', String(yes)); };
box.addEventListener('click', () => open(list.hidden));
box.addEventListener('keydown', (e) => { if (e.key === 'Escape') open(false); });
for (const item of list.querySelectorAll('[role=option]')) {
  item.addEventListener('click', () => {
    for (const other of list.querySelectorAll('[role=option]')) other.setAttribute('aria-selected', 'false');
    item.setAttribute('aria-selected', 'true');
    box.textContent = item.textContent;
    $('colour-out').textContent = 'colour: ' + item.dataset.value;
    open(false);
  });
}`,
);

const DIALOGS = page(
  'Dialogs',
  `<h1>Dialogs</h1>
<button id="alert">Save</button>
<button id="confirm">Delete everything</button>
<button id="prompt">Rename</button>
<p id="out">answers: none</p>`,
  `const $ = (id) => document.getElementById(id);
const report = (text) => { $('out').textContent = 'answers: ' + text; };
$('alert').addEventListener('click', () => report('alert returned ' + String(alert('Saved!'))));
$('confirm').addEventListener('click', () => report('confirm returned ' + confirm('Delete everything?')));
$('prompt').addEventListener('click', () => report('prompt returned ' + prompt('New name?', 'draft')));`,
);

/** A page whose script stops at an alert before the document finishes loading. */
const ALERT_ON_LOAD = page(
  'Alert on load',
  '<h1>Greeter</h1>',
  "alert('Welcome'); document.body.append('loaded after the alert');",
);

const UPLOAD = page(
  'Upload',
  `<label for="file">Document</label><input type="file" id="file">
<label for="many">Photos</label><input type="file" id="many" multiple>
<div><button id="styled-upload" type="button">Choose a file…</button><input type="file" id="hidden-file" style="display:none"></div>
<pre id="file-out">no file</pre>`,
  `const out = document.getElementById('file-out');
for (const input of document.querySelectorAll('input[type=file]')) {
  input.addEventListener('change', async () => {
    const lines = [];
    for (const file of input.files) lines.push(input.id + ': name=' + file.name + ' size=' + file.size + ' type=' + file.type + ' content=' + (await file.text()));
    out.textContent = lines.join(' | ');
  });
}`,
);

const SCROLL = page(
  'Scroll',
  `<div style="width:3000px;height:3000px;position:relative">
  <div id="box" tabindex="0" aria-label="Scroll box" style="position:absolute;top:100px;left:100px;width:300px;height:200px;overflow:auto;scrollbar-width:none">
    <div style="width:1200px;height:1000px">Box content</div>
  </div>
  <p style="position:absolute;top:2500px;left:20px">Far text: O'Brien said "hi" &lt;/text&gt; &amp; [x] \\' ') or 1=1</p>
</div>`,
);

const POINTER = page(
  'Pointer',
  `<button id="menu-button">Products</button>
<div id="menu" hidden><a href="/a.html">Laptops</a></div>
<div id="card" draggable="true" tabindex="0" style="width:120px;height:50px;background:#def;margin-top:20px">Card</div>
<div id="zone" tabindex="0" style="width:240px;height:100px;margin-top:30px;border:2px dashed">Drop zone</div>
<p id="drop-out">dropped: nothing</p>
<div id="slider" tabindex="0" aria-label="Slider" style="width:300px;height:24px;background:#eee;margin-top:20px"></div>
<p id="slider-out">slider: 0</p>
<div style="height:2000px"></div>`,
  `const $ = (id) => document.getElementById(id);
$('menu-button').addEventListener('mouseenter', () => { $('menu').hidden = false; });
$('card').addEventListener('dragstart', (e) => e.dataTransfer.setData('text/plain', 'card'));
$('zone').addEventListener('dragover', (e) => e.preventDefault());
$('zone').addEventListener('drop', (e) => { e.preventDefault(); $('drop-out').textContent = 'dropped: ' + e.dataTransfer.getData('text/plain'); });
let sliding = false;
const slide = (e) => { const r = $('slider').getBoundingClientRect(); $('slider-out').textContent = 'slider: ' + Math.round(((e.clientX - r.left) / r.width) * 100); };
$('slider').addEventListener('pointerdown', (e) => { sliding = true; slide(e); });
document.addEventListener('pointermove', (e) => { if (sliding) slide(e); });
document.addEventListener('pointerup', () => { sliding = false; });`,
);

/** Reports its own visibility and focus, and every change of them (the tab in front during background work). */
const REPORTER = page(
  'Reporter',
  `<h1>Reporter</h1><p id="report"></p><p id="changes">changes:</p>`,
  `${MOMENT}
const report = () => { document.getElementById('report').textContent = moment(); };
const change = (what) => { document.getElementById('changes').textContent += ' ' + what; report(); };
addEventListener('focus', () => change('focus'));
addEventListener('blur', () => change('blur'));
document.addEventListener('visibilitychange', () => change(document.visibilityState));
report();`,
);

/** Counts trusted clicks per element id: `clicks: runaway 1, decoy 0`. */
const CLICK_COUNTER = `const counts = {};
const show = () => { document.getElementById('out').textContent = 'clicks: ' + Object.entries(counts).map(([id, n]) => id + ' ' + n).join(', '); };
for (const element of document.querySelectorAll('[data-count]')) {
  counts[element.id] = 0;
  element.addEventListener('click', (e) => { if (e.isTrusted) { counts[element.id]++; show(); } });
}
show();`;

/** A button that jumps away the first time the pointer comes over it; a decoy is left where it was. */
const RUNAWAY = page(
  'Runaway',
  `<p id="out"></p>
<button id="decoy" data-count style="position:absolute;left:20px;top:100px;width:160px;height:40px">Decoy</button>
<button id="runaway" data-count style="position:absolute;left:20px;top:100px;width:160px;height:40px;z-index:1">Runaway</button>`,
  `${CLICK_COUNTER}
const runaway = document.getElementById('runaway');
runaway.addEventListener('pointerover', (e) => { if (e.isTrusted && runaway.style.top === '100px') runaway.style.top = '200px'; });`,
);

/** A card that jumps away the first time the pointer comes over it, leaving a decoy that counts presses. */
const RUNAWAY_CARD = page(
  'Runaway card',
  `<p id="out">presses: decoy 0; dropped: nothing</p>
<div id="decoy" style="position:absolute;left:20px;top:100px;width:120px;height:50px">Decoy</div>
<div id="runcard" draggable="true" tabindex="0" style="position:absolute;left:20px;top:100px;width:120px;height:50px;z-index:1;background:#def">Run card</div>
<div id="runzone" tabindex="0" style="position:absolute;left:300px;top:100px;width:200px;height:100px;border:2px dashed">Run zone</div>`,
  `const $ = (id) => document.getElementById(id);
let presses = 0;
let dropped = 'nothing';
const show = () => { $('out').textContent = 'presses: decoy ' + presses + '; dropped: ' + dropped; };
$('decoy').addEventListener('mousedown', (e) => { if (e.isTrusted) { presses++; show(); } });
$('runcard').addEventListener('pointerover', (e) => { if (e.isTrusted && $('runcard').style.top === '100px') $('runcard').style.top = '220px'; });
$('runcard').addEventListener('dragstart', (e) => e.dataTransfer.setData('text/plain', 'card'));
$('runzone').addEventListener('dragover', (e) => e.preventDefault());
$('runzone').addEventListener('drop', (e) => { e.preventDefault(); dropped = e.dataTransfer.getData('text/plain'); show(); });`,
);

/** A promotion that opens over the page when the pointer comes over the button (pages written by others do). */
const HOVER_OVERLAY = page(
  'Hover overlay',
  `<p id="out"></p><button id="details" data-count>Open details</button>
<div id="promo" data-count hidden style="position:fixed;inset:0;background:rgba(0,0,0,.3);z-index:5">Subscribe to our newsletter</div>`,
  `${CLICK_COUNTER}
document.getElementById('details').addEventListener('mouseover', (e) => { if (e.isTrusted) document.getElementById('promo').hidden = false; });`,
);

function frameChild(): string {
  return page(
    'Frame child',
    `<button id="frame-button">Frame button</button><p id="frame-out">frame clicks: 0</p>
<label for="frame-input">Frame input</label><input id="frame-input">
<div style="height:900px"></div><p>Deep inside the frame</p>`,
    `let n = 0; document.getElementById('frame-button').addEventListener('click', (e) => { if (e.isTrusted) n++; document.getElementById('frame-out').textContent = 'frame clicks: ' + n; });`,
  );
}

export interface ActionPages {
  /** Bodies of the form posts the server received, oldest first. */
  readonly submissions: string[];
}

type Route = (req: IncomingMessage, res: ServerResponse, url: URL) => void;

/** Adds the action pages to a fixture server; the cross-origin iframe comes from the second site. */
/**
 * A two-step sign-up for batches: the email is judged as it is typed, Next shows step 2 a moment later
 * (only with the terms accepted), and Finish leaves for the done page.
 */
const SIGNUP = page(
  'Sign up',
  `<h1>Sign up</h1>
<label>Name <input id="name"></label>
<label>Email <input id="email" type="email"></label>
<p id="email-out"></p>
<label><input type="checkbox" id="terms"> I accept the terms</label>
<button id="next">Next</button>
<p id="step"></p>
<button id="finish" onclick="location.href='/act/signup-done.html'">Finish</button>`,
  `document.getElementById('email').addEventListener('input', (event) => {
  document.getElementById('email-out').textContent = event.target.value.includes('@') ? 'Email looks good' : '';
});
document.getElementById('next').addEventListener('click', () => {
  const accepted = document.getElementById('terms').checked;
  setTimeout(() => {
    document.getElementById('step').textContent = accepted ? 'Step 2 of 2' : 'Please accept the terms';
  }, 300);
});`,
);

export function addActionPages(server: FixtureServer): ActionPages {
  const submissions: string[] = [];
  const routes: Record<string, Route> = {
    '/act/buttons.html': (_req, res) => send(res, BUTTONS),
    '/act/signup.html': (_req, res) => send(res, SIGNUP),
    '/act/signup-done.html': (_req, res) => send(res, page('Signed up', '<h1>Welcome aboard</h1>')),
    '/act/form.html': (_req, res) => send(res, FORM),
    '/act/controlled.html': (_req, res) => send(res, CONTROLLED),
    '/act/select.html': (_req, res) => send(res, SELECT),
    '/act/upload.html': (_req, res) => send(res, UPLOAD),
    '/act/dialogs.html': (_req, res) => send(res, DIALOGS),
    '/act/alert-on-load.html': (_req, res) => send(res, ALERT_ON_LOAD),
    '/act/scroll.html': (_req, res) => send(res, SCROLL),
    '/act/pointer.html': (_req, res) => send(res, POINTER),
    '/act/reporter.html': (_req, res) => send(res, REPORTER),
    '/act/runaway.html': (_req, res) => send(res, RUNAWAY),
    '/act/runaway-card.html': (_req, res) => send(res, RUNAWAY_CARD),
    '/act/late-frame.html': (_req, res) =>
      send(
        res,
        page(
          'Late frame',
          `<h1>The frame comes when asked</h1><div id="slot"></div>`,
          `window.addFrame = () => { const frame = document.createElement('iframe'); frame.id = 'child'; frame.width = 500; frame.height = 200; frame.src = ${JSON.stringify(server.crossUrl('/act/frame-child.html'))}; document.getElementById('slot').append(frame); return true; };`,
        ),
      ),
    '/act/hover-overlay.html': (_req, res) => send(res, HOVER_OVERLAY),
    '/act/frame-child.html': (_req, res) => send(res, frameChild()),
    '/act/frames.html': (_req, res) =>
      send(
        res,
        page(
          'Frames',
          `<h1>Outer page</h1><div style="height:150px"></div>
<iframe id="child" src="${server.crossUrl('/act/frame-child.html')}" width="500" height="200"></iframe>
<div style="height:2000px"></div>`,
        ),
      ),
    '/act/submit': (req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (chunk: Buffer) => chunks.push(chunk));
      req.on('end', () => {
        submissions.push(Buffer.concat(chunks).toString('utf8'));
        send(res, page('Received', '<h1>Received</h1>'));
      });
    },
  };
  for (const [path, handler] of Object.entries(routes)) {
    server.route(path, (req, res, url) => handler(req, res, url));
  }
  return { submissions };
}
