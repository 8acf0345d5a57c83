/**
 * Pages shaped like the ones `extract` meets (an article, a docs page of tables, a news front page, a
 * long wiki page), written out deterministically. Each carries what a converter must leave out: a
 * script and a style with long text, a hidden banner, a template and a noscript.
 */

const NOISE = `
<script type="application/ld+json">{"@context":"https://schema.org","headline":"structured data the reader never sees","author":"json ld block"}</script>
<script>window.analyticsQueue = ['tracking pixel configuration string that must never reach markdown'];</script>
<style>.banner-hidden-style { content: "stylesheet text that is not page content at all"; }</style>
<div style="display:none" class="cookie">We use cookies to improve the experience of hidden banner readers</div>
<template><p>Template content that is never rendered by the browser anywhere</p></template>
<noscript>Noscript fallback paragraph for browsers without any scripting</noscript>`;

function page(title: string, body: string): string {
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>${title}</title>
<style>body{font-family:sans-serif;max-width:60rem;margin:auto} .sr{position:absolute;left:-9999px}</style></head>
<body>${NOISE}${body}</body></html>`;
}

const ARTICLE = page(
  'How we cut build times in half',
  `<header><nav><ul><li><a href="/">Home</a></li><li><a href="/blog">Blog</a></li><li><a href="/about">About us</a></li></ul></nav></header>
<main><article>
<h1>How we cut build times in half</h1>
<p class="meta">By <a href="/authors/ada">Ada Lovelace</a> · <time>March 3, 2026</time></p>
<p>Our <strong>monorepo</strong> had grown to <em>four hundred</em> packages, and a clean build took <code>41 minutes</code>.
We measured first, then changed <a href="https://example.com/docs/cache">the remote cache</a> and the way tasks are scheduled.</p>
<h2>What we measured</h2>
<ol><li>Time spent waiting on the cache, per task.</li><li>Tasks that ran although their inputs had not changed.</li>
<li>Tasks on the critical path:<ul><li>type checks of the shared packages</li><li>bundling of the three apps</li></ul></li></ol>
<blockquote><p>Measure before you optimise; the slow part is rarely where you think it is.</p></blockquote>
<h2>The fix</h2>
<p>Most of the time went to hashing inputs that never change. The new key is computed once per package:</p>
<pre><code class="language-ts">const key = hash([pkg.name, pkg.version, lockfileHash]);
cache.get(key) ?? (await build(pkg));</code></pre>
<h3>Results</h3>
<ul><li>Clean build: 41 → 19 minutes</li><li>Incremental build: 6 → 2 minutes</li><li>Cache hit rate: 71 % → 94 %</li></ul>
<p><img src="/img/chart.png" alt="Build times per week"> Read the <a href="/blog/part-2">second part</a> for the scheduler.</p>
</article></main>
<footer><p>© 2026 Example Engineering · <a href="/rss.xml">RSS</a></p></footer>`,
);

const DOCS_TABLES = page(
  'Configuration reference',
  `<h1>Configuration reference</h1>
<p>Every option, its type and its default.</p>
<h2>Options</h2>
<table><thead><tr><th>Option</th><th>Type</th><th>Default</th><th>Description</th></tr></thead>
<tbody>
<tr><td><code>timeout_ms</code></td><td>number</td><td>30000</td><td>How long one command may take</td></tr>
<tr><td><code>retries</code></td><td>number</td><td>3</td><td>Attempts before giving up | logged</td></tr>
<tr><td><code>endpoint</code></td><td>string</td><td>none</td><td>See <a href="/docs/endpoints">endpoints</a></td></tr>
<tr><td><code>verbose</code></td><td>boolean</td><td>false</td><td>Log every request</td></tr>
</tbody></table>
<h2>Limits</h2>
<table><tr><td>Requests per minute</td><td>600</td></tr><tr><td>Payload size</td><td>5 MB</td></tr><tr><td>Concurrent sessions</td><td>25</td></tr></table>
<h2>Regions</h2>
<table><caption>Regions and their latency</caption>
<tr><th>Region</th><th>City</th><th>Median latency</th></tr>
<tr><td>eu-west</td><td>Dublin</td><td>12 ms</td></tr><tr><td>us-east</td><td>Virginia</td><td>18 ms</td></tr><tr><td>ap-south</td><td>Mumbai</td><td>35 ms</td></tr></table>
<h2>Changelog</h2>
<ul><li><a href="/changelog/4.2">4.2</a>: regions table added</li><li><a href="/changelog/4.1">4.1</a>: retries are logged</li></ul>`,
);

function newsPortal(): string {
  const sections = ['World', 'Business', 'Science', 'Sport', 'Culture', 'Technology'];
  const nav = `<nav><ul>${sections.map((name) => `<li><a href="/${name.toLowerCase()}">${name}</a><ul>${[1, 2, 3].map((n) => `<li><a href="/${name.toLowerCase()}/sub-${n}">${name} topic ${n}</a></li>`).join('')}</ul></li>`).join('')}</ul></nav>
<div class="mobile-menu" style="display:none">Mobile menu duplicate with every section link listed again</div>`;
  const cards = sections
    .map(
      (name, s) =>
        `<section><h2><a href="/${name.toLowerCase()}">${name}</a></h2>${[1, 2, 3, 4]
          .map(
            (n) => `<article class="card"><svg width="16" height="16"><circle cx="8" cy="8" r="8"/></svg>
<h3><a href="/${name.toLowerCase()}/story-${s * 10 + n}">${name} story ${n}: a headline that says what happened</a></h3>
<p>Summary ${n} of the ${name.toLowerCase()} story, two sentences long. It mentions a number like ${s * 100 + n * 7} and a place.</p>
<span class="sr">Screen reader note for story ${n}</span></article>`,
          )
          .join('')}</section>`,
    )
    .join('');
  return page(
    'Daily Example: front page',
    `<header><h1>Daily Example</h1>${nav}</header><main>${cards}</main>
<aside><h2>Most read</h2><ol>${[1, 2, 3, 4, 5].map((n) => `<li><a href="/most-read/${n}">Most read story number ${n}</a></li>`).join('')}</ol></aside>
<footer><ul><li><a href="/contact">Contact</a></li><li><a href="/privacy">Privacy</a></li><li><a href="/terms">Terms</a></li></ul></footer>`,
  );
}

function wiki(): string {
  const infobox = `<table class="infobox"><tr><th colspan="2">Example River</th></tr>
<tr><th>Length</th><td>412 km</td></tr><tr><th>Source</th><td>Example Mountains</td></tr>
<tr><th>Mouth</th><td><a href="/wiki/Example_Sea">Example Sea</a></td></tr><tr><th>Basin</th><td>18,200 km²</td></tr></table>`;
  const sections = Array.from({ length: 30 }, (_, s) => {
    const paragraphs = [1, 2, 3]
      .map(
        (p) =>
          `<p>Section ${s + 1}, paragraph ${p}: the river passes <a href="/wiki/Town_${s}_${p}">Town ${s}-${p}</a>, where it is joined by a tributary<sup><a href="#ref-${s}-${p}">[${p}]</a></sup>. Its flow there averages ${s * 3 + p} cubic metres per second.</p>`,
      )
      .join('');
    const list =
      s % 3 === 0 ? `<ul>${[1, 2, 3].map((n) => `<li>Tributary ${s}-${n} (${n * 11} km)</li>`).join('')}</ul>` : '';
    return `<h2>Section ${s + 1}</h2>${paragraphs}${list}${s % 5 === 0 ? `<h3>Subsection ${s + 1}.1</h3><p>Details of subsection ${s + 1}.1 follow here.</p>` : ''}`;
  }).join('');
  const references = `<h2>References</h2><ol>${Array.from({ length: 40 }, (_, n) => `<li id="ref-${n}"><a href="https://example.org/source/${n}">Source number ${n}</a>, retrieved 2026.</li>`).join('')}</ol>`;
  return page(
    'Example River - Wiki',
    `<h1>Example River</h1>${infobox}<p>The <b>Example River</b> is a river of the example region.</p>${sections}${references}`,
  );
}

/** Name and HTML of each real-shaped page. */
export function realPages(): Record<string, string> {
  return { article: ARTICLE, 'docs-tables': DOCS_TABLES, 'news-front': newsPortal(), wiki: wiki() };
}
