import packageJson from '../../../package.json' with { type: 'json' };
import { actionCatalog } from './action-catalog';

/**
 * Build step (scripts/build-node.mjs bundles and runs it): prints the action catalog the CLI reads
 * instead of a `describe` round trip, from the same declarations the session describes.
 */
process.stdout.write(`${JSON.stringify({ version: packageJson.version, actions: actionCatalog() })}\n`);
