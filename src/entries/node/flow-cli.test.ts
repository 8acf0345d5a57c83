import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it, vi } from 'vitest';
import { runFlowCli } from './flow-cli';

const dir = mkdtempSync(join(tmpdir(), 'tabpilot-flow-cli-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const flow = {
  format: 'tabpilot-flow',
  version: 1,
  name: 'Open',
  steps: [{ action: 'navigate', url: 'https://shop.test/', expect: { text: 'Shop' } }],
};

describe('tabpilot flow export', () => {
  it('writes the Playwright Test file to --out, or prints it', () => {
    const file = join(dir, 'open.json');
    writeFileSync(file, JSON.stringify(flow));
    const out = join(dir, 'open.spec.ts');
    expect(runFlowCli(['export', file, '--out', out])).toBe(0);
    expect(readFileSync(out, 'utf8')).toContain(`test("Open", async ({ page }) => {`);
    let printed = '';
    expect(runFlowCli(['export', file], (text) => (printed += text))).toBe(0);
    expect(printed).toBe(readFileSync(out, 'utf8'));
  });

  it('refuses a file that is not a flow, naming the field, and bad usage', () => {
    const stderr = vi.spyOn(process.stderr, 'write').mockReturnValue(true);
    try {
      const file = join(dir, 'v2.json');
      writeFileSync(file, JSON.stringify({ ...flow, version: 2 }));
      expect(runFlowCli(['export', file])).toBe(2);
      expect(String(stderr.mock.calls[0]?.[0])).toContain('not a tabpilot flow (version 1): version:');
      expect(runFlowCli(['import', file])).toBe(2);
    } finally {
      stderr.mockRestore();
    }
  });
});
