export interface RuntimePackage {
  path: string;
  name: string;
  version: string;
}
/** The packages of a package-lock.json that ship at run time (neither dev nor dev-optional). */
export function runtimePackages(lock: {
  packages?: Record<string, { version: string; dev?: boolean; devOptional?: boolean }>;
}): RuntimePackage[];
/** One package's section of the notices: name, version, licence id and its licence texts. */
export function noticeOf(root: string, item: RuntimePackage): string;
/** The whole THIRD_PARTY_NOTICES.txt for the clone at root. */
export function thirdPartyNotices(root: string): string;
