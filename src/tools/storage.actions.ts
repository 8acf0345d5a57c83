import { LoadStorageStateEvent, SaveStorageStateEvent } from '../browser/events/artifacts.events';
import { defineAction, type ActionContext, type AnyActionDefinition } from './registry';

function source(ctx: ActionContext): { source: string } {
  return { source: `${ctx.client.kind}:${ctx.client.id}` };
}

export const saveStorageStateAction = defineAction({
  name: 'save_storage_state',
  description:
    "Save the browser's cookies and the localStorage of the open origins to a file in Playwright's storageState format (Node: under output_dir; the extension: Downloads/tabpilot).",
  params: SaveStorageStateEvent.payloadSchema,
  run: async (params, ctx) => ctx.session.bus.emit(SaveStorageStateEvent, params, source(ctx)),
});

export const loadStorageStateAction = defineAction({
  name: 'load_storage_state',
  description:
    "Load a storage-state file (Playwright's format, or one tabpilot saved): cookies into the browser, localStorage into pages of each origin. A malformed file is refused whole.",
  params: LoadStorageStateEvent.payloadSchema,
  run: async (params, ctx) => ctx.session.bus.emit(LoadStorageStateEvent, params, source(ctx)),
});

export const STORAGE_ACTIONS: readonly AnyActionDefinition[] = [saveStorageStateAction, loadStorageStateAction];
