import { strictUtf8, utf8 } from '../../shared/bytes';
import { redact, redactString, secretsOf, type Secret } from '../../shared/redact';
import type { SensitiveData } from '../secrets';
import { isTextual } from './har-entry';
import type { HarEntry } from './har-types';

/** A placeholder is not a valid URI (`<`, `>`): in a URL field it is written percent-encoded. */
const PLACEHOLDER = /<secret>([^<]*)<\/secret>/g;

function inUrl(url: string): string {
  return url.replace(PLACEHOLDER, (placeholder) => encodeURI(placeholder));
}

/**
 * The secrets of the config's `sensitive_data` never reach a HAR file: every string of an entry or a page
 * (URLs, query strings, headers, cookies, form bodies, response text, titles) has each secret replaced by
 * its placeholder, `<secret>name</secret>`, in any of the spellings a page may send it in (redact.ts); in
 * the entry's URLs it is percent-encoded (`%3Csecret%3Ename%3C/secret%3E`), so they stay URIs. Read at
 * each write, so a secret added while recording is kept out of what follows. A binary body (base64) is
 * left as the server sent it: a secret inside an image's bytes is not text to find.
 */
export function harSecrets(sensitiveData: () => SensitiveData): {
  entry(entry: HarEntry): HarEntry;
  value<T>(value: T): T;
  body(bytes: Uint8Array, mimeType: string): Uint8Array;
} {
  const current = (): readonly Secret[] => secretsOf(sensitiveData());
  const value = <T>(input: T): T => {
    const secrets = current();
    return secrets.length === 0 ? input : (redact(input, secrets) as T);
  };
  return {
    value,
    entry(entry: HarEntry): HarEntry {
      const clean = value(entry);
      if (clean === entry) {
        return entry;
      }
      clean.request.url = inUrl(clean.request.url);
      clean.response.redirectURL = inUrl(clean.response.redirectURL);
      return clean;
    },
    body(bytes: Uint8Array, mimeType: string): Uint8Array {
      const secrets = current();
      const text = secrets.length === 0 || !isTextual(mimeType) ? undefined : strictUtf8(bytes);
      return text === undefined ? bytes : utf8(redactString(text, secrets));
    },
  };
}
