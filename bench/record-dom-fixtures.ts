import { mkdirSync, writeFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { defaultConfig } from '../src/agent/tabpilot-config';
import { capturePage } from '../src/dom/capture';
import { composeNodeSession } from '../src/entries/node/compose';
import { PageServer } from './page-server';

/**
 * Records what the collector returns for some benchmark pages (test/fixtures/dom/<page>.capture.json),
 * for the serializer's golden-text unit tests. Run after changing the collector:
 *   npm run build && node dist/bench/record-dom-fixtures.js
 * then review the golden diff the unit test shows (and update the .txt files with UPDATE_GOLDEN=1; a page
 * with no .txt yet fails the test until you record and review its golden the same way).
 */
const PAGES = ['form', 'frames', 'occlusion'];

async function main(): Promise<void> {
  const pages = new PageServer();
  await pages.start();
  const base = defaultConfig();
  const { session } = composeNodeSession({
    config: {
      ...base,
      launch: { ...base.launch, headless: true, args: ['--site-per-process', '--window-size=1280,720'] },
    },
  });
  await session.start();
  const out = resolve(process.cwd(), 'test/fixtures/dom');
  mkdirSync(out, { recursive: true });
  try {
    const target = await session.focusedTargetId();
    for (const name of PAGES) {
      await session.targets.requireSession(target).send('Page.navigate', { url: pages.url(name) });
      await new Promise((r) => setTimeout(r, 1500));
      const capture = await capturePage({
        targets: session.targets,
        pageTargetId: target,
        stateKey: `record-${name}`,
        options: { viewportExpansion: 1000, maxTextLength: 200, hiddenText: 'omit', maxChars: 0 },
        markNew: false,
        log: session.log,
        signal: undefined,
      });
      // Session and context ids differ run to run: normalise them so fixtures are stable.
      const frames = capture.frames.map((_frame, at) => ({ sessionId: `S${at + 1}`, contextId: 1 }));
      const lines = capture.lines.map((line) =>
        line[0] === 1
          ? ([
              ...line.slice(0, 8),
              ...line.slice(8, 12).map((value) => Math.round(Number(value))),
              ...line.slice(12),
            ] as typeof line)
          : line,
      );
      const fixture = {
        page: name,
        metrics: { ...capture.metrics, url: `http://bench/${name}.html`, pending: [] },
        frames,
        lines,
        frameOf: capture.frameOf,
      };
      writeFileSync(resolve(out, `${name}.capture.json`), `${JSON.stringify(fixture, null, 1)}\n`);
      process.stdout.write(`recorded ${name}: ${lines.length} lines\n`);
    }
  } finally {
    await session.stop();
    session.dispose();
    await pages.stop();
  }
}

main().catch((error: unknown) => {
  process.stderr.write(`${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
  process.exit(1);
});
