/**
 * The id of a request that failed validation, when it has a usable one (its error answer carries it).
 * A module of its own, without zod: the CLI's lean path needs it and zod costs it about 50 ms to load.
 */
export function salvageRequestId(message: unknown): number | string | null {
  if (typeof message === 'object' && message !== null && 'id' in message) {
    const id = message.id;
    if (typeof id === 'number' || (typeof id === 'string' && id.length <= 200)) {
      return id;
    }
  }
  return null;
}
