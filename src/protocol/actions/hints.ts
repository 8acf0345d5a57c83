import type { ActionHints } from './declare-action';

/** Looks, changes nothing (a state, a search of the text). */
export const READS: ActionHints = { readOnly: true, destructive: false, idempotent: true, openWorld: false };
/** Changes what the page or browser shows, in a way that doing it again changes nothing more. */
export const SETS: ActionHints = { readOnly: false, destructive: false, idempotent: true, openWorld: false };
/** Moves or changes the page; doing it again moves again. */
export const MOVES: ActionHints = { readOnly: false, destructive: false, idempotent: false, openWorld: false };
/** Goes out to the web. */
export const NAVIGATES: ActionHints = { readOnly: false, destructive: false, idempotent: false, openWorld: true };
/** Writes a new file on the disk each time (an existing file is kept). */
export const WRITES_FILE: ActionHints = { readOnly: false, destructive: false, idempotent: false, openWorld: true };
/** May submit, delete or send something that cannot be taken back. */
export const ACTS: ActionHints = { readOnly: false, destructive: true, idempotent: false, openWorld: true };
