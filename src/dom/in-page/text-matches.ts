/**
 * The pure half of `find`: matching a pattern over a document's text pieces (its text nodes in order)
 * and cutting each match's context line. No DOM here, so it is unit-tested on plain strings.
 */

export interface PatternSpec {
  /** Plain text, matched literally. */
  text?: string | undefined;
  /** A JavaScript regular expression source (no slashes, no flags). */
  regex?: string | undefined;
  caseSensitive: boolean;
}

export interface TextMatch {
  /** The matched text as it stands in the joined, whitespace-collapsed text. */
  text: string;
  /** The pieces holding the match's first and last character. */
  first: number;
  last: number;
  /** The match with up to `contextChars` either side, whitespace collapsed, trimmed. */
  context: string;
}

/** The RegExp a spec stands for (global: every match is counted). Throws on a bad regex source. */
export function patternOf(spec: PatternSpec): RegExp {
  const flags = spec.caseSensitive ? 'g' : 'gi';
  if (spec.regex !== undefined) {
    return new RegExp(spec.regex, flags);
  }
  return new RegExp((spec.text ?? '').replace(/[.*+?^${}()|[\]\\]/g, '\\$&'), flags);
}

/**
 * The pieces joined as a person reads them: each piece's whitespace runs collapsed to one space, and
 * one space between pieces (a text node boundary is usually an element's), never two in a row.
 * `starts[i]` is where piece i begins in `whole`.
 */
export function joinPieces(pieces: readonly string[]): { whole: string; starts: number[] } {
  let whole = '';
  const starts: number[] = [];
  for (const piece of pieces) {
    let text = piece.replace(/\s+/g, ' ');
    if (whole !== '' && !whole.endsWith(' ')) {
      whole += ' ';
    }
    if (whole.endsWith(' ') && text.startsWith(' ')) {
      text = text.slice(1);
    }
    starts.push(whole.length);
    whole += text;
  }
  return { whole, starts };
}

/** The piece holding position `at` of the joined text (the last piece starting at or before it). */
export function pieceAt(starts: readonly number[], at: number): number {
  let low = 0;
  let high = starts.length - 1;
  while (low < high) {
    const middle = Math.ceil((low + high) / 2);
    if ((starts[middle] ?? 0) <= at) {
      low = middle;
    } else {
      high = middle - 1;
    }
  }
  return low;
}

/** The match with `chars` either side, on word-agnostic character bounds, collapsed and trimmed. */
export function contextLine(whole: string, at: number, length: number, chars: number): string {
  return whole
    .slice(Math.max(0, at - chars), at + length + chars)
    .replace(/\s+/g, ' ')
    .trim();
}

/**
 * Every non-empty match of the pattern over the joined pieces: all are counted in `total`, the first
 * `limit` are returned with the pieces they span and their context.
 */
export function matchPieces(
  pieces: readonly string[],
  pattern: RegExp,
  limit: number,
  contextChars: number,
): { matches: TextMatch[]; total: number } {
  const { whole, starts } = joinPieces(pieces);
  const matches: TextMatch[] = [];
  let total = 0;
  for (const found of whole.matchAll(pattern)) {
    const text = found[0];
    if (text === '') {
      continue;
    }
    total++;
    if (matches.length < limit) {
      const at = found.index;
      matches.push({
        text,
        first: pieceAt(starts, at),
        last: pieceAt(starts, at + text.length - 1),
        context: contextLine(whole, at, text.length, contextChars),
      });
    }
  }
  return { matches, total };
}
