import { describe, expect, it } from 'vitest';
import { parseFlow } from '../../protocol/flow';
import { environmentName, flowToPlaywright } from './playwright-export';

const flow = parseFlow({
  format: 'tabpilot-flow',
  version: 1,
  name: 'Every kind of step',
  steps: [
    { action: 'navigate', url: 'https://shop.test/a', expect: { path: '/a?x=(1)' } },
    { action: 'fill', locator: { css: '#q > input' }, input: { value: 'it\'s "quoted"' } },
    { action: 'press', key: 'Tab Enter', title: 'Send\nit' },
    { action: 'upload', locator: { test_id: 'file' }, file: 'cv.pdf', param: 'cv' },
    { action: 'switch_tab', url_includes: '/b', expect: { text: 'Shown' } },
    { action: 'click', locator: { text: 'Done' } },
    { action: 'scroll_by', direction: 'down', pages: 2 },
    { action: 'scroll_by', direction: 'left', amount: 300, locator: { test_id: 'carousel' } },
  ],
});

describe('a flow as a Playwright Test file', () => {
  const code = flowToPlaywright(flow);

  it('writes each step with the same locator, and each expectation', () => {
    expect(code).toContain(`await page.goto("https://shop.test/a");`);
    expect(code).toContain('await expect(page).toHaveURL(/\\/a\\?x=\\(1\\)/);');
    expect(code).toContain(`await page.locator("#q > input").fill("it's \\"quoted\\"");`);
    expect(code).toContain(
      `  // Step 3: Send it\n  await page.keyboard.press("Tab");\n  await page.keyboard.press("Enter");`,
    );
    expect(code).toContain(`await page.getByTestId("file").setInputFiles(params["cv"]);`);
    expect(code).toContain(`page = await tabAt(page, "/b");`);
    expect(code).toContain(`await expect(page.locator('body')).toContainText("Shown", { ignoreCase: true });`);
    expect(code).toContain(`await page.getByText("Done", { exact: true }).click();`);
    expect(code).toContain('await page.mouse.wheel(0, 2 * (page.viewportSize()?.height ?? 720));');
    expect(code).toContain(`await page.getByTestId("carousel").hover();\n  await page.mouse.wheel(-300, 0);`);
  });

  it('reads a parameter without a default from its environment variable', () => {
    expect(environmentName('PARAM', 'cv')).toBe('TABPILOT_PARAM_CV');
    expect(environmentName('SECRET', 'bank.pin-2')).toBe('TABPILOT_SECRET_BANK_PIN_2');
    expect(code).toContain(`"cv": fromEnvironment("TABPILOT_PARAM_CV"),`);
    expect(code).toContain(`test("Every kind of step", async ({ page: first }) => {\n  let page = first;`);
  });
});
