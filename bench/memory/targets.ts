/**
 * What the issue asks of each tabpilot side after the whole-page states: Node's RSS at most +150 MB over
 * idle, the worker's JS heap +50 MB (a service worker has no process of its own to read RSS from), and
 * the page flat, under 2 MB of growth from its first state. Playwright MCP has none: it is the peer.
 */
export const MEMORY_TARGETS: Record<string, { field: 'rss' | 'heap'; mb: number }> = {
  node: { field: 'rss', mb: 150 },
  extension: { field: 'heap', mb: 50 },
};

export const PAGE_FLAT_MB = 2;
