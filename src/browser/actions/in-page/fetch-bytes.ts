/**
 * The bytes at a URL, fetched by the document tabpilot's world is in (its origin and cookies apply, and the
 * HTTP cache answers first: a PDF the tab shows is read again without a second request), as base64.
 */
export async function fetchBase64(url: string): Promise<string> {
  const response = await fetch(url, { cache: 'force-cache' });
  const bytes = new Uint8Array(await response.arrayBuffer());
  let binary = '';
  // In slices: one String.fromCharCode call with every byte would pass more arguments than a call takes.
  for (let at = 0; at < bytes.length; at += 0x8000) {
    binary += String.fromCharCode(...bytes.subarray(at, at + 0x8000));
  }
  return btoa(binary);
}
