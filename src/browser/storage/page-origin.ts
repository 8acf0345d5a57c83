import type { CdpSession } from '../../cdp/session';
import { TabpilotError } from '../../shared/errors';

/** The main frame's URL as the browser has it (the page's script cannot disguise it). */
export async function pageUrlOf(session: CdpSession): Promise<string> {
  const { frameTree } = await session.send('Page.getFrameTree');
  return frameTree.frame.url;
}

/**
 * The origin of a tab's page, when that page is on http(s). Anything else (about:blank, a file, data:,
 * chrome://) has an opaque or shared origin, so what is stored "for" it belongs to no site the client owns:
 * refused as INVALID_PARAMS naming tab_id, the message ending with `refusal`.
 */
export function httpOrigin(pageUrl: string, refusal: string): string {
  let url: URL;
  try {
    url = new URL(pageUrl);
  } catch {
    // An address that does not parse is no http(s) page either: refused below with the others.
    url = new URL('about:invalid');
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    throw new TabpilotError('INVALID_PARAMS', `tab_id: the tab is on ${pageUrl || 'no page'}, which ${refusal}`, {
      details: { field: 'tab_id' },
    });
  }
  return url.origin;
}
