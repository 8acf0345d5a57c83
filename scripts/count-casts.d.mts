/** The folders whose casts are counted, relative to the repository. */
export const EDGES: readonly string[];
/** Whether `path` is a source file the count covers: TypeScript, neither a test nor a declaration. */
export function isCounted(path: string): boolean;
/** The type assertions (`x as T`, `<T>x`) in one file's text, `as const` left out. */
export function countCasts(text: string, fileName?: string): number;
/** Every counted file under `root`'s edges with its casts, most first (files with none left out). */
export function countEdges(root: string): Array<{ file: string; casts: number }>;
