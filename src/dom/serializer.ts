import type { CapturedFrame, PageCapture } from './capture';
import type { PageMetrics } from './payload';
import { attributesOf, extraOf, idOf, isElementLine, type PackedElement, type PackedLine } from './wire';

/**
 * One indexed element of a tab's latest state: what the model is told about it, and where an action
 * finds it again (its frame's session and world, and its id there). It outlives the capture (the
 * packed lines are dropped once serialized) and is what an index resolves through; the state's public
 * `elements` are its snake_case, client-facing part.
 */
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
}

/** What the serializer reads of a capture. */
export type SerializerInput = Pick<PageCapture, 'lines' | 'frameOf' | 'frames' | 'cut'>;

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

function elementText(line: PackedElement, index: number | undefined, firstText: string | null): string {
  const said = firstText?.trim().toLowerCase();
  const { scroll, shadow, frame } = extraOf(line);
  const attributes = attributesOf(line)
    .filter(([name, value]) => !(NAMING.has(name) && value.trim().toLowerCase() === said))
    .map(attributeText)
    .join('');
  const prefix =
    (index !== undefined && line[4] === 1 ? '*' : '') +
    (shadow !== null ? `|SHADOW(${shadow})|` : '') +
    (frame !== null ? '|IFRAME|' : '') +
    (scroll !== null ? SCROLL_MARK : '');
  const suffix = scroll === null ? '' : scrollSuffix(scroll);
  return `${prefix}${index === undefined ? '' : `[${index}]`}<${line[2]}${attributes} />${suffix}`;
}

/**
 * Whether an element's first text is all it holds (the line after that is back at the element's depth),
 * so it follows the tag on the same line: `[4]<button /> Save` rather than the tag, a newline and the
 * text indented below it; a few characters less per element (most buttons and links) for the same
 * reading. Scroll containers and iframes keep their content below them.
 */
function holdsOnlyText(line: PackedElement, after: PackedLine | undefined): boolean {
  const { scroll, frame } = extraOf(line);
  return scroll === null && frame === null && (after === undefined || after[1] <= line[1]);
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
 * What the budget left out: counted where the walk read the whole page; where it stopped at the budget
 * (not reading what would be cut), only that the page goes on.
 */
function whatIsLeft({ lines, cut }: SerializerInput, truncatedAt: number): string {
  if (cut) {
    return 'more of the page follows';
  }
  const rest = lines.slice(truncatedAt);
  const elements = rest.filter(
    (line) => isElementLine(line) && idOf(line) !== undefined && extraOf(line).frame === null,
  ).length;
  return `${rest.length} more lines with ${elements} more elements`;
}

/**
 * The LLM form (browser-use's, with its mismatches fixed): one line per printed element, tabs for depth
 * (depth grows only below printed elements), `*` on elements new since the previous state, `[Start of
 * page]` / `[End of page]` or how much lies beyond, and a character budget with a note when it cuts.
 */
export function serialize(
  capture: SerializerInput,
  metrics: PageMetrics,
  targetId: string,
  indexOf: (frame: CapturedFrame, id: number) => number,
  options: SerializeOptions,
): Serialized {
  const { lines, frameOf, frames } = capture;
  const { start, end } = edges(metrics, options);
  const out: string[] = [start];
  const entries: SelectorEntry[] = [];
  let length = start.length;
  let truncatedAt = -1;
  for (let position = 0; position < lines.length; position++) {
    const lineStart = position;
    const line = lines[position] as PackedLine;
    let text: string;
    let entry: SelectorEntry | undefined;
    switch (line[0]) {
      case 1: {
        const id = idOf(line);
        const frame = frames[frameOf[position] ?? -1];
        const index =
          id === undefined || frame === undefined || extraOf(line).frame !== null ? undefined : indexOf(frame, id);
        const next = lines[position + 1];
        const firstText = next?.[0] === 0 && next[1] === line[1] + 1 ? next[2] : null;
        text = elementText(line, index, firstText);
        if (firstText !== null && holdsOnlyText(line, lines[position + 2])) {
          text += ` ${firstText}`;
          position++;
        }
        if (index !== undefined && id !== undefined && frame !== undefined) {
          entry = {
            index,
            tag: line[2],
            role: line[5],
            name: line[6],
            attributes: Object.fromEntries(attributesOf(line)),
            box: { x: line[8], y: line[9], width: line[10], height: line[11] },
            isNew: line[4] === 1,
            targetId,
            sessionId: frame.sessionId,
            contextId: frame.contextId,
            localId: id,
          };
        }
        break;
      }
      case 0:
        text = line[2];
        break;
      case 2:
        continue;
    }
    const rendered = `${'\t'.repeat(line[1])}${text}`;
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
    out.push(
      `... (truncated at ${options.maxChars} characters: ${whatIsLeft(capture, truncatedAt)}; scroll, or use find_elements or search_page)`,
    );
  } else {
    out.push(end);
  }
  return { text: out.join('\n'), entries, truncated: truncatedAt >= 0 };
}
