import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';
import { ACTIONS } from './index';

const SRC = join(import.meta.dirname, '../..');
const NAMES: ReadonlySet<string> = new Set(ACTIONS.map((action) => action.name));
/** Three names keyed together make a table; one or two are a rule about those actions. */
const TABLE_SIZE = 3;

function sourceFiles(folder: string): string[] {
  return readdirSync(folder, { withFileTypes: true }).flatMap((entry) => {
    const path = join(folder, entry.name);
    if (entry.isDirectory()) {
      return sourceFiles(path);
    }
    return /\.tsx?$/.test(entry.name) && !/\.test\.tsx?$/.test(entry.name) ? [path] : [];
  });
}

function literalText(node: ts.Node): string | undefined {
  return ts.isStringLiteral(node) || ts.isNoSubstitutionTemplateLiteral(node) ? node.text : undefined;
}

function keyText(name: ts.PropertyName): string | undefined {
  return ts.isIdentifier(name) || ts.isStringLiteral(name) ? name.text : undefined;
}

/** Object literals keyed, arrays listing, and switches casing on three or more action names. */
function tablesIn(path: string, text = readFileSync(path, 'utf8')): string[] {
  const source = ts.createSourceFile(path, text, ts.ScriptTarget.Latest, true);
  const found: string[] = [];
  const report = (node: ts.Node, kind: string, names: string[]): void => {
    if (new Set(names).size >= TABLE_SIZE) {
      const line = source.getLineAndCharacterOfPosition(node.getStart(source)).line + 1;
      found.push(`${relative(SRC, path)}:${line} ${kind} ${[...new Set(names)].join(', ')}`);
    }
  };
  const visit = (node: ts.Node): void => {
    if (ts.isObjectLiteralExpression(node)) {
      const keys = node.properties.flatMap((property) => {
        const key = property.name === undefined ? undefined : keyText(property.name);
        return key !== undefined && NAMES.has(key) ? [key] : [];
      });
      report(node, 'object keyed by', keys);
    } else if (ts.isArrayLiteralExpression(node)) {
      report(
        node,
        'list of',
        node.elements.flatMap((element) => {
          const text = literalText(element);
          return text !== undefined && NAMES.has(text) ? [text] : [];
        }),
      );
    } else if (ts.isSwitchStatement(node)) {
      const cases = node.caseBlock.clauses.flatMap((clause) => {
        const text = ts.isCaseClause(clause) ? literalText(clause.expression) : undefined;
        return text !== undefined && NAMES.has(text) ? [text] : [];
      });
      report(node, 'switch on', cases);
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  return found;
}

describe('the action declarations', () => {
  it('are the only table keyed by action name: every other place reads the declaration', () => {
    const own = join(SRC, 'protocol/actions');
    const tables = sourceFiles(SRC)
      .filter((path) => !path.startsWith(own))
      .flatMap((path) => tablesIn(path));
    expect(tables).toEqual([]);
  });

  it('are checked by a scan that finds each kind of table', () => {
    const planted = [
      "const LABELS = { click: 'Click', hover: 'Hover', drag: 'Drag', other: 'x' };",
      "const HELD = new Set(['navigate', 'search', 'refresh']);",
      "switch (name) { case 'go_back': case 'go_forward': case 'refresh': break; default: break; }",
      "const FINE = { click: 1, hover: 2 }; const words = ['state', 'page', 'tab'];",
    ].join('\n');
    expect(tablesIn(join(SRC, 'planted.ts'), planted)).toEqual([
      'planted.ts:1 object keyed by click, hover, drag',
      'planted.ts:2 list of navigate, search, refresh',
      'planted.ts:3 switch on go_back, go_forward, refresh',
    ]);
  });
});
