/**
 * A key the extension issues to a program the person allowed until revoked: 32 random bytes, base64url.
 * Without zod, so the CLI's lean path (which keeps the key) does not load it.
 */
export const CLIENT_KEY_PATTERN = /^[A-Za-z0-9_-]{43}$/;
