export interface BundledPackage {
  path: string;
  name: string;
  version: string;
}
interface LockFile {
  packages?: Record<
    string,
    { version: string; dependencies?: Record<string, string>; optionalDependencies?: Record<string, string> }
  >;
}
/** The npm package an import specifier names, or undefined for a node: module. */
export function packageOf(specifier: string): string | undefined;
/** The packages the source texts import, type-only imports left out. */
export function importedPackages(sources: readonly string[]): Set<string>;
/** The lock entries of the roots and of everything they depend on, each name@version once. */
export function bundledPackages(lock: LockFile, roots: Iterable<string>): BundledPackage[];
/** One package's section of the notices: name, version, licence id and its licence texts. */
export function noticeOf(root: string, item: BundledPackage): string;
/** The whole THIRD_PARTY_NOTICES.txt for the clone at root. */
export function thirdPartyNotices(root: string): string;
