/**
 * What the extract benchmark installs in the page (bundled at bench time): both converters, timed in
 * the page itself so the figures are the conversion alone, and the facts of the page the outputs are
 * checked against.
 */
import { eachChild, markdown, SKIP, visible } from '../../src/dom/in-page/extract';
import type { MarkdownOptions } from '../../src/dom/payload';
import { BENCH_GLOBAL, type Converter, type PageFacts } from './contract';
import { turndownMarkdown } from './turndown-candidate';

const OPTIONS: MarkdownOptions = { extractLinks: true, extractImages: false, startFromChar: 0, maxChars: 10_000_000 };

const squash = (text: string): string => text.replace(/\s+/g, ' ').trim();

/** Every element of the page, open shadow roots and same-origin frames included, as the converter walks them. */
function elements(root: Node, out: Element[] = []): Element[] {
  eachChild(root, (child) => {
    if (child.nodeType === Node.ELEMENT_NODE) {
      out.push(child as Element);
    }
    if (child.nodeType === Node.ELEMENT_NODE || child.nodeType === Node.DOCUMENT_FRAGMENT_NODE) {
      elements(child, out);
    }
  });
  return out;
}

function facts(): PageFacts {
  const all = elements(document.body);
  const shown = all.filter((element) => !SKIP.has(element.localName) && visible(element));
  const innerText = squash(document.body.innerText);
  const forbidden = all
    .filter((element) => ['script', 'style'].includes(element.localName) || !visible(element))
    .map((element) => squash(element.textContent ?? ''))
    .filter((text) => text.length >= 24)
    .map((text) => text.slice(0, 40));
  return {
    tables: shown.filter((element) => element.localName === 'table').length,
    links: shown
      .filter((element): element is HTMLAnchorElement => element.localName === 'a')
      .filter((link) => link.getAttribute('href') !== null && !link.href.startsWith('javascript:'))
      .map((link) => ({ text: squash(link.textContent ?? ''), href: link.href }))
      .filter((link) => link.text !== ''),
    headings: shown
      .filter((element) => /^h[1-6]$/.test(element.localName))
      .map((element) => ({ level: Number(element.localName[1]), text: squash(element.textContent ?? '') }))
      .filter((heading) => heading.text !== ''),
    items: shown
      .filter((element) => element.localName === 'li')
      .map((element) => squash(element.firstChild?.textContent ?? ''))
      .filter((text) => text.length >= 3),
    // Text that is also shown somewhere (the same words in a visible paragraph) is not forbidden.
    forbidden: [...new Set(forbidden)].filter((text) => !innerText.includes(text)),
    inner_text: document.body.innerText,
  };
}

function run(converter: Converter): { ms: number; markdown: string } {
  const started = performance.now();
  const text = converter === 'ours' ? markdown(OPTIONS).markdown : turndownMarkdown(OPTIONS);
  return { ms: performance.now() - started, markdown: text };
}

(globalThis as Record<string, unknown>)[BENCH_GLOBAL] = { run, facts };
