import {
  flowParams,
  flowSecrets,
  type Flow,
  type FlowLocator,
  type FlowStep,
  type FlowValue,
} from '../../protocol/flow';

/** A literal of this text in the generated TypeScript. */
function literal(text: string): string {
  return JSON.stringify(text);
}

/** The environment variable a secret or a parameter is read from: `TABPILOT_SECRET_PASSWORD`. */
export function environmentName(kind: 'SECRET' | 'PARAM', name: string): string {
  return `TABPILOT_${kind}_${name.toUpperCase().replace(/[^A-Z0-9]/g, '_')}`;
}

/** The same element Playwright finds by the same rules (docs/flows.md: exact names and texts). */
function locatorCode(locator: FlowLocator): string {
  if ('role' in locator) {
    return `page.getByRole(${literal(locator.role)}, { name: ${literal(locator.name)}, exact: true })`;
  }
  if ('label' in locator) {
    return `page.getByLabel(${literal(locator.label)}, { exact: true })`;
  }
  if ('text' in locator) {
    return `page.getByText(${literal(locator.text)}, { exact: true })`;
  }
  if ('test_id' in locator) {
    return `page.getByTestId(${literal(locator.test_id)})`;
  }
  return `page.locator(${literal(locator.css)})`;
}

function valueCode(input: FlowValue): string {
  if ('value' in input) {
    return literal(input.value);
  }
  return 'param' in input ? `params[${literal(input.param)}]` : `secrets[${literal(input.secret)}]`;
}

function escapedForRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&');
}

function stepCode(step: FlowStep): string[] {
  switch (step.action) {
    case 'navigate':
      return [`await page.goto(${literal(step.url)});`];
    case 'click':
      return [`await ${locatorCode(step.locator)}.click();`];
    case 'fill':
      return [`await ${locatorCode(step.locator)}.fill(${valueCode(step.input)});`];
    case 'select':
      return [`await ${locatorCode(step.locator)}.selectOption(${valueCode(step.input)});`];
    case 'press':
      // send_keys' chords are Playwright's (Control+a); several keys are pressed one after another.
      return step.key.split(' ').map((key) => `await page.keyboard.press(${literal(key)});`);
    case 'upload':
      return [`await ${locatorCode(step.locator)}.setInputFiles(params[${literal(step.param)}]);`];
    case 'switch_tab':
      return [`page = await tabAt(page, ${literal(step.url_includes)});`, 'await page.bringToFront();'];
    case 'scroll_by':
      return scrollCode(step);
  }
}

/**
 * A scroll as the wheel turns it, over the element when the step names one (its container scrolls);
 * pages are of the viewport's size here, which is near the container's for a page-wide list.
 */
function scrollCode(step: Extract<FlowStep, { action: 'scroll_by' }>): string[] {
  const vertical = step.direction === 'up' || step.direction === 'down';
  const sign = step.direction === 'up' || step.direction === 'left' ? '-' : '';
  const size = `(page.viewportSize()?.${vertical ? 'height' : 'width'} ?? ${vertical ? 720 : 1280})`;
  const distance = step.amount === undefined ? `${sign}${step.pages ?? 1} * ${size}` : `${sign}${step.amount}`;
  return [
    ...(step.locator === undefined ? [] : [`await ${locatorCode(step.locator)}.hover();`]),
    `await page.mouse.wheel(${vertical ? `0, ${distance}` : `${distance}, 0`});`,
  ];
}

/** What replay checks after the step: the URL contains the path, the page shows the text (any case). */
function expectationCode(step: FlowStep): string[] {
  const lines: string[] = [];
  if (step.expect?.path !== undefined) {
    lines.push(`await expect(page).toHaveURL(/${escapedForRegExp(step.expect.path)}/);`);
  }
  if (step.expect?.text !== undefined) {
    lines.push(`await expect(page.locator('body')).toContainText(${literal(step.expect.text)}, { ignoreCase: true });`);
  }
  return lines;
}

function paramsCode(flow: Flow): string[] {
  const names = flowParams(flow);
  const secrets = flowSecrets(flow);
  const lines = [
    "/** A value from the environment; the flow's default when it has one. */",
    'function fromEnvironment(variable: string, fallback?: string): string {',
    '  const value = process.env[variable] ?? fallback;',
    '  if (value === undefined) {',
    '    throw new Error(`set ${variable}: the flow needs it`);',
    '  }',
    '  return value;',
    '}',
    '',
    'const params: Record<string, string> = {',
    ...names.map((name) => {
      const fallback = flow.defaults[name];
      const variable = literal(environmentName('PARAM', name));
      return `  ${literal(name)}: fromEnvironment(${variable}${fallback === undefined ? '' : `, ${literal(fallback)}`}),`;
    }),
    '};',
    '// Secrets are never in the flow nor in this file: each is read from its environment variable.',
    'const secrets: Record<string, string> = {',
    ...secrets.map((name) => `  ${literal(name)}: fromEnvironment(${literal(environmentName('SECRET', name))}),`),
    '};',
  ];
  return lines;
}

const TAB_AT = [
  '/** The open page whose URL contains this (a tab the flow switched to). */',
  'async function tabAt(current: Page, urlIncludes: string): Promise<Page> {',
  '  const found = current.context().pages().find((candidate) => candidate.url().includes(urlIncludes));',
  '  if (found === undefined) {',
  '    throw new Error(`no tab at a URL containing ${urlIncludes}`);',
  '  }',
  '  return found;',
  '}',
];

/**
 * A flow as a Playwright Test file (TypeScript): the same locators (Playwright's getBy* with the rules
 * locators are derived by), the same expectations, parameters and secrets from environment variables.
 */
export function flowToPlaywright(flow: Flow): string {
  const switches = flow.steps.some((step) => step.action === 'switch_tab');
  const body = flow.steps.flatMap((step, index) => [
    `  // Step ${index + 1}${step.title === undefined ? '' : `: ${step.title.replace(/\s+/g, ' ')}`}`,
    ...[...stepCode(step), ...expectationCode(step)].map((line) => `  ${line}`),
  ]);
  return [
    `// Exported by tabpilot from the flow ${literal(flow.name)} (tabpilot-flow version ${flow.version}).`,
    `import { expect, test${switches ? ', type Page' : ''} } from '@playwright/test';`,
    '',
    ...paramsCode(flow),
    ...(switches ? ['', ...TAB_AT] : []),
    '',
    `test(${literal(flow.name)}, async ({ page${switches ? ': first' : ''} }) => {`,
    ...(switches ? ['  let page = first;'] : []),
    ...body,
    '});',
    '',
  ].join('\n');
}
