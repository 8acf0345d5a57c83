import { mkdirSync, writeFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { gzipSync } from 'node:zlib';
import { PAGE_SOURCE } from '../src/dom/generated/page-source';
import { BENCH_GLOBAL, type Converter, type PageFacts } from './extract/contract';
import { realPages } from './extract/real-pages';
import type { PageServer } from './page-server';
import { openSides, SETTLE } from './sides';
import { median, percentile, round } from './stats';

export interface ExtractTimingRow {
  page: string;
  ours_median_ms: number;
  ours_p90_ms: number;
  turndown_median_ms: number;
  turndown_p90_ms: number;
  /** Median of per-run paired ratios turndown / ours. */
  turndown_vs_ours: number;
  /** The `extract` action end to end (ours: the call into the isolated world, chunking, the bus). */
  extract_action_ms: number;
}

export interface ExtractQualityRow {
  page: string;
  converter: Converter;
  chars: number;
  /** GFM tables written / tables shown on the page. */
  gfm_tables: string;
  /** Whether table or layout HTML was left in the markdown. */
  html_left: boolean;
  links: string;
  headings: string;
  list_items: string;
  /** Script, style or hidden text that reached the markdown / such texts on the page. */
  leaked: string;
  /** Share of the words of the page's innerText found in the markdown (each as often). */
  text_coverage: number;
}

export interface BundleSizes {
  in_page_script_bytes: number;
  in_page_script_gzip: number;
  turndown_with_gfm_bytes: number;
  turndown_with_gfm_gzip: number;
}

/** Markdown without its escapes, emphasis and link targets: the words a reader sees. */
function plain(text: string): string {
  return text
    .replace(/\\([\\`*_{}[\]()#+\-.!>|~])/g, '$1')
    .replace(/\]\([^)]*\)/g, ']')
    .replace(/[[\]*_`]/g, '')
    .replace(/\s+/g, ' ')
    .trim();
}

function words(text: string): Map<string, number> {
  const counts = new Map<string, number>();
  for (const word of text.toLowerCase().match(/[\p{L}\p{N}]{2,}/gu) ?? []) {
    counts.set(word, (counts.get(word) ?? 0) + 1);
  }
  return counts;
}

function share(found: number, total: number): string {
  return `${found}/${total}`;
}

/** The mechanical checks of one output against what its page shows. */
export function qualityOf(page: string, converter: Converter, markdown: string, facts: PageFacts): ExtractQualityRow {
  const lines = markdown.split('\n');
  const plainLines = lines.map(plain);
  const separators = lines.filter((line) => /^\|?\s*:?-{3,}:?\s*(\|\s*:?-{3,}:?\s*)*\|?\s*$/.test(line.trim()));
  const headingFound = (heading: PageFacts['headings'][number]): boolean => {
    const text = plain(heading.text).slice(0, 60);
    return lines.some(
      (line, index) => line.startsWith(`${'#'.repeat(heading.level)} `) && plainLines[index]?.includes(text),
    );
  };
  const itemFound = (item: string): boolean => {
    const text = plain(item).slice(0, 40);
    return lines.some((line, index) => /^\s*([-*+]|\d+\.)\s/.test(line) && (plainLines[index] ?? '').includes(text));
  };
  const flat = plain(markdown);
  const seen = words(flat);
  let covered = 0;
  let total = 0;
  for (const [word, count] of words(facts.inner_text)) {
    total += count;
    covered += Math.min(count, seen.get(word) ?? 0);
  }
  return {
    page,
    converter,
    chars: markdown.length,
    gfm_tables: share(Math.min(separators.length, facts.tables), facts.tables),
    html_left: /<\/?(table|tr|td|th|div|span)\b/i.test(markdown),
    links: share(facts.links.filter((link) => markdown.includes(`](${link.href}`)).length, facts.links.length),
    headings: share(facts.headings.filter(headingFound).length, facts.headings.length),
    list_items: share(facts.items.filter(itemFound).length, facts.items.length),
    leaked: share(facts.forbidden.filter((text) => flat.includes(plain(text))).length, facts.forbidden.length),
    text_coverage: round(total === 0 ? 1 : covered / total, 3),
  };
}

async function bundle(entry: string): Promise<string> {
  // esbuild stays outside the bench bundle (a native binary): loaded here, from the checkout.
  const { build } = await import('esbuild');
  const result = await build({
    ...(entry.endsWith('.ts')
      ? { entryPoints: [entry] }
      : { stdin: { contents: entry, resolveDir: process.cwd(), loader: 'ts' as const } }),
    bundle: true,
    write: false,
    format: 'iife',
    target: 'chrome125',
    minify: true,
    legalComments: 'none',
  });
  return result.outputFiles[0]?.text ?? '';
}

function sizes(candidate: string): BundleSizes {
  return {
    in_page_script_bytes: PAGE_SOURCE.length,
    in_page_script_gzip: gzipSync(PAGE_SOURCE).length,
    turndown_with_gfm_bytes: candidate.length,
    turndown_with_gfm_gzip: gzipSync(candidate).length,
  };
}

/**
 * extract's HTML-to-markdown converter beside turndown 7.2.5 with turndown-plugin-gfm 1.0.2, both run in
 * the page on the same reading of it (visible elements, shadow roots and same-origin frames) and timed
 * there, interleaved, on the benchmark pages and on real-shaped ones; each output checked mechanically
 * against the page (GFM tables, links, headings, list items, script/style/hidden text, word coverage).
 */
export async function benchExtract(
  pages: PageServer,
  options: { runs: number; pageNames: string[] },
): Promise<{ timings: ExtractTimingRow[]; quality: ExtractQualityRow[]; bundle: BundleSizes }> {
  const real = realPages();
  for (const [name, html] of Object.entries(real)) {
    pages.addPage(name, html);
  }
  const script = await bundle('bench/extract/in-page.ts');
  const library = await bundle(
    "import TurndownService from 'turndown'; import { gfm } from 'turndown-plugin-gfm'; new TurndownService().use(gfm);",
  );
  const outputs = resolve(process.cwd(), 'bench/out/extract');
  mkdirSync(outputs, { recursive: true });
  const sides = await openSides('bench-extract');
  const timings: ExtractTimingRow[] = [];
  const quality: ExtractQualityRow[] = [];
  try {
    for (const name of [...options.pageNames, ...Object.keys(real)]) {
      await sides.command('navigate', { url: pages.url(name), timeout_ms: 60_000 });
      await sides.evaluate(SETTLE);
      await sides.evaluate(`${script};0`);
      const facts = await sides.evaluate<PageFacts>(`globalThis.${BENCH_GLOBAL}.facts()`);
      const run = (converter: Converter): Promise<{ ms: number; markdown: string }> =>
        sides.evaluate(`globalThis.${BENCH_GLOBAL}.run(${JSON.stringify(converter)})`);
      const samples = { ours: [] as number[], turndown: [] as number[], ratio: [] as number[], action: [] as number[] };
      const last: Record<Converter, string> = { ours: '', turndown: '' };
      // One discarded call each (compilation, first layout), then interleaved runs in alternating order.
      await run('ours');
      await run('turndown');
      for (let index = 0; index < options.runs; index++) {
        const order: Converter[] = index % 2 === 0 ? ['ours', 'turndown'] : ['turndown', 'ours'];
        const ms: Record<Converter, number> = { ours: 0, turndown: 0 };
        for (const converter of order) {
          await sides.evaluate(SETTLE);
          const result = await run(converter);
          ms[converter] = result.ms;
          last[converter] = result.markdown;
          samples[converter].push(result.ms);
        }
        samples.ratio.push(ms.turndown / Math.max(ms.ours, 0.001));
        const started = performance.now();
        await sides.command('extract', { max_chars: 1_000_000 });
        samples.action.push(performance.now() - started);
      }
      timings.push({
        page: name,
        ours_median_ms: round(median(samples.ours), 1),
        ours_p90_ms: round(percentile(samples.ours, 90), 1),
        turndown_median_ms: round(median(samples.turndown), 1),
        turndown_p90_ms: round(percentile(samples.turndown, 90), 1),
        turndown_vs_ours: round(median(samples.ratio), 2),
        extract_action_ms: round(median(samples.action), 1),
      });
      quality.push(qualityOf(name, 'ours', last.ours, facts), qualityOf(name, 'turndown', last.turndown, facts));
      // The outputs themselves, to read beside the checks.
      for (const converter of ['ours', 'turndown'] as const) {
        writeFileSync(resolve(outputs, `${name}.${converter}.md`), last[converter]);
      }
      writeFileSync(resolve(outputs, `${name}.inner-text.txt`), facts.inner_text);
      process.stdout.write(`  ${name}: done\n`);
    }
  } finally {
    await sides.close();
  }
  return { timings, quality, bundle: sizes(library) };
}
