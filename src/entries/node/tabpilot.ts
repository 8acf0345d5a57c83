import packageJson from '../../../package.json' with { type: 'json' };
import { runCli } from './cli-main';

/**
 * The lean entry bin/tabpilot.mjs runs (dist/node/tabpilot.js): version, help, completion, bad usage
 * and every action through the host, without loading the browser, MCP or agent code. A command that
 * needs those loads the full CLI (dist/node/cli.js, also what the native host's launcher runs), which
 * reads the same process.argv and exits itself.
 */
const code = await runCli(process.argv.slice(2), { dir: import.meta.dirname, version: packageJson.version });
if (code === 'full') {
  await import(new URL('./cli.js', import.meta.url).href);
} else {
  process.exit(code);
}
