import { describe, expect, it } from 'vitest';
import { parseFlow } from '../../protocol/flow';
import { exportFlow, flowFileStem } from './flow-export';

const signUp = {
  format: 'tabpilot-flow',
  version: 1,
  name: 'Sign up',
  steps: [
    { action: 'navigate', url: 'http://127.0.0.1:8080/flows/signup.html' },
    { action: 'fill', locator: { role: 'textbox', name: 'Email' }, input: { param: 'email' } },
  ],
  defaults: { email: 'ada@example.test' },
};

function recordingFiles(): {
  written: Array<{ path: string; text: string; mimeType: string }>;
  writeFile: (path: string, bytes: Uint8Array, options: { mimeType: string }) => Promise<string>;
} {
  const written: Array<{ path: string; text: string; mimeType: string }> = [];
  return {
    written,
    writeFile: (path, bytes, options) => {
      written.push({ path, text: new TextDecoder().decode(bytes), mimeType: options.mimeType });
      return Promise.resolve(`Downloads/tabpilot/${path}`);
    },
  };
}

describe("the panel's flow export", () => {
  it('saves the flow file under the flow’s name, the flow as replay reads it', async () => {
    const files = recordingFiles();
    expect(await exportFlow(7, signUp, 'json', files)).toEqual({
      id: 7,
      ok: true,
      result: { path: 'Downloads/tabpilot/sign-up.json' },
    });
    expect(files.written[0]?.mimeType).toBe('application/json');
    expect(parseFlow(JSON.parse(files.written[0]?.text ?? ''))).toEqual(parseFlow(signUp));
  });

  it('saves the Playwright Test file the CLI writes, as bytes Chrome does not rename', async () => {
    const files = recordingFiles();
    expect(await exportFlow(8, signUp, 'playwright', files)).toMatchObject({
      ok: true,
      result: { path: 'Downloads/tabpilot/sign-up.spec.ts' },
    });
    expect(files.written[0]).toMatchObject({ path: 'sign-up.spec.ts', mimeType: 'application/octet-stream' });
    expect(files.written[0]?.text).toContain('test("Sign up"');
    expect(files.written[0]?.text).toContain('TABPILOT_PARAM_EMAIL');
  });

  it('refuses what is not a flow, writing nothing', async () => {
    const files = recordingFiles();
    expect(await exportFlow(9, { ...signUp, version: 2 }, 'json', files)).toMatchObject({
      id: 9,
      ok: false,
      error: { code: 'INVALID_PARAMS' },
    });
    expect(files.written).toEqual([]);
  });

  it('names the file after the flow', () => {
    expect(flowFileStem('Sign up')).toBe('sign-up');
    expect(flowFileStem('  Ça va? / Checkout #2 ')).toBe('a-va-checkout-2');
    expect(flowFileStem('!!!')).toBe('flow');
    expect(flowFileStem('a'.repeat(100))).toHaveLength(60);
  });
});
