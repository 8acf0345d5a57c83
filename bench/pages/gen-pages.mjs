#!/usr/bin/env node
// Deterministic, seeded generator for the benchmark test pages.
//
//   node gen-pages.mjs [--seed 42] [--out DIR]
//
// Writes pages/*.html plus pages/MANIFEST.json (sizes + sha256 so that two
// machines can check they measured the same bytes). Same seed => same bytes.
// Pages that reference the second (cross-site) origin contain the literal
// placeholder {{ORIGIN_B}}; the server substitutes it at serve time, so
// the files themselves do not depend on the ports picked at run time.
//
// Pages:
//   form.html       (a) ~50 interactive elements, a sign-up form
//   listing.html    (b) e-commerce listing, 1,000 product cards
//   huge.html       (c) ~10k interactive elements, ~60k elements, nested scroll containers
//   frames.html     (d) 3 cross-site iframes (frame-1..3.html on origin B) + open shadow roots
//   occlusion.html  (e) a drawer + backdrop covering the right half of a 40-button grid
//
// Every top-level page carries the same "bench bar" at the top-left:
//   #bench-btn   (increments window.__benchClicks on click)
//   #bench-input (text input used for the typing benchmarks)

import { createHash } from 'node:crypto';
import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const HERE = dirname(fileURLToPath(import.meta.url));

