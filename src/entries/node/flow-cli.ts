import { readFileSync, writeFileSync } from 'node:fs';
import { parseArgs } from 'node:util';
import { parseFlow } from '../../protocol/flow';
import { errorMessageOf } from '../../shared/errors';
import { flowToPlaywright } from '../../tools/flows/playwright-export';

export const FLOW_USAGE = `  tabpilot flow export FLOW [--out FILE]
      Write a flow file (docs/flows.md) as a Playwright Test file (TypeScript) with the same locators and
      expectations, to FILE or to stdout; its parameters and secrets are read from environment variables
      (TABPILOT_PARAM_<NAME>, TABPILOT_SECRET_<NAME>). Run it with npx playwright test.`;

/** `tabpilot flow export FLOW [--out FILE]`; 0, or 2 for bad usage or a file that is not a flow. */
export function runFlowCli(
  args: readonly string[],
  out: (text: string) => void = (text) => process.stdout.write(text),
): number {
  let parsed;
  try {
    parsed = parseArgs({
      args: [...args],
      allowPositionals: true,
      options: { out: { type: 'string' }, help: { type: 'boolean', short: 'h' } },
    });
  } catch (error) {
    process.stderr.write(`tabpilot: flow: ${errorMessageOf(error)}\n\n${FLOW_USAGE}\n`);
    return 2;
  }
  const [verb, file, ...extra] = parsed.positionals;
  if (parsed.values.help === true) {
    out(`${FLOW_USAGE}\n`);
    return 0;
  }
  if (verb !== 'export' || file === undefined || extra.length > 0) {
    process.stderr.write(`tabpilot: flow: expected \`flow export FLOW\`\n\n${FLOW_USAGE}\n`);
    return 2;
  }
  let code: string;
  try {
    code = flowToPlaywright(parseFlow(JSON.parse(readFileSync(file, 'utf8')), file));
  } catch (error) {
    process.stderr.write(`tabpilot: flow: ${errorMessageOf(error)}\n`);
    return 2;
  }
  if (parsed.values.out === undefined) {
    out(code);
  } else {
    writeFileSync(parsed.values.out, code);
  }
  return 0;
}
