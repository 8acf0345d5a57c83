// What each part of a built bundle costs: reads FILE.js and its source map (build with TABPILOT_SOURCEMAP=1)
// and adds up the minified characters each source produced, grouped by npm package or by src/ folder.
//   node scripts/bundle-cost.mjs dist/extension/assets/background.ts-*.js [--top N]
import { readFileSync } from 'node:fs';

const BASE64 = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/';

/** One line's segments of a source map's `mappings`: [generated column, source index | undefined][]. */
function* segments(mappings) {
  let source = 0;
  let line = 0;
  for (const lineText of mappings.split(';')) {
    let column = 0;
    for (const segment of lineText.split(',')) {
      if (segment === '') {
        continue;
      }
      const fields = [];
      let value = 0;
      let shift = 0;
      for (const char of segment) {
        const digit = BASE64.indexOf(char);
        value += (digit & 31) << shift;
        if (digit & 32) {
          shift += 5;
        } else {
          fields.push(value & 1 ? -(value >>> 1) : value >>> 1);
          value = 0;
          shift = 0;
        }
      }
      column += fields[0];
      if (fields.length > 1) {
        source += fields[1];
      }
      yield { line, column, source: fields.length > 1 ? source : undefined };
    }
    line += 1;
  }
}

/** node_modules/@scope/name/... → @scope/name; src/agent/x.ts → src/agent; anything else as it is. */
function groupOf(path) {
  const modules = path.lastIndexOf('node_modules/');
  if (modules >= 0) {
    const parts = path.slice(modules + 'node_modules/'.length).split('/');
    return parts[0].startsWith('@') ? `${parts[0]}/${parts[1]}` : parts[0];
  }
  const src = path.indexOf('src/');
  return src >= 0 ? path.slice(src).split('/').slice(0, 2).join('/') : path;
}

const [file, ...rest] = process.argv.slice(2);
if (file === undefined) {
  process.stderr.write('usage: node scripts/bundle-cost.mjs FILE.js [--top N]\n');
  process.exit(2);
}
const top = rest[0] === '--top' ? Number(rest[1]) : 25;
const code = readFileSync(file, 'utf8').split('\n');
const map = JSON.parse(readFileSync(`${file}.map`, 'utf8'));
const costs = new Map();
let previous;
const charge = (segment, end) => {
  const group = segment.source === undefined ? '(no source)' : groupOf(map.sources[segment.source]);
  costs.set(group, (costs.get(group) ?? 0) + Buffer.byteLength(code[segment.line].slice(segment.column, end)));
};
for (const segment of segments(map.mappings)) {
  if (previous !== undefined) {
    charge(previous, previous.line === segment.line ? segment.column : undefined);
  }
  previous = segment;
}
if (previous !== undefined) {
  charge(previous, undefined);
}
const total = Buffer.byteLength(code.join('\n'));
const rows = [...costs].sort((a, b) => b[1] - a[1]);
process.stdout.write(`${file}: ${total} bytes\n`);
for (const [group, bytes] of rows.slice(0, top)) {
  process.stdout.write(`${String(bytes).padStart(9)}  ${((100 * bytes) / total).toFixed(1).padStart(5)}%  ${group}\n`);
}
