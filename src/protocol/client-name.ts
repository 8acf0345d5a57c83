/**
 * The rule for a native client's name, without zod: the CLI checks it on its lean path (zod alone
 * costs it about 50 ms of start-up), and native-messages.ts builds its schema from the same pattern.
 */
export const CLIENT_NAME_PATTERN = /^(tabpilot|tabpilot:[A-Za-z0-9._-]{1,48}|mcp:[A-Za-z0-9._ -]{1,48})$/;

export const CLIENT_NAME_RULE =
  'a client name is tabpilot, tabpilot:<label> or mcp:<name> (letters, digits, . _ - and, for mcp, spaces; at most 48)';
