import { z } from 'zod';

/**
 * Extension: programs on this computer that drive the browser through the native-messaging host. Kept beside
 * the browser's config rather than beside the host: the host is platform code, a layer the browser's config
 * may not import.
 */
export const NATIVE_CONFIG_SHAPE = {
  native_clients: z
    .strictObject({
      enabled: z
        .boolean()
        .default(true)
        .describe(
          'Start the native host when the worker starts, so local programs (the tabpilot CLI, MCP servers) can connect; installing the host with tabpilot install-host is your consent',
        ),
      approve_new_clients: z
        .boolean()
        .default(true)
        .describe(
          'Hold each program that connects until you allow it in the side panel (once, or until revoked: bound to a key the program keeps and the executable the system saw, never to the name alone); off lets every local program of this user drive the browser',
        ),
    })
    .default({ enabled: true, approve_new_clients: true })
    .describe('Extension: native clients through the tabpilot host (no TCP port)'),
};