// ---------------------------------------------------------------- PRNG
function mulberry32(seed) {
  let a = seed >>> 0;
  return function rand() {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

function makeRng(seed) {
  const r = mulberry32(seed);
  const api = {
    float: r,
    int: (lo, hi) => lo + Math.floor(r() * (hi - lo + 1)),
    pick: (arr) => arr[Math.floor(r() * arr.length)],
    chance: (p) => r() < p,
    words: (n) => Array.from({ length: n }, () => api.pick(WORDS)).join(' '),
    sentence: (lo, hi) => {
      const s = api.words(api.int(lo, hi));
      return s.charAt(0).toUpperCase() + s.slice(1) + '.';
    },
  };
  return api;
}

const WORDS = (
  'alpha bravo cable delta ember falcon garnet harbor island jasper kettle lumen ' +
  'meadow nectar orbit pepper quartz ridge summit timber umber vortex willow xenon ' +
  'yonder zephyr amber basalt cedar dune echo fjord glacier hollow indigo juniper ' +
  'kelp lagoon marble nimbus onyx prairie quill raven sierra tundra ultra velvet ' +
  'wander yarrow zinc anchor beacon canyon drift ferry grove haven inlet jetty knoll'
).split(' ');
const ADJ = 'Classic Compact Deluxe Eco Ultra Smart Pro Mini Max Lite Rugged Silent Swift Bold Prime Nova'.split(' ');
const NOUN =
  'Widget Kettle Lamp Backpack Blender Headphones Jacket Sneakers Drill Chair Desk Mug Speaker Watch Camera Tent'.split(
    ' ',
  );
const COLORS = 'Red Blue Green Black White Grey Teal Orange Purple Yellow'.split(' ');
const BRANDS =
  'Acme Globex Initech Umbrella Hooli Vehement Stark Wayne Tyrell Cyberdyne Soylent Wonka Oscorp Aperture Massive'.split(
    ' ',
  );
const CATEGORIES = 'Kitchen Outdoor Office Audio Apparel Footwear Tools Furniture Lighting Travel Sports Garden'.split(
  ' ',
);
const STATES =
  'Alabama Alaska Arizona Arkansas California Colorado Connecticut Delaware Florida Georgia Hawaii Idaho'.split(' ');
const COUNTRIES =
  'Austria Belgium Canada Denmark Estonia Finland France Germany Ireland Japan Norway Portugal Spain Sweden'.split(' ');

const esc = (s) => String(s).replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');
const pad = (n, w = 5) => String(n).padStart(w, '0');

// ---------------------------------------------------------------- shared bits
const BASE_CSS = `
*{box-sizing:border-box}
body{margin:0;font:14px/1.4 system-ui,-apple-system,"Segoe UI",Roboto,sans-serif;color:#222;background:#fafafa}
header.site{display:flex;gap:16px;align-items:center;padding:8px 16px;background:#1d3557;color:#fff}
header.site a{color:#fff}
#bench-bar{display:flex;gap:8px;align-items:center;padding:6px 16px;background:#ffe8a3;width:560px}
#bench-btn{padding:6px 14px}
main{padding:12px 16px}
footer{padding:12px 16px;color:#666}
`;

function benchBar() {
  return `<div id="bench-bar">
  <button id="bench-btn" type="button">Bench click target</button>
  <label for="bench-input">Bench input</label>
  <input id="bench-input" type="text" autocomplete="off" spellcheck="false">
</div>
<script>
  window.__benchClicks = 0;
  document.getElementById('bench-btn').addEventListener('click', function () { window.__benchClicks++; });
</script>`;
}

function doc({ title, css = '', body }) {
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${esc(title)}</title>
<style>${BASE_CSS}${css}</style>
</head>
<body>
${body}
</body>
</html>
`;
}

function siteHeader(rng, links) {
  return `<header class="site"><a href="/" class="logo"><strong>${esc(rng.pick(BRANDS))} Store</strong></a>
<nav aria-label="Main"><ul style="display:flex;gap:12px;list-style:none;margin:0;padding:0">
${links.map((l) => `<li><a href="/${l.toLowerCase()}">${esc(l)}</a></li>`).join('\n')}
</ul></nav></header>`;
}

// ---------------------------------------------------------------- (a) form
function genForm(rng) {
  const opt = (arr) => arr.map((v) => `<option value="${esc(v.toLowerCase())}">${esc(v)}</option>`).join('');
  const text = (id, label, type = 'text', extra = '') =>
    `<div class="row"><label for="${id}">${esc(label)}</label><input id="${id}" name="${id}" type="${type}" ${extra}></div>`;
  const interests = Array.from({ length: 8 }, (_, i) => rng.pick(CATEGORIES) + ' ' + (i + 1));
  const body = `${siteHeader(rng, ['Home', 'Products', 'Pricing', 'Support', 'Account'])}
${benchBar()}
<main>
<h1>Create your account</h1>
<p>${esc(rng.sentence(10, 20))}</p>
<form id="signup" action="/signup" method="post" novalidate>
<fieldset><legend>Personal</legend>
${text('first', 'First name', 'text', 'required autocomplete="given-name"')}
${text('last', 'Last name', 'text', 'required autocomplete="family-name"')}
${text('email', 'Email', 'email', 'required')}
${text('phone', 'Phone', 'tel')}
${text('dob', 'Date of birth', 'date')}
<div class="row" role="radiogroup" aria-label="Gender">
  <label><input type="radio" name="gender" value="f"> Female</label>
  <label><input type="radio" name="gender" value="m"> Male</label>
  <label><input type="radio" name="gender" value="x" checked> Prefer not to say</label>
</div>
</fieldset>
<fieldset><legend>Account</legend>
${text('username', 'Username', 'text', 'minlength="3"')}
${text('password', 'Password', 'password')}
${text('password2', 'Confirm password', 'password')}
<div class="row"><label for="question">Security question</label><select id="question" name="question">${opt(['First pet', 'Mother maiden name', 'First school', 'Favourite book'])}</select></div>
${text('answer', 'Answer')}
</fieldset>
<fieldset><legend>Address</legend>
${text('street', 'Street')}
${text('street2', 'Apartment, suite, etc.')}
${text('city', 'City')}
<div class="row"><label for="state">State</label><select id="state" name="state">${opt(STATES)}</select></div>
${text('zip', 'ZIP code', 'text', 'inputmode="numeric"')}
<div class="row"><label for="country">Country</label><select id="country" name="country">${opt(COUNTRIES)}</select></div>
</fieldset>
<fieldset><legend>Preferences</legend>
<div class="row"><label><input type="checkbox" id="newsletter" name="newsletter" checked> Send me the newsletter</label></div>
<div class="row" role="group" aria-label="Interests">
${interests.map((s, i) => `<label><input type="checkbox" name="interest" value="${i}"> ${esc(s)}</label>`).join('\n')}
</div>
<div class="row" role="radiogroup" aria-label="Preferred contact">
  <label><input type="radio" name="contact" value="email" checked> Email</label>
  <label><input type="radio" name="contact" value="phone"> Phone</label>
  <label><input type="radio" name="contact" value="post"> Post</label>
</div>
<div class="row"><label for="freq">Frequency</label><select id="freq" name="freq">${opt(['Daily', 'Weekly', 'Monthly'])}</select></div>
<div class="row"><label for="budget">Budget</label><input id="budget" name="budget" type="range" min="0" max="1000" value="250"></div>
</fieldset>
<div class="row"><label for="comments">Comments</label><textarea id="comments" name="comments" rows="4" cols="60">${esc(rng.sentence(6, 12))}</textarea></div>
<div class="row"><label><input type="checkbox" id="terms" name="terms" required> I accept the <a href="/terms">terms and conditions</a></label></div>
<details><summary>Why do we ask for this?</summary><p>${esc(rng.sentence(15, 30))}</p></details>
<div class="actions">
  <button type="submit">Create account</button>
  <button type="reset">Reset</button>
  <button type="button" id="save-draft">Save draft</button>
  <a href="/" role="button">Cancel</a>
</div>
</form>
</main>
<footer><nav aria-label="Footer">${['About', 'Careers', 'Privacy', 'Help', 'Contact'].map((l) => `<a href="/${l.toLowerCase()}">${l}</a>`).join(' · ')}</nav></footer>`;
  return doc({
    title: 'Sign up – form page',
    css: 'fieldset{margin:8px 0}.row{margin:4px 0}label{margin-right:6px}',
    body,
  });
}

// ---------------------------------------------------------------- (b) listing
function genListing(rng, nCards = 1000) {
  const cards = [];
  for (let i = 1; i <= nCards; i++) {
    const name = `${rng.pick(ADJ)} ${rng.pick(COLORS)} ${rng.pick(NOUN)} ${rng.int(2, 99)}`;
    const brand = rng.pick(BRANDS);
    const price = (rng.int(299, 49999) / 100).toFixed(2);
    const was = rng.chance(0.35) ? ` <s aria-label="Was">$${(Number(price) * 1.3).toFixed(2)}</s>` : '';
    const rating = (rng.int(10, 50) / 10).toFixed(1);
    const stars = Math.round(Number(rating));
    const reviews = rng.int(0, 4000);
    const badge = rng.chance(0.12)
      ? `<span class="badge">${rng.pick(['Sale', 'New', 'Bestseller', 'Limited'])}</span>`
      : '';
    const sku = pad(i);
    cards.push(`<article class="card" data-sku="SKU-${sku}">
  ${badge}<a class="thumb" href="/p/${sku}" tabindex="-1"><img src="/img/${sku}.svg" alt="${esc(name)}" width="160" height="120" loading="lazy"></a>
  <h3><a href="/p/${sku}">${esc(name)}</a></h3>
  <div class="brand">by <a href="/brand/${brand.toLowerCase()}">${esc(brand)}</a></div>
  <div class="rating" role="img" aria-label="Rated ${rating} out of 5">${'★'.repeat(stars)}${'☆'.repeat(5 - stars)} <span>(${reviews})</span></div>
  <p class="price"><span class="now">$${price}</span>${was}</p>
  <p class="desc">${esc(rng.sentence(8, 16))}</p>
  <div class="buy"><label>Qty <input type="number" name="qty-${sku}" min="1" max="9" value="1"></label>
  <button type="button" class="add" data-sku="${sku}">Add to cart</button>
  <button type="button" class="wish" aria-label="Add ${esc(name)} to wishlist">♡</button></div>
</article>`);
  }
  const checks = (title, items) =>
    `<fieldset><legend>${title}</legend>${items
      .map((c, i) => `<label><input type="checkbox" name="${title.toLowerCase()}" value="${i}"> ${esc(c)}</label>`)
      .join('<br>')}</fieldset>`;
  const body = `${siteHeader(rng, ['Deals', 'New', 'Kitchen', 'Outdoor', 'Office', 'Audio', 'Apparel', 'Help'])}
${benchBar()}
<div class="search" role="search"><label for="q">Search products</label> <input id="q" type="search" placeholder="Search 1,000 products">
<button type="button">Search</button> <button type="button" aria-label="Cart, 0 items">🛒 0</button></div>
<div class="layout">
<aside class="filters" aria-label="Filters">
${checks('Category', CATEGORIES)}
${checks('Brand', BRANDS)}
<fieldset><legend>Price</legend><input type="number" aria-label="Min price" value="0"> – <input type="number" aria-label="Max price" value="500"> <button type="button">Apply</button></fieldset>
<fieldset><legend>Rating</legend>${[4, 3, 2, 1].map((r) => `<label><input type="radio" name="rating" value="${r}"> ${r}★ &amp; up</label>`).join('<br>')}</fieldset>
<label for="sort">Sort by</label> <select id="sort"><option>Relevance</option><option>Price: low to high</option><option>Price: high to low</option><option>Rating</option><option>Newest</option></select>
</aside>
<main><h1>All products <small>(${nCards})</small></h1>
<div class="grid">
${cards.join('\n')}
</div>
<nav aria-label="Pagination" class="pager">${Array.from({ length: 10 }, (_, i) => `<a href="?page=${i + 1}">${i + 1}</a>`).join(' ')} <a href="?page=2" rel="next">Next →</a></nav>
</main>
</div>
<footer>${Array.from({ length: 20 }, (_, i) => `<a href="/info/${i}">${esc(rng.words(2))}</a>`).join(' · ')}</footer>`;
  const css = `.search{padding:8px 16px}.layout{display:flex}.filters{width:220px;padding:8px 16px;flex:none}
.grid{display:grid;grid-template-columns:repeat(auto-fill,minmax(200px,1fr));gap:12px}
.card{background:#fff;border:1px solid #ddd;border-radius:6px;padding:8px;position:relative}
.card h3{font-size:14px;margin:6px 0}.card .desc{color:#555;font-size:12px}.card img{display:block;background:#eee}
.badge{position:absolute;top:6px;left:6px;background:#e63946;color:#fff;font-size:11px;padding:1px 4px;border-radius:3px}
.price .now{font-weight:bold}.rating{color:#f4a261}.buy input{width:48px}`;
  return doc({ title: 'Shop – 1,000 products', css, body });
}

// ---------------------------------------------------------------- (c) huge
// Design notes (numbers: ../reference/perf-facts.md):
// - a <select> in *every* row made the first Playwright aria snapshot and getFullAXTree much
//   slower (an early 55k-element draft: getFullAXTree ~30 s, PW snapshot > 30 s), so only
//   every 10th row has one; the others carry a status button.
// - scroll containers make every rendered frame dear (~200 ms per keystroke with 160 of them,
//   ~175 ms with the 34 kept here, ~42 ms with none): every panel scrolls, and only the first
//   `nestedScrollPanels` panels nest scrollers 3 deep (panel > sub-panel > log).
function genHuge(
  rng,
  {
    panels = 20,
    subs = 5,
    rows = 20,
    table = true,
    select = true,
    selectEvery = 10,
    wrap = false,
    scroll = true,
    nestedScrollPanels = 2,
  } = {},
) {
  let rowNo = 0;
  const out = [];
  for (let p = 1; p <= panels; p++) {
    const subHtml = [];
    for (let s = 1; s <= subs; s++) {
      const trs = [];
      for (let r = 0; r < rows; r++) {
        rowNo++;
        const id = pad(rowNo);
        const status =
          select && rowNo % selectEvery === 0
            ? `<select aria-label="Status of row ${id}"><option>Open</option><option>Closed</option><option>Pending</option></select>`
            : `<button type="button" aria-label="Status of row ${id}: ${rng.pick(['Open', 'Closed', 'Pending'])}">${rng.pick(['Open', 'Closed', 'Pending'])}</button>`;
        const w = wrap ? (x) => `<div class="c">${x}</div>` : (x) => x;
        trs.push(
          `<tr><td>${w(`<span class="id">#${id}</span>`)}</td>` +
            `<td>${w(`<a href="#item-${id}">${esc(rng.pick(ADJ))} ${esc(rng.pick(NOUN))} ${id}</a>`)}</td>` +
            `<td>${w(`<span>${esc(rng.words(3))}</span> <em>${esc(rng.pick(WORDS))}</em> <small>${esc(rng.pick(CATEGORIES))}</small>`)}</td>` +
            `<td>${w(`<input type="checkbox" aria-label="Select row ${id}">`)}</td>` +
            `<td>${w(`<input type="text" size="8" aria-label="Note for row ${id}">`)}</td>` +
            `<td>${w(status)}</td>` +
            `<td>${w('<button type="button">Edit</button>')}</td></tr>`,
        );
      }
      // third nesting level in every other sub-panel: a small scrollable log
      const deep =
        s % 2 === 0
          ? `<div class="deep${p <= nestedScrollPanels ? ' scroll' : ''}" tabindex="0" aria-label="Log ${p}.${s}">${Array.from({ length: 8 }, () => `<p><b>${esc(rng.pick(WORDS))}</b> <span>${esc(rng.sentence(4, 9))}</span></p>`).join('')}</div>`
          : '';
      subHtml.push(`<div class="sub${p <= nestedScrollPanels ? ' scroll' : ''}" role="region" aria-label="Sub-panel ${p}.${s}">
<h3>Sub-panel ${p}.${s}</h3>${deep}
${
  table
    ? `<table><thead><tr><th>ID</th><th>Item</th><th>Description</th><th>Sel</th><th>Note</th><th>Status</th><th>Action</th></tr></thead>
<tbody>${trs.join('\n')}</tbody></table>`
    : trs.join('\n').replace(/<(\/?)t[rd]>/g, '<$1div>')
}</div>`);
    }
    out.push(`<section class="panel" aria-labelledby="ph${p}">
<h2 id="ph${p}">Panel ${p}</h2>
<div class="toolbar"><button type="button">Refresh</button> <button type="button">Export</button> <button type="button" disabled>Delete</button></div>
<details><summary>More actions for panel ${p}</summary>${Array.from({ length: 20 }, (_, i) => `<a href="#p${p}-a${i}">${esc(rng.words(2))}</a>`).join(' ')}</details>
${subHtml.join('\n')}
</section>`);
  }
  const hiddenMenu = `<nav id="mega-menu" aria-label="Mega menu" style="display:none">${Array.from({ length: 50 }, (_, i) => `<a href="/m/${i}">${esc(rng.words(2))}</a>`).join('')}</nav>`;
  const body = `${siteHeader(rng, ['Dashboard', 'Reports', 'Inventory', 'Orders', 'Customers', 'Settings', 'Billing', 'Team', 'Logs', 'Help'])}
${benchBar()}
${hiddenMenu}
<main><h1>Operations console</h1>
<div class="panels">
${out.join('\n')}
</div></main>
<footer>${esc(rng.sentence(10, 20))}</footer>`;
  const css = `.panels{display:grid;grid-template-columns:repeat(2,1fr);gap:12px}
.panel{height:480px;overflow:auto;border:1px solid #bbb;background:#fff;padding:6px}
.sub{border:1px solid #ddd;margin:6px 0;padding:4px}.sub.scroll{height:220px;overflow:auto;}
.deep{border:1px dashed #aaa;margin:4px 0;font-size:12px}.deep.scroll{height:80px;overflow:auto;}
table{border-collapse:collapse;font-size:12px}td,th{border-bottom:1px solid #eee;padding:1px 4px}
.c{display:flex;align-items:center;gap:4px}`;
  return doc({
    title: 'Operations console – huge page',
    css: scroll ? css : css.replace(/height:\d+px;overflow:auto;/g, ''),
    body,
  });
}

// ---------------------------------------------------------------- (d) frames + shadow DOM
function shadow(host, inner, attrs = '') {
  return `<${host}${attrs}><template shadowrootmode="open"><style>:host{display:block;border:1px solid #9ab;padding:6px;margin:4px 0;background:#fff}</style>${inner}</template></${host}>`;
}

function genFrames(rng) {
  const rating = (n) =>
    shadow(
      'acme-rating',
      `<div role="radiogroup" aria-label="Rate product ${n}">${[1, 2, 3, 4, 5]
        .map((v) => `<label><input type="radio" name="r${n}" value="${v}">${v}★</label>`)
        .join('')}</div>`,
    );
  const cards = Array.from({ length: 4 }, (_, i) => {
    const name = `${rng.pick(ADJ)} ${rng.pick(NOUN)}`;
    return shadow(
      'acme-card',
      `<h3>${esc(name)}</h3><p>${esc(rng.sentence(6, 12))}</p><button type="button">Buy ${esc(name)}</button> <a href="/p/${i}">Details</a>${rating(i + 1)}`,
    );
  }).join('\n');
  const body = `${siteHeader(rng, ['Home', 'Widgets', 'Checkout', 'Support'])}
${benchBar()}
<main>
<h1>Embedded widgets</h1>
<div class="frames">
  <iframe id="f1" title="Payment form" src="{{ORIGIN_B}}/frame-1.html" width="400" height="300"></iframe>
  <iframe id="f2" title="Support chat" src="{{ORIGIN_B}}/frame-2.html" width="400" height="300"></iframe>
  <iframe id="f3" title="Newsletter" src="{{ORIGIN_B}}/frame-3.html" width="400" height="300"></iframe>
</div>
<h2>Shadow components</h2>
${shadow('acme-search', `<label>Search <input type="search" placeholder="Find widgets"></label> <button type="button">Search</button>`)}
${shadow('acme-login', `<form><label>Username <input type="text" autocomplete="username"></label> <label>Password <input type="password"></label> <button type="submit">Sign in</button> <a href="/forgot">Forgot password?</a></form>`)}
${shadow('acme-toolbar', `<div role="toolbar" aria-label="Formatting"><slot></slot></div>`)}
<script>/* light-DOM children of acme-toolbar are slotted into its shadow root */</script>
<div class="cards">${cards}</div>
<p>${esc(rng.sentence(20, 40))}</p>
</main>`;
  // acme-toolbar's slotted light DOM buttons have to be inside the host element: patch in.
  const withSlot = body.replace(
    '<acme-toolbar><template',
    '<acme-toolbar><button type="button">Bold</button><button type="button">Italic</button><button type="button">Underline</button><template',
  );
  const css = `.frames{display:flex;gap:8px}iframe{border:1px solid #888}.cards{display:grid;grid-template-columns:repeat(4,1fr);gap:8px}`;
  return doc({ title: 'Widgets – iframes and shadow DOM', css, body: withSlot });
}

function genFrameDoc(rng, n) {
  const kinds = {
    1: `<h2>Pay securely</h2><form>
<label>Card number <input inputmode="numeric" autocomplete="cc-number" placeholder="1234 5678 9012 3456"></label><br>
<label>Expiry <input placeholder="MM/YY" size="5"></label> <label>CVC <input size="4"></label><br>
<label>Name on card <input autocomplete="cc-name"></label><br>
<label><input type="checkbox"> Save card</label><br>
<button type="submit">Pay $${rng.int(10, 500)}.00</button> <a href="/help">Help</a></form>`,
    2: `<h2>Chat with us</h2><ul aria-label="Messages">${Array.from({ length: 6 }, (_, i) => `<li><b>${i % 2 ? 'Agent' : 'You'}:</b> ${esc(rng.sentence(4, 10))}</li>`).join('')}</ul>
${shadow('chat-composer', `<label>Message <textarea rows="2" cols="30"></textarea></label> <button type="button">Send</button> <button type="button" aria-label="Attach file">📎</button>`)}`,
    3: `<h2>Newsletter</h2><p>${esc(rng.sentence(8, 14))}</p>
<form><label>Email <input type="email" placeholder="you@example.com"></label> <button type="submit">Subscribe</button></form>
${shadow('consent-box', `<label><input type="checkbox"> I agree to receive emails</label> <a href="/privacy">Privacy policy</a>`)}
<nav>${Array.from({ length: 5 }, (_, i) => `<a href="/n/${i}">${esc(rng.words(2))}</a>`).join(' | ')}</nav>`,
  };
  return doc({ title: `Frame ${n}`, css: 'body{background:#fff;padding:6px}', body: kinds[n] });
}

// ---------------------------------------------------------------- (e) occlusion
function genOcclusion(rng) {
  // 8 columns x 5 rows of buttons; the fixed drawer + backdrop cover the right half
  // of the 1280x720 viewport, i.e. columns 5-8. Expected results are recorded in
  // data-expect-occluded so that a project can check its occlusion logic.
  const cells = [];
  for (let r = 0; r < 5; r++) {
    for (let c = 0; c < 8; c++) {
      const n = r * 8 + c + 1;
      const occluded = c >= 4;
      cells.push(
        `<button type="button" class="cell" id="b${n}" data-expect-occluded="${occluded}">Action ${n}: ${esc(rng.pick(WORDS))}</button>`,
      );
    }
  }
  // special cases, all in the left half
  const special = `<div class="special">
  <div class="case"><button type="button" id="s-transparent" data-expect-occluded="true">Under transparent layer</button><div class="glass" aria-hidden="true"></div></div>
  <div class="case"><button type="button" id="s-passthrough" data-expect-occluded="false">Under pointer-events:none badge</button><div class="passthrough" aria-hidden="true">NEW</div></div>
  <div class="case"><button type="button" id="s-hiddenlayer" data-expect-occluded="false">Under visibility:hidden layer</button><div class="hiddenlayer">hidden</div></div>
  <div class="case"><button type="button" id="s-partial" data-expect-occluded="partial">Partially covered</button><div class="half" aria-hidden="true"></div></div>
</div>`;
  const body = `${siteHeader(rng, ['Home', 'Shop', 'Cart'])}
${benchBar()}
<main>
<h1>Occlusion test</h1>
${special}
<div class="grid">${cells.join('\n')}</div>
<p>${esc(rng.sentence(20, 40))}</p>
</main>
<div id="drawer-backdrop" aria-hidden="true"></div>
<aside id="drawer" role="dialog" aria-label="Your cart">
  <h2>Your cart</h2><p>${esc(rng.sentence(8, 14))}</p>
  <button type="button" id="checkout">Checkout</button> <button type="button" id="close-drawer" aria-label="Close cart">✕</button>
</aside>`;
  const css = `.grid{display:grid;grid-template-columns:repeat(8,1fr);gap:8px;margin-top:12px}
.cell{height:48px}
.special{display:flex;gap:12px;width:600px;flex-wrap:wrap}
.case{position:relative;display:inline-block}
.case button{height:40px}
.glass{position:absolute;inset:0;background:#fff;opacity:0}
.passthrough{position:absolute;right:-6px;top:-6px;background:#e63946;color:#fff;font-size:10px;padding:1px 3px;pointer-events:none}
.hiddenlayer{position:absolute;inset:0;background:#000;visibility:hidden}
.half{position:absolute;top:0;bottom:0;left:0;width:50%;background:rgba(0,0,0,.25)}
#drawer-backdrop{position:fixed;top:0;right:0;width:50%;height:100%;background:rgba(0,0,0,.45);z-index:100}
#drawer{position:fixed;top:80px;right:40px;width:520px;background:#fff;padding:16px;border-radius:8px;z-index:101;box-shadow:0 4px 24px rgba(0,0,0,.4)}`;
  return doc({ title: 'Occlusion – drawer covers half the buttons', css, body });
}

// ---------------------------------------------------------------- main
export { genHuge, makeRng };
export const PAGE_IDS = ['form', 'listing', 'huge', 'frames', 'occlusion'];

export function generatePages({ seed = 42, outDir = join(HERE, 'pages') } = {}) {
  // each page gets its own sub-seed so adding a page never changes the others
  const files = {
    'form.html': genForm(makeRng(seed * 101 + 1)),
    'listing.html': genListing(makeRng(seed * 101 + 2)),
    'huge.html': genHuge(makeRng(seed * 101 + 3)),
    'frames.html': genFrames(makeRng(seed * 101 + 4)),
    'frame-1.html': genFrameDoc(makeRng(seed * 101 + 5), 1),
    'frame-2.html': genFrameDoc(makeRng(seed * 101 + 6), 2),
    'frame-3.html': genFrameDoc(makeRng(seed * 101 + 7), 3),
    'occlusion.html': genOcclusion(makeRng(seed * 101 + 8)),
  };
  mkdirSync(outDir, { recursive: true });
  // coverage markers: ASCII strings that a *complete* perception of the page must contain
  // (deep in the page, inside shadow roots, inside each cross-site iframe).
  const cardNames = [...files['listing.html'].matchAll(/<h3><a href="\/p\/\d+">([^<]+)<\/a><\/h3>/g)].map((m) => m[1]);
  const lastRow = /<a href="#item-(\d+)">([^<]+)<\/a>(?![\s\S]*<a href="#item-)/.exec(files['huge.html']);
  const markers = {
    form: ['Create account', 'Why do we ask for this?', 'Prefer not to say', 'Security question'],
    listing: [cardNames[0], cardNames[cardNames.length - 1], 'Add to cart', 'Sort by'],
    huge: ['Operations console', 'Panel 1', 'Panel 20', lastRow[2]],
    frames: ['Pay securely', 'Chat with us', 'Subscribe', 'Sign in', 'Bold', 'Send', 'Rate product 4'],
    occlusion: ['Action 1:', 'Action 40:', 'Checkout', 'Under transparent layer'],
  };
  const manifest = { seed, generator: 'gen-pages.mjs', markers, files: {} };
  for (const [name, html] of Object.entries(files)) {
    writeFileSync(join(outDir, name), html);
    manifest.files[name] = {
      bytes: Buffer.byteLength(html),
      sha256: createHash('sha256').update(html).digest('hex'),
    };
  }
  writeFileSync(join(outDir, 'MANIFEST.json'), JSON.stringify(manifest, null, 2) + '\n');
  return manifest;
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const args = process.argv.slice(2);
  const get = (k, d) => {
    const i = args.indexOf(k);
    return i >= 0 ? args[i + 1] : d;
  };
  const m = generatePages({ seed: Number(get('--seed', 42)), outDir: resolve(get('--out', join(HERE, 'pages'))) });
  for (const [f, v] of Object.entries(m.files))
    console.log(`${f.padEnd(16)} ${String(v.bytes).padStart(9)} B  ${v.sha256.slice(0, 12)}`);
}
