import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { CliUsageError } from './cli-params';
import { replayParams } from './cli-replay';

const dir = mkdtempSync(join(tmpdir(), 'tabpilot-cli-replay-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('tabpilot replay FLOW', () => {
  it('sends the flow file whole, with its parameters and tab', () => {
    const file = join(dir, 'flow.json');
    writeFileSync(file, JSON.stringify({ name: 'x' }));
    expect(replayParams([file, '--param', 'email=a=b@x', '--param', 'name=', '--tab-id', 't1'])).toEqual({
      flow: { name: 'x' },
      params: { email: 'a=b@x', name: '' },
      tab_id: 't1',
    });
  });

  it('refuses no flow, a file that is not JSON, a parameter without a name and a stray word', () => {
    const bad = join(dir, 'bad.json');
    writeFileSync(bad, 'not json');
    expect(() => replayParams([])).toThrow(CliUsageError);
    expect(() => replayParams([bad])).toThrow(/cannot read the flow .*bad\.json/);
    expect(() => replayParams([bad, '--param', '=x'])).toThrow(/--param takes name=value/);
    expect(() => replayParams([bad, 'other'])).toThrow(/unexpected "other"/);
  });
});
