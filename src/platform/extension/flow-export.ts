import type { ArtifactFiles } from '../../browser/artifacts/artifact-files';
import type { CommandResponse } from '../../protocol/commands';
import { parseFlow } from '../../protocol/flow';
import { utf8 } from '../../shared/bytes';
import { toCommandError } from '../../tools/command-error';
import { flowToPlaywright } from '../../tools/flows/playwright-export';

export type FlowExportKind = 'json' | 'playwright';

/** A file name for the flow: its name in lower case, words joined by dashes (`Sign up` → `sign-up`). */
export function flowFileStem(name: string): string {
  const stem = name
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '')
    .slice(0, 60)
    .replace(/-+$/, '');
  return stem === '' ? 'flow' : stem;
}

/**
 * The side panel's export of a kept flow, checked by the flow schema first: the flow file as the recorder
 * writes it, or the Playwright Test file `tabpilot flow export` writes, saved where the recorder saves
 * (Downloads/tabpilot) under the flow's name, overwriting an earlier export of it. The worker writes it:
 * Chrome names the extension's downloads through the worker's onDeterminingFilename, which knows only its
 * own; and the exporter is not the panel's to import.
 */
export async function exportFlow(
  id: number,
  flow: unknown,
  kind: FlowExportKind,
  files: Pick<ArtifactFiles, 'writeFile'>,
): Promise<CommandResponse> {
  try {
    const checked = parseFlow(flow);
    const stem = flowFileStem(checked.name);
    const path =
      kind === 'json'
        ? await files.writeFile(`${stem}.json`, utf8(`${JSON.stringify(checked, null, 2)}\n`), {
            field: 'flow',
            atomic: true,
            mimeType: 'application/json',
          })
        : // octet-stream: Chrome renames a download to fit a text type (.spec.ts would become .txt).
          await files.writeFile(`${stem}.spec.ts`, utf8(flowToPlaywright(checked)), {
            field: 'flow',
            atomic: true,
            mimeType: 'application/octet-stream',
          });
    return { id, ok: true, result: { path } };
  } catch (error) {
    return { id, ok: false, error: toCommandError(error) };
  }
}
