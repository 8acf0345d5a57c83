/**
 * Reading a page without a model: markdown of the visible content, a text search, and a CSS query.
 * Same isolated world as the collector; open shadow roots and same-origin iframes are included.
 */
import type {
  FindOptions,
  FoundElement,
  MarkdownOptions,
  MarkdownResult,
  SearchMatch,
  SearchOptions,
} from '../payload';
import { selectAll } from './locator';

export const SKIP = new Set([
  'script',
  'style',
  'noscript',
  'template',
  'head',
  'meta',
  'link',
  'svg',
  'canvas',
  'iframe',
  'select',
  'option',
]);
const BLOCK = new Set([
  'p',
  'div',
  'section',
  'article',
  'main',
  'header',
  'footer',
  'aside',
  'nav',
  'form',
  'fieldset',
  'figure',
  'blockquote',
  'dl',
  'dt',
  'dd',
  'address',
  'details',
  'summary',
]);

/** The body of a same-origin iframe; null for a cross-origin one, whose content is not readable from here. */
function frameBody(element: Element): HTMLElement | null {
  try {
    return (element as HTMLIFrameElement).contentDocument?.body ?? null;
  } catch {
    // Cross-origin: its content is not readable from here.
    return null;
  }
}

/**
 * Calls `visit` with each child of a node as a reader meets it: its shadow root's children, a same-origin
 * iframe's body, then its own children. No arrays are built: the walk over a 37,000-element page spent a
 * fifth of its time building them.
 */
export function eachChild(node: Node, visit: (child: Node) => void): void {
  const element = node as Element;
  const shadow = element.shadowRoot;
  if (shadow !== null && shadow !== undefined) {
    for (let child = shadow.firstChild; child !== null; child = child.nextSibling) {
      visit(child);
    }
  }
  if (element.localName === 'iframe') {
    const inner = frameBody(element);
    if (inner !== null) {
      visit(inner);
    }
  }
  for (let child = node.firstChild; child !== null; child = child.nextSibling) {
    visit(child);
  }
}

export function visible(element: Element): boolean {
  return element.checkVisibility({ visibilityProperty: true, opacityProperty: true });
}

export function absolute(href: string, base: string): string {
  try {
    return new URL(href, base).href;
  } catch {
    // Not a URL: keep what the page wrote.
    return href;
  }
}

/** h1 to h6: the heading's level, else 0. */
function headingLevel(tag: string): number {
  if (tag.length !== 2 || tag[0] !== 'h') {
    return 0;
  }
  const level = tag.charCodeAt(1) - 48;
  return level >= 1 && level <= 6 ? level : 0;
}

class MarkdownWriter {
  #parts: string[] = [];
  /** While a table cell is captured into parts of its own: the last part written before it. */
  #before: string | undefined = undefined;
  readonly #options: MarkdownOptions;

  constructor(options: MarkdownOptions) {
    this.#options = options;
  }

  text(): string {
    return this.#parts
      .join('')
      .replace(/[ \t]+\n/g, '\n')
      .replace(/\n{3,}/g, '\n\n')
      .trim();
  }

