/** The Node the scripts fall back on when the machine's own is outside package.json's engines range. */
export const PINNED_NODE: string;
/** The registry package holding Node's binary for a platform and processor, as npm names them. */
export function nodePackageFor(platform: string, arch: string): string | undefined;
/** Where the package's binary lies inside the folder npm installed it into. */
export function nodeBinaryIn(dir: string, packageName: string, platform: string): string;
/**
 * The path of the pinned Node binary under `root`/.tabpilot/node, installed with npm unless it is already
 * there. Returns { binary } or { error } with a sentence saying what failed; `say` gets a progress line.
 */
export function providePinnedNode(
  root: string,
  say: (line: string) => void,
): { binary: string; error?: undefined } | { binary?: undefined; error: string };
