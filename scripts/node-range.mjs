// Reads a Node version range as package.json's "engines" writes it (">=22.13.0", "^22.13.0 || >=24") and
// says whether a version satisfies it. Dependency-free (no semver package): the scripts that use it run
// before npm ci. It knows the operators engines ranges use (>=, >, <=, <, =, ^, ~, a bare version, space
// for "and", || for "or") and throws on anything else, so a range it misreads can never pass silently.
import { readFileSync } from 'node:fs';

/** "22.13.0" or "v22.13.0" as [22, 13, 0]; throws on anything else (a pre-release, a range). */
export function parseVersion(text) {
  const match = /^v?(\d+)\.(\d+)\.(\d+)$/.exec(text.trim());
  if (match === null) {
    throw new Error(`not a Node version: ${JSON.stringify(text)}`);
  }
  return [Number(match[1]), Number(match[2]), Number(match[3])];
}

function compare(a, b) {
  for (let i = 0; i < 3; i += 1) {
    if (a[i] !== b[i]) {
      return a[i] < b[i] ? -1 : 1;
    }
  }
  return 0;
}

// A comparator's version may be partial ("22", "22.13"); `given` counts the parts written, which decides
// where an upper bound falls (<=22 means below 23.0.0, ^22.13 below 23.0.0, ~22.13 below 22.14.0).
function parsePartial(text, comparator) {
  const match = /^v?(\d+)(?:\.(\d+))?(?:\.(\d+))?$/.exec(text);
  if (match === null) {
    throw new Error(`cannot read the version range comparator ${JSON.stringify(comparator)}`);
  }
  const parts = match.slice(1).filter((part) => part !== undefined);
  return { version: [0, 1, 2].map((i) => Number(parts[i] ?? 0)), given: parts.length };
}

// The version just above every version that matches the first `keep` parts of `version`.
function bump(version, keep) {
  if (keep === 1) {
    return [version[0] + 1, 0, 0];
  }
  return [version[0], version[1] + 1, 0];
}

// One comparator as a list of [operator, version] bounds with operators >=, >, <, <= only.
function bounds(comparator) {
  const match = /^(>=|<=|>|<|=|\^|~)?\s*(.+)$/.exec(comparator);
  if (match === null) {
    throw new Error(`cannot read the version range comparator ${JSON.stringify(comparator)}`);
  }
  const operator = match[1] ?? '=';
  const { version, given } = parsePartial(match[2], comparator);
  switch (operator) {
    case '>=':
      return [['>=', version]];
    case '<':
      return [['<', version]];
    case '>':
      return given === 3 ? [['>', version]] : [['>=', bump(version, given)]];
    case '<=':
      return given === 3 ? [['<=', version]] : [['<', bump(version, given)]];
    case '=':
      return given === 3
        ? [
            ['>=', version],
            ['<=', version],
          ]
        : [
            ['>=', version],
            ['<', bump(version, given)],
          ];
    case '~':
      return [
        ['>=', version],
        ['<', bump(version, given === 1 ? 1 : 2)],
      ];
    case '^': {
      // The caret keeps the leftmost non-zero part written: ^22.13.0 < 23, ^0.2.3 < 0.3, ^0.0.3 only 0.0.3.
      if (version[0] !== 0 || given === 1) {
        return [
          ['>=', version],
          ['<', bump(version, 1)],
        ];
      }
      if (version[1] !== 0 || given === 2) {
        return [
          ['>=', version],
          ['<', bump(version, 2)],
        ];
      }
      return [
        ['>=', version],
        ['<', [0, 0, version[2] + 1]],
      ];
    }
    default:
      throw new Error(`unknown operator in ${JSON.stringify(comparator)}`);
  }
}

function holds([operator, bound], version) {
  const order = compare(version, bound);
  switch (operator) {
    case '>=':
      return order >= 0;
    case '>':
      return order > 0;
    case '<':
      return order < 0;
    default:
      return order <= 0;
  }
}

/** Whether `version` ("22.13.0", "v20.20.2") lies in the engines `range`; throws on a range it cannot read. */
export function satisfiesEngines(version, range) {
  const parsed = parseVersion(version);
  const alternatives = range.split('||').map((part) => part.trim());
  if (alternatives.some((part) => part === '')) {
    throw new Error(`cannot read the version range ${JSON.stringify(range)}`);
  }
  // Every alternative is read before any is judged, so an unreadable one throws even when another matches.
  const sets = alternatives.map((part) =>
    // ">= 22" is one comparator: glue an operator to the version after it before splitting on spaces.
    part
      .replace(/(>=|<=|>|<|=|\^|~)\s+/g, '$1')
      .split(/\s+/)
      .flatMap(bounds),
  );
  return sets.some((set) => set.every((bound) => holds(bound, parsed)));
}

/** The Node range package.json's "engines" declares, the one place tabpilot's Node requirement is written. */
export function readEnginesRange(packageJsonPath) {
  const range = JSON.parse(readFileSync(packageJsonPath, 'utf8'))?.engines?.node;
  if (typeof range !== 'string' || range.trim() === '') {
    throw new Error(`${packageJsonPath} declares no "engines": { "node": ... } range`);
  }
  return range;
}
