import type { CdpSession } from '../../cdp/session';
import { InPageError, pageFunctions } from '../../dom/page-bridge';
import { base64ToBytes } from '../../shared/bytes';
import { TabpilotError } from '../../shared/errors';
import type { InPageHandleFunctions, InPageValueFunctions } from '../actions/in-page-api';

/** A PDF may be large and its server slow: longer than a page call's usual bound. */
const PDF_READ = pageFunctions<InPageValueFunctions, InPageHandleFunctions>({ timeoutMs: 15_000 });

/** Reads the PDF a tab shows (the viewer's document URL), from the page so its cookies apply. */
export async function fetchPdfInPage(session: CdpSession, url: string): Promise<Uint8Array> {
  try {
    return base64ToBytes(await PDF_READ.callInFrame(session, 'fetchBase64', url));
  } catch (error) {
    if (error instanceof InPageError) {
      throw new TabpilotError('INTERNAL', `Could not read the PDF at ${url} from its page`, { cause: error });
    }
    throw error;
  }
}
