// Counts the type assertions (`x as T`, `<T>x`) in the edges of the code: the platforms, the tools, the
// agent, the entries and the panel, where input from outside arrives and a cast hides a missing check.
// `as const` is not counted: it narrows, it asserts nothing. With `--max N` it exits 1 past N, so a new
// cast past the budget fails the lint step (issue 25).
//
// Usage: node scripts/count-casts.mjs [--max N] [--top N]
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';

/** The folders counted, relative to the repository. */
export const EDGES = ['src/platform', 'src/tools', 'src/agent', 'src/entries', 'src/ui'];

const SKIPPED_SUFFIXES = ['.test.ts', '.test-d.ts', '.d.ts'];

/** Whether `path` is a source file the count covers: TypeScript, neither a test nor a declaration. */
export function isCounted(path) {
  return path.endsWith('.ts') && !SKIPPED_SUFFIXES.some((suffix) => path.endsWith(suffix));
}

function isAsConst(node) {
  return (
    ts.isTypeReferenceNode(node.type) && ts.isIdentifier(node.type.typeName) && node.type.typeName.text === 'const'
  );
}

/** The type assertions in one file's text, `as const` left out. */
export function countCasts(text, fileName = 'file.ts') {
  const source = ts.createSourceFile(fileName, text, ts.ScriptTarget.Latest, false, ts.ScriptKind.TS);
  let count = 0;
  const visit = (node) => {
    if ((ts.isAsExpression(node) || ts.isTypeAssertionExpression(node)) && !isAsConst(node)) {
      count += 1;
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  return count;
}

function listFiles(dir) {
  let entries;
  try {
    entries = readdirSync(dir);
  } catch (error) {
    // A folder of EDGES that does not exist counts nothing; anything else is a real failure.
    if (error instanceof Error && 'code' in error && error.code === 'ENOENT') {
      return [];
    }
    throw error;
  }
  return entries.flatMap((name) => {
    const path = join(dir, name);
    return statSync(path).isDirectory() ? listFiles(path) : [path];
  });
}

/** Every counted file under `root`'s edges with its casts, most first (files with none left out). */
export function countEdges(root) {
  const files = EDGES.flatMap((edge) => listFiles(join(root, edge))).filter(isCounted);
  return files
    .map((path) => ({ file: relative(root, path), casts: countCasts(readFileSync(path, 'utf8'), path) }))
    .filter((entry) => entry.casts > 0)
    .sort((a, b) => b.casts - a.casts || a.file.localeCompare(b.file));
}

function readNumberFlag(args, flag) {
  const index = args.indexOf(flag);
  if (index === -1) {
    return undefined;
  }
  const value = Number(args[index + 1]);
  if (!Number.isInteger(value) || value < 0) {
    throw new Error(`${flag} takes a whole number, got ${String(args[index + 1])}`);
  }
  return value;
}

function main(args) {
  const max = readNumberFlag(args, '--max');
  const top = readNumberFlag(args, '--top') ?? 20;
  const root = fileURLToPath(new URL('..', import.meta.url));
  const counts = countEdges(root);
  const total = counts.reduce((sum, entry) => sum + entry.casts, 0);
  const lines = counts.slice(0, top).map((entry) => `${String(entry.casts).padStart(4)}  ${entry.file}`);
  process.stdout.write(`${lines.join('\n')}\ncasts in ${EDGES.join(', ')}: ${total}\n`);
  if (max !== undefined && total > max) {
    process.stderr.write(
      `${total} casts, over the budget of ${max}: type the boundary (a zod parse, a type guard, a generic) instead\n`,
    );
    process.exitCode = 1;
  }
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  main(process.argv.slice(2));
}
