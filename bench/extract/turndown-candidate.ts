/**
 * The turndown candidate for `extract`, as it would run in the page: the same reading of the page as the
 * hand-written converter (visible elements only, the same skipped tags, open shadow roots and
 * same-origin frames inlined, links and images made absolute, a filled field's value kept) copied into
 * a detached tree, which turndown with its GFM plugin turns into markdown. turndown reads no layout, so
 * what is hidden has to be left out before it sees the tree.
 */
import TurndownService from 'turndown';
import { gfm } from 'turndown-plugin-gfm';
import { absolute, eachChild, SKIP, visible } from '../../src/dom/in-page/extract';
import type { MarkdownOptions } from '../../src/dom/payload';

/** A copy of what the converter would read under `node`, or null when it reads nothing there. */
function readableCopy(node: Node, into: Document): Node | null {
  if (node.nodeType === Node.TEXT_NODE) {
    return into.createTextNode(node.nodeValue ?? '');
  }
  if (node.nodeType !== Node.ELEMENT_NODE && node.nodeType !== Node.DOCUMENT_FRAGMENT_NODE) {
    return null;
  }
  const element = node as Element;
  const tag = element.localName ?? '';
  if (node.nodeType === Node.ELEMENT_NODE && (SKIP.has(tag) || !visible(element))) {
    return null;
  }
  if (tag === 'input') {
    const input = element as HTMLInputElement;
    return input.type !== 'hidden' && input.type !== 'password' && input.value !== ''
      ? into.createTextNode(` [${input.value}] `)
      : null;
  }
  // A shadow root or a frame's body becomes a plain container in the copy.
  const copy: Element =
    node.nodeType === Node.DOCUMENT_FRAGMENT_NODE || tag === 'body'
      ? into.createElement('div')
      : into.importNode(element, false);
  const base = element.ownerDocument?.baseURI ?? '';
  for (const name of ['href', 'src']) {
    const value = copy.getAttribute(name);
    if (value !== null) {
      copy.setAttribute(name, absolute(value, base));
    }
  }
  eachChild(node, (child) => {
    const inner = readableCopy(child, into);
    if (inner !== null) {
      copy.appendChild(inner);
    }
  });
  return copy;
}

function service(options: MarkdownOptions): TurndownService {
  const turndown = new TurndownService({
    headingStyle: 'atx',
    codeBlockStyle: 'fenced',
    bulletListMarker: '-',
    emDelimiter: '_',
    hr: '---',
  });
  turndown.use(gfm);
  turndown.addRule('links', {
    filter: (node) => node.nodeName === 'A' && node.getAttribute('href') !== null,
    replacement: (content, node) => {
      const href = (node as Element).getAttribute('href') ?? '';
      return options.extractLinks && !href.startsWith('javascript:') && content.trim() !== ''
        ? `[${content}](${href})`
        : content;
    },
  });
  if (!options.extractImages) {
    turndown.remove('img');
  }
  return turndown;
}

/** The page's main document as markdown through turndown (the whole text; chunking is the caller's). */
export function turndownMarkdown(options: MarkdownOptions): string {
  if (document.body === null) {
    return '';
  }
  const detached = document.implementation.createHTMLDocument('');
  const copy = readableCopy(document.body, detached);
  return copy === null ? '' : service(options).turndown(copy as HTMLElement);
}
