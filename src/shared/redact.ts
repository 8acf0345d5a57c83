/**
 * Keeps secrets out of everything that leaves a session: command responses and events (the
 * CommandServer), the panel's timeline, the logs. The secrets are the values of the config's
 * `sensitive_data` ({domain_pattern: {name: value}}); each occurrence inside any string becomes
 * `<secret>name</secret>`, the placeholder clients use to type the same value.
 *
 * A page may echo a typed value in any form, so a value is also matched case-insensitively and in its
 * URL-encoded, form-encoded, JSON-escaped and HTML-escaped spellings. Outputs also cut page text (a
 * search's context, a markdown chunk, a long text line ending in `…`): a piece of a secret of at least
 * MIN_FRAGMENT characters at such a cut, or a string that is nothing but such a piece, is replaced too.
 */
import type { LogSink } from './logger';

export interface Secret {
  readonly name: string;
  readonly value: string;
}

/** Shorter pieces are too likely to be ordinary words ("test", "mail") to be taken for a secret. */
const MIN_FRAGMENT = 6;
/** The mark the perception code puts where it cut a text. */
const CUT_MARK = '…';

export function secretsOf(sensitiveData: Readonly<Record<string, Readonly<Record<string, string>>>>): Secret[] {
  const secrets: Secret[] = [];
  for (const byName of Object.values(sensitiveData)) {
    for (const [name, value] of Object.entries(byName)) {
      if (value !== '') {
        secrets.push({ name, value });
      }
    }
  }
  // Longest first, so a secret that contains another is replaced whole.
  return secrets.sort((a, b) => b.value.length - a.value.length);
}

interface Compiled {
  readonly whole: RegExp;
  readonly names: ReadonlyMap<string, string>;
  readonly fragments: ReadonlyArray<{ placeholder: string; lower: string }>;
}

function placeholderOf(name: string): string {
  return `<secret>${name}</secret>`;
}

function htmlEscaped(value: string): string {
  return value.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');
}

function spellings(value: string): string[] {
  const encoded = encodeURIComponent(value);
  return [
    value,
    encoded,
    encoded.replace(/%20/g, '+'),
    encodeURI(value),
    JSON.stringify(value).slice(1, -1),
    htmlEscaped(value),
  ];
}

const compiledCache = new Map<string, Compiled>();
const CACHE_SIZE = 8;

