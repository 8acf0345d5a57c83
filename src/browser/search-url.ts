import type { SEARCH_ENGINES } from '../protocol/events/navigation.events';

const SEARCH_URLS: Record<(typeof SEARCH_ENGINES)[number], (query: string) => string> = {
  duckduckgo: (query) => `https://duckduckgo.com/?q=${encodeURIComponent(query)}`,
  google: (query) => `https://www.google.com/search?q=${encodeURIComponent(query)}&udm=14`,
  bing: (query) => `https://www.bing.com/search?q=${encodeURIComponent(query)}`,
};

/** The results page `search` goes to (also what an agent's approval judges it by). */
export function searchUrl(engine: (typeof SEARCH_ENGINES)[number], query: string): string {
  return SEARCH_URLS[engine](query);
}
