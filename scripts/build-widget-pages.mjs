// Bundles the widget test pages (test/e2e/widgets/*.tsx: real Material UI, Ant Design, Radix, Headless
// UI, React Select and react-datepicker on React) into dist/widget-pages, one HTML page per source file,
// the libraries shared as split chunks. It rebuilds only when a page source, the lockfile or this script
// changed, so the end-to-end files that serve the pages can call it every time at almost no cost.
import { build } from 'esbuild';
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { basename, dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const SOURCES = join(ROOT, 'test/e2e/widgets');
export const WIDGET_PAGES_DIR = join(ROOT, 'dist/widget-pages');
const STAMP = join(WIDGET_PAGES_DIR, '.inputs-hash');
/** The shared helpers every page imports: not a page itself. */
const HELPERS = new Set(['held.tsx']);

function pageSources() {
  return readdirSync(SOURCES)
    .filter((name) => name.endsWith('.tsx') && !HELPERS.has(name))
    .sort();
}

function inputsHash() {
  const hash = createHash('sha256');
  for (const file of [
    ...readdirSync(SOURCES)
      .sort()
      .map((name) => join(SOURCES, name)),
    join(ROOT, 'package-lock.json'),
    fileURLToPath(import.meta.url),
  ]) {
    hash.update(file).update(readFileSync(file));
  }
  return hash.digest('hex');
}

function pageHtml(name, hasCss) {
  return `<!doctype html><html><head><meta charset="utf-8"><title>${name} widgets</title>${
    hasCss ? `<link rel="stylesheet" href="${name}.css">` : ''
  }</head><body><div id="root"></div><script type="module" src="${name}.js"></script></body></html>`;
}

/** Builds the pages unless the last build had the same inputs; returns the folder and whether it built. */
export async function buildWidgetPages() {
  const hash = inputsHash();
  if (existsSync(STAMP) && readFileSync(STAMP, 'utf8') === hash) {
    return { dir: WIDGET_PAGES_DIR, built: false };
  }
  rmSync(WIDGET_PAGES_DIR, { recursive: true, force: true });
  mkdirSync(WIDGET_PAGES_DIR, { recursive: true });
  const pages = pageSources();
  await build({
    entryPoints: pages.map((name) => join(SOURCES, name)),
    outdir: WIDGET_PAGES_DIR,
    bundle: true,
    splitting: true,
    format: 'esm',
    target: 'chrome125',
    jsx: 'automatic',
    jsxImportSource: 'react',
    define: { 'process.env.NODE_ENV': '"production"' },
    minify: true,
    legalComments: 'none',
    logLevel: 'warning',
  });
  for (const source of pages) {
    const name = basename(source, '.tsx');
    writeFileSync(
      join(WIDGET_PAGES_DIR, `${name}.html`),
      pageHtml(name, existsSync(join(WIDGET_PAGES_DIR, `${name}.css`))),
    );
  }
  writeFileSync(STAMP, hash);
  return { dir: WIDGET_PAGES_DIR, built: true };
}

if (process.argv[1] && process.argv[1].endsWith('build-widget-pages.mjs')) {
  const started = Date.now();
  const { dir, built } = await buildWidgetPages();
  console.log(`${built ? 'built' : 'up to date:'} ${dir} (${Date.now() - started} ms)`);
}
