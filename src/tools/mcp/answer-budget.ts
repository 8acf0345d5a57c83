import type { McpResourceLink } from './mcp-shapes';

/** Where big answers go: a file the client can read, linked from the answer instead of sent in it. */
export interface OutputFiles {
  /** Writes a new file (never over another) and answers its link. */
  write(name: string, content: { text: string } | { base64: string }, mimeType: string): Promise<McpResourceLink>;
  /** A link to a file the browser side saved itself (a PDF, a screenshot's file_name). */
  linkTo(path: string, mimeType: string): McpResourceLink;
}

/** About 10,000 tokens at 4 characters a token: a tenth of a 100k window, well under clients' caps. */
export const DEFAULT_ANSWER_CHARS = 40_000;

/**
 * The first `budget` characters of a text, cut at a line end where one is near, so a preview never
 * ends inside an element's line.
 */
export function previewOf(text: string, budget: number): string {
  if (text.length <= budget) {
    return text;
  }
  const cut = text.lastIndexOf('\n', budget);
  return text.slice(0, cut > budget * 0.8 ? cut : budget);
}

/** Characters and the usual estimate of tokens (4 characters a token) of an answer. */
export function estimateTokens(chars: number): number {
  return Math.ceil(chars / 4);
}
