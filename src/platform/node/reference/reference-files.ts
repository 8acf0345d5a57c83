import { format, resolveConfig } from 'prettier';
import { renderConfigReference } from './config-reference';
import { renderMcpClientsReference } from './mcp-clients-reference';
import { renderProtocolReference } from './protocol-reference';

/** The command that writes the references; the stale-check test names it. */
export const REFERENCE_COMMAND = 'node scripts/docs-reference.mjs';

/** The generated reference pages, by path from the repository root. */
export const REFERENCE_PAGES: ReadonlyArray<{ readonly path: string; readonly render: () => string }> = [
  { path: 'docs/reference/protocol.md', render: renderProtocolReference },
  { path: 'docs/reference/configuration.md', render: renderConfigReference },
  { path: 'docs/reference/mcp-clients.md', render: renderMcpClientsReference },
];

/** Each page's text as it is written: rendered, then formatted by prettier with the repository's settings. */
export async function referenceFiles(root: string): Promise<Array<{ path: string; text: string }>> {
  const files: Array<{ path: string; text: string }> = [];
  for (const page of REFERENCE_PAGES) {
    const filepath = `${root}/${page.path}`;
    const options = (await resolveConfig(filepath)) ?? {};
    files.push({ path: page.path, text: await format(page.render(), { ...options, filepath }) });
  }
  return files;
}
