import { CONTENT_ACTIONS } from './content.actions';
import { INTERACTION_ACTIONS } from './interaction.actions';
import { PERCEPTION_ACTIONS } from './perception.actions';
import { ActionRegistry } from './registry';
import { SESSION_ACTIONS } from './session.actions';
import { STORAGE_ACTIONS } from './storage.actions';

/** The registry every surface serves (the panel, the CLI, native clients). */
export function createDefaultRegistry(): ActionRegistry {
  return new ActionRegistry().register(
    ...SESSION_ACTIONS,
    ...PERCEPTION_ACTIONS,
    ...CONTENT_ACTIONS,
    ...INTERACTION_ACTIONS,
    ...STORAGE_ACTIONS,
  );
}
