/**
 * Keeps secrets out of what the panel shows. The secrets are the values of the config's
 * `sensitive_data` ({domain_pattern: {name: value}}); each occurrence inside any string becomes
 * `<secret>name</secret>`, the placeholder browser-use's actions use for the same value.
 */
export interface Secret {
  readonly name: string;
  readonly value: string;
}

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

export function redactString(text: string, secrets: readonly Secret[]): string {
  let out = text;
  for (const secret of secrets) {
    if (out.includes(secret.value)) {
      out = out.split(secret.value).join(`<secret>${secret.name}</secret>`);
    }
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