  /**
   * What `write` writes, taken out of the text: a table cell, written on its own line afterwards. It
   * is written into parts of its own (cutting it out of the page's parts copied them on every cell).
   */
  #captured(write: () => void): string {
    const outer = this.#parts;
    const outerBefore = this.#before;
    this.#before = this.#last();
    this.#parts = [];
    try {
      write();
      return this.#parts.join('');
    } finally {
      this.#parts = outer;
      this.#before = outerBefore;
    }
  }

  /** The last part written, a captured cell's or before it. */
  #last(): string | undefined {
    return this.#parts.length > 0 ? this.#parts[this.#parts.length - 1] : this.#before;
  }

  block(start: string): void {
    this.#parts.push(`\n\n${start}`);
  }

  inline(text: string): void {
    this.#parts.push(text);
  }

  walk(node: Node, listDepth: number): void {
    if (node.nodeType === Node.TEXT_NODE) {
      const value = (node.nodeValue ?? '').replace(/\s+/g, ' ');
      if (value.trim() !== '') {
        this.inline(value);
      } else if (value !== '' && !/\s$/.test(this.#last() ?? '\n')) {
        // Whitespace between two inline elements separates their words (<b>One</b> <b>Two</b>).
        this.inline(' ');
      }
      return;
    }
    if (node.nodeType !== Node.ELEMENT_NODE && node.nodeType !== Node.DOCUMENT_FRAGMENT_NODE) {
      return;
    }
    const element = node as Element;
    const tag = element.localName ?? '';
    if (SKIP.has(tag) || (node.nodeType === Node.ELEMENT_NODE && !visible(element))) {
      return;
    }
    const level = headingLevel(tag);
    if (level > 0) {
      this.block(`${'#'.repeat(level)} `);
      this.#children(element, listDepth);
      this.block('');
      return;
    }
    switch (tag) {
      case 'br':
        this.inline('\n');
        return;
      case 'hr':
        this.block('---\n\n');
        return;
      case 'img': {
        if (this.#options.extractImages) {
          const base = element.ownerDocument?.baseURI ?? '';
          this.inline(`![${element.getAttribute('alt') ?? ''}](${absolute(element.getAttribute('src') ?? '', base)})`);
        }
        return;
      }
      case 'a': {
        const href = element.getAttribute('href');
        if (this.#options.extractLinks && href !== null && !href.startsWith('javascript:')) {
          this.inline('[');
          this.#children(element, listDepth);
          this.inline(`](${absolute(href, element.ownerDocument?.baseURI ?? '')})`);
        } else {
          this.#children(element, listDepth);
        }
        return;
      }
      case 'strong':
      case 'b':
        this.inline('**');
        this.#children(element, listDepth);
        this.inline('**');
        return;
      case 'em':
      case 'i':
        this.inline('_');
        this.#children(element, listDepth);
        this.inline('_');
        return;
      case 'code':
        this.inline('`');
        this.inline(element.textContent ?? '');
        this.inline('`');
        return;
      case 'pre':
        this.block(`\`\`\`\n${element.textContent ?? ''}\n\`\`\`\n\n`);
        return;
      case 'ul':
      case 'ol':
        this.block('');
        for (const [position, item] of Array.from(element.children).entries()) {
          if (item.localName === 'li' && visible(item)) {
            this.inline(`\n${'  '.repeat(listDepth)}${tag === 'ol' ? `${position + 1}.` : '-'} `);
            this.#children(item, listDepth + 1);
          }
        }
        this.block('');
        return;
      case 'table':
        this.#table(element as HTMLTableElement);
        return;
      case 'input': {
        const input = element as HTMLInputElement;
        if (input.type !== 'hidden' && input.type !== 'password' && input.value !== '') {
          this.inline(` [${input.value}] `);
        }
        return;
      }
      default:
        break;
    }
    if (BLOCK.has(tag) || tag === 'li' || tag === 'tr') {
      this.block('');
      this.#children(element, listDepth);
      this.block('');
      return;
    }
    this.#children(element, listDepth);
  }

  #children(element: Node, listDepth: number): void {
    eachChild(element, (child) => this.walk(child, listDepth));
  }

  #table(table: HTMLTableElement): void {
    const rows = Array.from(table.rows).filter((row) => visible(row));
    if (rows.length === 0) {
      return;
    }
    // GFM tables have no caption: it goes above the table as a line of its own.
    const caption = table.caption;
    if (caption !== null && visible(caption)) {
      this.block('');
      this.#children(caption, 0);
      this.block('');
    }
    // A cell keeps its links, code and emphasis: its content is written like any other, on one line.
    const cell = (value: Element): string =>
      this.#captured(() => this.#children(value, 0))
        .replace(/\s+/g, ' ')
        .trim()
        .replace(/\|/g, '\\|');
    const lines = rows.map((row) => `| ${Array.from(row.cells).map(cell).join(' | ')} |`);
    const width = rows[0]?.cells.length ?? 0;
    lines.splice(1, 0, `|${' --- |'.repeat(width)}`);
    this.block(`${lines.join('\n')}\n\n`);
  }
}

