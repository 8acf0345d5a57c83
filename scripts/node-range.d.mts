/** "22.13.0" or "v22.13.0" as [22, 13, 0]; throws on anything else (a pre-release, a range). */
export function parseVersion(text: string): [number, number, number];
/** Whether `version` ("22.13.0", "v20.20.2") lies in the engines `range`; throws on a range it cannot read. */
export function satisfiesEngines(version: string, range: string): boolean;
/** The Node range package.json's "engines" declares, the one place tabpilot's Node requirement is written. */
export function readEnginesRange(packageJsonPath: string): string;
