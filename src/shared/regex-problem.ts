/**
 * Why a regular expression source does not compile, or null when it does. Checked where a client's
 * payload is validated, so a bad pattern is refused naming its field instead of failing in the page
 * (V8 compiles it the same way in both places).
 */
export function regexProblem(source: string): string | null {
  try {
    new RegExp(source);
    return null;
  } catch (error) {
    return error instanceof Error ? error.message : String(error);
  }
}
