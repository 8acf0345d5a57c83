import type { CdpSession } from '../../cdp/session';
import { base64ToBytes } from '../../shared/bytes';
import { TabpilotError } from '../../shared/errors';

/** Reads the PDF a tab shows (the viewer's document URL), from the page so its cookies apply. */
export async function fetchPdfInPage(session: CdpSession, url: string): Promise<Uint8Array> {
  const { result, exceptionDetails } = await session.call(
    'Runtime.evaluate',
    {
      expression: `fetch(${JSON.stringify(url)}, { cache: 'force-cache' })
        .then((response) => response.arrayBuffer())
        .then((buffer) => {
          const bytes = new Uint8Array(buffer);
          let binary = '';
          for (let at = 0; at < bytes.length; at += 0x8000) {
            binary += String.fromCharCode(...bytes.subarray(at, at + 0x8000));
          }
          return btoa(binary);
        })`,
      awaitPromise: true,
      returnByValue: true,
    },
    { timeoutMs: 15_000 },
  );
  if (exceptionDetails !== undefined || typeof result.value !== 'string') {
    throw new TabpilotError('INTERNAL', `Could not read the PDF at ${url} from its page`);
  }
  return base64ToBytes(result.value);
}
