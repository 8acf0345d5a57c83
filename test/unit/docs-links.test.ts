import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';

const ROOT = join(import.meta.dirname, '../..');

function markdownFiles(): string[] {
  const files = ['README.md', 'CONTRIBUTING.md', 'SECURITY.md', 'CHANGELOG.md'].map((name) => join(ROOT, name));
  const walk = (dir: string): void => {
    for (const entry of readdirSync(dir, { withFileTypes: true })) {
      const path = join(dir, entry.name);
      if (entry.isDirectory()) {
        walk(path);
      } else if (entry.name.endsWith('.md')) {
        files.push(path);
      }
    }
  };
  walk(join(ROOT, 'docs'));
  return files.filter((file) => existsSync(file));
}

/** The lines outside fenced code blocks. */
function prose(text: string): string[] {
  let fenced = false;
  return text.split('\n').filter((line) => {
    if (/^\s*```/.test(line)) {
      fenced = !fenced;
      return false;
    }
    return !fenced;
  });
}

/** GitHub's anchors for a file's headings: lower case, punctuation dropped, spaces as hyphens, repeats numbered. */
function anchorsOf(text: string): Set<string> {
  const anchors = new Set<string>();
  const seen = new Map<string, number>();
  for (const line of prose(text)) {
    const heading = /^#{1,6}\s+(.*?)\s*#*\s*$/.exec(line);
    if (heading === null) {
      continue;
    }
    const slug = (heading[1] ?? '')
      .replace(/\[([^\]]*)\]\([^)]*\)/g, '$1')
      .toLowerCase()
      .replace(/[^\p{L}\p{N}\s_-]/gu, '')
      .replace(/\s/g, '-');
    const count = seen.get(slug) ?? 0;
    seen.set(slug, count + 1);
    anchors.add(count === 0 ? slug : `${slug}-${count}`);
  }
  return anchors;
}

function links(text: string): string[] {
  const found: string[] = [];
  for (const line of prose(text)) {
    // Inline code may hold brackets that are no link.
    const plain = line.replace(/`[^`]*`/g, '');
    for (const match of plain.matchAll(/\]\(([^)\s]+)\)/g)) {
      found.push(match[1] ?? '');
    }
  }
  return found;
}

describe('the docs', () => {
  it('link only to files and headings that exist', () => {
    const broken: string[] = [];
    const anchors = new Map<string, Set<string>>();
    const anchorsIn = (target: string): Set<string> => {
      let found = anchors.get(target);
      if (found === undefined) {
        found = anchorsOf(readFileSync(target, 'utf8'));
        anchors.set(target, found);
      }
      return found;
    };
    for (const file of markdownFiles()) {
      const text = readFileSync(file, 'utf8');
      for (const link of links(text)) {
        if (/^[a-z]+:/i.test(link)) {
          continue; // https:, mailto:
        }
        const [path = '', anchor] = link.split('#');
        const target = path === '' ? file : join(dirname(file), path);
        const where = `${relative(ROOT, file)}: ${link}`;
        if (!existsSync(target)) {
          broken.push(`${where} (no such file)`);
          continue;
        }
        if (anchor !== undefined && target.endsWith('.md') && !anchorsIn(target).has(anchor)) {
          broken.push(`${where} (no such heading)`);
        }
      }
    }
    expect(broken).toEqual([]);
  });

  it('never tell anyone to run npx tabpilot, which would fetch a stranger’s package', () => {
    const offenders = markdownFiles()
      .filter((file) => !file.endsWith('CHANGELOG.md'))
      .filter((file) => /npx tabpilot\s+[a-z-]/.test(readFileSync(file, 'utf8')))
      .map((file) => relative(ROOT, file));
    expect(offenders).toEqual([]);
  });

  it('anchor headings as GitHub does', () => {
    expect([...anchorsOf('# A `tabpilot run`: agent\n## Install\n## Install\n```\n# not\n```')]).toEqual([
      'a-tabpilot-run-agent',
      'install',
      'install-1',
    ]);
  });
});
