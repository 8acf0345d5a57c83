/** Bytes to and from base64 and UTF-8, with the globals both platforms have (atob, btoa, TextEncoder). */

export function base64ToBytes(base64: string): Uint8Array {
  const binary = atob(base64);
  const bytes = new Uint8Array(binary.length);
  for (let at = 0; at < binary.length; at += 1) {
    bytes[at] = binary.charCodeAt(at);
  }
  return bytes;
}

export function bytesToBase64(bytes: Uint8Array): string {
  let binary = '';
  // In slices: String.fromCharCode takes its bytes as arguments, and arguments are bounded.
  for (let at = 0; at < bytes.length; at += 0x8000) {
    binary += String.fromCharCode(...bytes.subarray(at, at + 0x8000));
  }
  return btoa(binary);
}

export function utf8(text: string): Uint8Array {
  return new TextEncoder().encode(text);
}

/** The text of UTF-8 bytes, or undefined when they are not UTF-8. */
export function strictUtf8(bytes: Uint8Array): string | undefined {
  try {
    return new TextDecoder('utf-8', { fatal: true }).decode(bytes);
  } catch {
    // Not UTF-8 (a binary body labelled as text, say): the caller keeps the bytes.
    return undefined;
  }
}

/** The hex SHA-1 of some bytes (names content-addressed files; not for security). */
export async function sha1Hex(bytes: Uint8Array): Promise<string> {
  const digest = new Uint8Array(await crypto.subtle.digest('SHA-1', new Uint8Array(bytes)));
  return [...digest].map((byte) => byte.toString(16).padStart(2, '0')).join('');
}
