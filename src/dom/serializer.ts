import type { PlacedElement, PlacedLine } from './capture';
import type { PageMetrics } from './payload';

/** One indexed element: what the model is told, and where an action finds it again. */
export interface SelectorEntry {
  index: number;
  tag: string;
  role: string | null;
  name: string;
  attributes: Record<string, string>;
  /** Top-level viewport box in CSS px when the state was taken. */
  box: { x: number; y: number; width: number; height: number };
  isNew: boolean;
  targetId: string;
  sessionId: string;
  contextId: number;
  localId: number;
  frameOffset: [number, number];
}

export interface SerializeOptions {
  /** Character budget for the text; 0 turns it off. */
  maxChars: number;
  /** Whether the lines cover the whole page (else the viewport and its margin). */
  wholePage: boolean;
  /** Extra px around the viewport that the lines cover when not the whole page. */
  viewportExpansion: number;
}

export interface Serialized {
  text: string;
  entries: SelectorEntry[];
  truncated: boolean;
}

/** Prefix of a scroll container. The system prompt's `|SCROLL|` (browser-use prints another marker). */
const SCROLL_MARK = '|SCROLL|';

function pages(value: number): string {
  return value.toFixed(1);
}

function scrollSuffix(scroll: [number, number, number, number]): string {
  const [above, below, left, right] = scroll;
  const parts: string[] = [];
  if (above > 0 || below > 0) {
    parts.push(`${pages(above)} pages above`, `${pages(below)} pages below`);
  }
  if (left > 0 || right > 0) {
    parts.push(`${pages(left)} pages left`, `${pages(right)} pages right`);
  }
  return parts.length === 0 ? '' : ` (${parts.join(', ')})`;
}

function quote(value: string): string {
  return value === '' ? "''" : value;
}

/** State flags print as a bare name when true and not at all when false (the model reads `checked`). */
const FLAGS = new Set(['checked', 'required', 'readonly', 'multiple', 'open', 'selected', 'disabled']);

function attributeText([name, value]: [string, string]): string {
  if (FLAGS.has(name) && (value === 'true' || value === 'false')) {
    return value === 'true' ? ` ${name}` : '';
  }
  return ` ${name}=${quote(value)}`;
}

/** Attributes that only name the element: left out when its first text already says the same. */
const NAMING = new Set(['aria-label', 'title']);

function elementText(line: PlacedElement, index: number | undefined, firstText: string | null): string {
  const said = firstText?.trim().toLowerCase();
  const attributes = line.attributes
    .filter(([name, value]) => !(NAMING.has(name) && value.trim().toLowerCase() === said))
    .map(attributeText)
    .join('');
  const prefix =
    (index !== undefined && line.isNew ? '*' : '') +
    (line.shadow !== null ? `|SHADOW(${line.shadow})|` : '') +
    (line.frame !== null ? '|IFRAME|' : '') +
    (line.scroll !== null ? SCROLL_MARK : '');
  const suffix = line.scroll === null ? '' : scrollSuffix(line.scroll);
  return `${prefix}${index === undefined ? '' : `[${index}]`}<${line.tag}${attributes} />${suffix}`;
}

/**
 * Whether an element's first text is all it holds (the line after that is back at the element's depth),
 * so it follows the tag on the same line: `[4]<button /> Save` rather than the tag, a newline and the
 * text indented below it; a few characters less per element (most buttons and links) for the same
 * reading. Scroll containers and iframes keep their content below them.
 */
function holdsOnlyText(line: PlacedElement, after: PlacedLine | undefined): boolean {
  return line.scroll === null && line.frame === null && (after === undefined || after.depth <= line.depth);
}

/** Where the page stands relative to the captured window: the first and last line of the text. */
function edges(metrics: PageMetrics, options: SerializeOptions): { start: string; end: string } {
  if (options.wholePage) {
    return { start: '[Start of page]', end: '[End of page]' };
  }
  const reach = Math.max(options.viewportExpansion, 0);
  const above = metrics.scrollY - reach;
  const below = metrics.pageHeight - (metrics.scrollY + metrics.viewportHeight) - reach;
  const height = Math.max(metrics.viewportHeight, 1);
  return {
    start: above > 1 ? `... ${pages(above / height)} pages above - scroll up to see more ...` : '[Start of page]',
    end: below > 1 ? `... ${pages(below / height)} pages below - scroll down to see more ...` : '[End of page]',
  };
}

/**
 * The LLM form (browser-use's, with its mismatches fixed): one line per printed element, tabs for depth
 * (depth grows only below printed elements), `*` on elements new since the previous state, `[Start of
 * page]` / `[End of page]` or how much lies beyond, and a character budget with a note when it cuts.
 */
export function serialize(
  lines: readonly PlacedLine[],
  metrics: PageMetrics,
  targetId: string,
  indexOf: (line: PlacedElement) => number | undefined,
  options: SerializeOptions,
): Serialized {
  const { start, end } = edges(metrics, options);
  const out: string[] = [start];
  const entries: SelectorEntry[] = [];
  let length = start.length;
  let truncatedAt = -1;
  for (let position = 0; position < lines.length; position++) {
    const lineStart = position;
    const line = lines[position] as PlacedLine;
    let text: string;
    let entry: SelectorEntry | undefined;
    switch (line.kind) {
      case 'element': {
        const index = line.id === undefined || line.frame !== null ? undefined : indexOf(line);
        const next = lines[position + 1];
        const firstText = next?.kind === 'text' && next.depth === line.depth + 1 ? next.text : null;
        text = elementText(line, index, firstText);
        if (firstText !== null && holdsOnlyText(line, lines[position + 2])) {
          text += ` ${firstText}`;
          position++;
        }
        if (index !== undefined && line.id !== undefined) {
          entry = {
            index,
            tag: line.tag,
            role: line.role,
            name: line.name,
            attributes: Object.fromEntries(line.attributes),
            box: { x: line.box[0], y: line.box[1], width: line.box[2], height: line.box[3] },
            isNew: line.isNew,
            targetId,
            sessionId: line.sessionId,
            contextId: line.contextId,
            localId: line.id,
            frameOffset: line.frameOffset,
          };
        }
        break;
      }
      case 'text':
        text = line.text;
        break;
      case 'closed-host':
        continue;
    }
    const rendered = `${'\t'.repeat(line.depth)}${text}`;
    if (options.maxChars > 0 && length + rendered.length + 1 > options.maxChars) {
      truncatedAt = lineStart;
      break;
    }
    out.push(rendered);
    length += rendered.length + 1;
    if (entry !== undefined) {
      entries.push(entry);
    }
  }
  if (truncatedAt >= 0) {
    const rest = lines.slice(truncatedAt);
    const elements = rest.filter(
      (line) => line.kind === 'element' && line.id !== undefined && line.frame === null,
    ).length;
    out.push(
      `... (truncated at ${options.maxChars} characters: ${rest.length} more lines with ${elements} more elements; scroll, or use find_elements or search_page)`,
    );
  } else {
    out.push(end);
  }
  return { text: out.join('\n'), entries, truncated: truncatedAt >= 0 };
}