function compile(secrets: readonly Secret[]): Compiled {
  const key = JSON.stringify(secrets);
  const cached = compiledCache.get(key);
  if (cached !== undefined) {
    return cached;
  }
  const names = new Map<string, string>();
  for (const secret of secrets) {
    for (const spelling of spellings(secret.value)) {
      const lower = spelling.toLowerCase();
      if (!names.has(lower)) {
        names.set(lower, secret.name);
      }
    }
  }
  const alternatives = [...names.keys()]
    .sort((a, b) => b.length - a.length)
    .map((spelling) => spelling.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'));
  const compiled: Compiled = {
    whole: new RegExp(alternatives.join('|'), 'gi'),
    names,
    fragments: secrets
      .filter((secret) => secret.value.length > MIN_FRAGMENT)
      .map((secret) => ({ placeholder: placeholderOf(secret.name), lower: secret.value.toLowerCase() })),
  };
  if (compiledCache.size >= CACHE_SIZE) {
    compiledCache.delete(compiledCache.keys().next().value as string);
  }
  compiledCache.set(key, compiled);
  return compiled;
}

/** The longest piece of `secret` (at least MIN_FRAGMENT long, shorter than the whole) that `text` ends with. */
function trailingPiece(text: string, secret: string): number {
  for (let length = Math.min(secret.length - 1, text.length); length >= MIN_FRAGMENT; length--) {
    if (text.endsWith(secret.slice(0, length))) {
      return length;
    }
  }
  return 0;
}

function leadingPiece(text: string, secret: string): number {
  for (let length = Math.min(secret.length - 1, text.length); length >= MIN_FRAGMENT; length--) {
    if (text.startsWith(secret.slice(secret.length - length))) {
      return length;
    }
  }
  return 0;
}

function redactPieces(text: string, fragment: { placeholder: string; lower: string }): string {
  const lower = text.toLowerCase();
  if (lower.length >= MIN_FRAGMENT && lower.length < fragment.lower.length && fragment.lower.includes(lower)) {
    return fragment.placeholder;
  }
  let out = text;
  let outLower = lower;
  if (outLower.length >= MIN_FRAGMENT && fragment.lower.includes(outLower.slice(0, MIN_FRAGMENT))) {
    const length = leadingPiece(outLower, fragment.lower);
    if (length > 0) {
      out = fragment.placeholder + out.slice(length);
      outLower = out.toLowerCase();
    }
  }
  if (outLower.length >= MIN_FRAGMENT && fragment.lower.includes(outLower.slice(-MIN_FRAGMENT))) {
    const length = trailingPiece(outLower, fragment.lower);
    if (length > 0) {
      out = out.slice(0, out.length - length) + fragment.placeholder;
      outLower = out.toLowerCase();
    }
  }
  if (!out.includes(CUT_MARK)) {
    return out;
  }
  return out
    .split(CUT_MARK)
    .map((part, index, parts) => {
      if (index === parts.length - 1) {
        return part;
      }
      const length = trailingPiece(part.toLowerCase(), fragment.lower);
      return length > 0 ? part.slice(0, part.length - length) + fragment.placeholder : part;
    })
    .join(CUT_MARK);
}

export function redactString(text: string, secrets: readonly Secret[]): string {
  if (secrets.length === 0 || text === '') {
    return text;
  }
  const compiled = compile(secrets);
  let out = text.replace(compiled.whole, (match) => placeholderOf(compiled.names.get(match.toLowerCase()) ?? ''));
  for (const fragment of compiled.fragments) {
    out = redactPieces(out, fragment);
  }
  return out;
}

/** Limits for what the timeline stores: it lives in chrome.storage.session, which is small. */
export interface CompactLimits {
  readonly maxString: number;
  readonly maxItems: number;
  readonly maxDepth: number;
}

/** Unlimited: only the secrets are replaced (command responses, which may carry a whole screenshot). */
export const NO_LIMITS: CompactLimits = { maxString: Infinity, maxItems: Infinity, maxDepth: Infinity };

export const TIMELINE_LIMITS: CompactLimits = { maxString: 600, maxItems: 40, maxDepth: 6 };
/** For an entry still large under TIMELINE_LIMITS (a state's elements with their attributes). */
export const TIGHT_TIMELINE_LIMITS: CompactLimits = { maxString: 200, maxItems: 12, maxDepth: 4 };

/** A JSON-safe copy of `value` with every secret replaced and, within `limits`, long values cut. */
export function redact(value: unknown, secrets: readonly Secret[], limits: CompactLimits = NO_LIMITS): unknown {
  return walk(value, secrets, limits, 0);
}

function walk(value: unknown, secrets: readonly Secret[], limits: CompactLimits, depth: number): unknown {
  if (typeof value === 'string') {
    const clean = redactString(value, secrets);
    return clean.length > limits.maxString
      ? `${clean.slice(0, limits.maxString)}… [${clean.length - limits.maxString} more characters]`
      : clean;
  }
  if (value === null || typeof value !== 'object') {
    return typeof value === 'function' || typeof value === 'symbol' || typeof value === 'bigint'
      ? String(value)
      : value;
  }
  if (depth >= limits.maxDepth) {
    return '[…]';
  }
  if (Array.isArray(value)) {
    const items = value.slice(0, limits.maxItems).map((item: unknown) => walk(item, secrets, limits, depth + 1));
    if (value.length > limits.maxItems) {
      items.push(`… ${value.length - limits.maxItems} more items`);
    }
    return items;
  }
  const out: Record<string, unknown> = {};
  const entries = Object.entries(value as Record<string, unknown>);
  for (const [key, item] of entries.slice(0, limits.maxItems)) {
    out[redactString(key, secrets)] = walk(item, secrets, limits, depth + 1);
  }
  if (entries.length > limits.maxItems) {
    out['…'] = `${entries.length - limits.maxItems} more fields`;
  }
  return out;
}

/** A log sink that replaces secrets in each record's message and fields before they are written. */
export function redactingSink(sink: LogSink, secrets: () => readonly Secret[]): LogSink {
  return (record) => {
    const current = secrets();
    if (current.length === 0) {
      sink(record);
      return;
    }
    sink({
      ...record,
      message: redactString(record.message, current),
      ...(record.fields === undefined ? {} : { fields: redact(record.fields, current) as Record<string, unknown> }),
    });
  };
}
