// Builds the library API (`import ... from 'tabpilot'`): src/entries/node/lib.ts bundled by esbuild into
// dist/lib/index.js, and its declarations into dist/lib/index.d.ts. lib.ts writes out every type it
// exports, so its declaration file stands alone; one that still imports a file of ours fails the build.
import { mkdirSync, writeFileSync } from 'node:fs';
import { build } from 'esbuild';
import ts from 'typescript';

const ENTRY = 'src/entries/node/lib.ts';

await build({
  entryPoints: { index: ENTRY },
  outdir: 'dist/lib',
  bundle: true,
  platform: 'node',
  format: 'esm',
  target: 'node22',
  // ws loads these optional native speed-ups inside try/catch; leave them out of the bundle.
  external: ['bufferutil', 'utf-8-validate'],
  // Bundled CommonJS (ws) calls require(); give the ES module a real one.
  banner: {
    js: "import { createRequire as __tabpilotCreateRequire } from 'node:module'; const require = __tabpilotCreateRequire(import.meta.url);",
  },
  logLevel: 'warning',
});

const parsed = ts.getParsedCommandLineOfConfigFile(
  'tsconfig.node.json',
  {},
  { ...ts.sys, onUnRecoverableConfigFileDiagnostic: () => {} },
);
if (parsed === undefined) {
  throw new Error('cannot read tsconfig.node.json');
}
const program = ts.createProgram([ENTRY], {
  ...parsed.options,
  noEmit: false,
  declaration: true,
  emitDeclarationOnly: true,
  outDir: 'dist/lib/types',
  // npm run typecheck checks the types; this only writes them out.
  noCheck: true,
});
let declarations;
const emitted = program.emit(
  program.getSourceFile(ENTRY),
  (name, text) => {
    declarations = text;
  },
  undefined,
  true,
);
if (emitted.emitSkipped || declarations === undefined) {
  const host = {
    getCanonicalFileName: (name) => name,
    getCurrentDirectory: ts.sys.getCurrentDirectory,
    getNewLine: () => '\n',
  };
  throw new Error(`no declarations for ${ENTRY}:\n${ts.formatDiagnostics(emitted.diagnostics, host)}`);
}
const inward = declarations.match(/from ['"]\.{1,2}\/[^'"]*['"]/g);
if (inward !== null) {
  throw new Error(`${ENTRY}'s declarations import our own files (${inward.join(', ')}): write those types out in it`);
}
mkdirSync('dist/lib', { recursive: true });
writeFileSync('dist/lib/index.d.ts', declarations);