export function markdown(options: MarkdownOptions): MarkdownResult {
  const writer = new MarkdownWriter(options);
  if (document.body !== null) {
    writer.walk(document.body, 0);
  }
  const full = writer.text();
  const start = Math.min(Math.max(options.startFromChar, 0), full.length);
  const end = Math.min(full.length, start + options.maxChars);
  return {
    url: location.href,
    title: document.title,
    markdown: full.slice(start, end),
    total_chars: full.length,
    start_from_char: start,
    next_start_char: end < full.length ? end : null,
  };
}

/** Every text node under a root, shadow roots and same-origin frames included, with its element. */
function textNodes(root: Node): Array<{ text: Text; element: Element }> {
  const out: Array<{ text: Text; element: Element }> = [];
  const visit = (node: Node): void => {
    eachChild(node, (child) => {
      if (child.nodeType === Node.TEXT_NODE) {
        const parent = child.parentElement;
        if (
          parent !== null &&
          !SKIP.has(parent.localName) &&
          (child.nodeValue ?? '').trim() !== '' &&
          visible(parent)
        ) {
          out.push({ text: child as Text, element: parent });
        }
      } else if (child.nodeType === Node.ELEMENT_NODE || child.nodeType === Node.DOCUMENT_FRAGMENT_NODE) {
        if (!SKIP.has((child as Element).localName ?? '')) {
          visit(child);
        }
      }
    });
  };
  visit(root);
  return out;
}

function pathOf(element: Element): string {
  const parts: string[] = [];
  for (let node: Element | null = element; node !== null && parts.length < 4; node = node.parentElement) {
    parts.unshift(`${node.localName}${node.id === '' ? '' : `#${node.id}`}`);
  }
  return parts.join(' > ');
}

export function search(options: SearchOptions): { matches: SearchMatch[]; total: number } {
  const scope = options.cssScope === null ? document.body : document.querySelector(options.cssScope);
  if (scope === null) {
    throw new Error(`css_scope ${options.cssScope} matches nothing`);
  }
  const nodes = textNodes(scope);
  const whole = nodes.map((node) => node.text.nodeValue ?? '').join(' ');
  const flags = options.caseSensitive ? 'g' : 'gi';
  const pattern = new RegExp(
    options.regex ? options.pattern : options.pattern.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'),
    flags,
  );
  const starts: number[] = [];
  let offset = 0;
  for (const node of nodes) {
    starts.push(offset);
    offset += (node.text.nodeValue ?? '').length + 1;
  }
  const matches: SearchMatch[] = [];
  let total = 0;
  for (const found of whole.matchAll(pattern)) {
    if (found[0] === '') {
      continue;
    }
    total++;
    if (matches.length >= options.maxResults) {
      continue;
    }
    const at = found.index ?? 0;
    let nodeIndex = starts.findIndex(
      (start, i) => at >= start && (i === starts.length - 1 || at < (starts[i + 1] ?? Infinity)),
    );
    nodeIndex = Math.max(nodeIndex, 0);
    const element = nodes[nodeIndex]?.element;
    matches.push({
      match: found[0],
      context: whole
        .slice(Math.max(0, at - options.contextChars), at + found[0].length + options.contextChars)
        .replace(/\s+/g, ' ')
        .trim(),
      element_path: element === undefined ? '' : pathOf(element),
    });
  }
  return { matches, total };
}

export function find(
  options: FindOptions,
  idOf: (element: Element) => number | undefined,
): { elements: FoundElement[]; total: number } {
  const all = selectAll(options.selector);
  const elements = all.slice(0, options.maxResults).map((element): FoundElement => {
    const attributes: Record<string, string> = {};
    for (const name of options.attributes) {
      const value =
        name === 'href' || name === 'src' ? (element as HTMLAnchorElement)[name as 'href'] : element.getAttribute(name);
      if (value !== null && value !== undefined && value !== '') {
        attributes[name] = String(value);
      }
    }
    const found: FoundElement = {
      tag: element.localName,
      attributes,
      children: element.childElementCount,
      id: idOf(element) ?? null,
    };
    if (options.includeText) {
      found.text = (element.textContent ?? '').replace(/\s+/g, ' ').trim().slice(0, 300);
    }
    return found;
  });
  return { elements, total: all.length };
}
