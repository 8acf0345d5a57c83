import { z } from 'zod';

/** Extension: programs on this computer that drive the browser through the native-messaging host. */
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
        .default(false)
        .describe('Ask in the side panel before a client you have not approved yet (by name) may act'),
    })
    .default({ enabled: true, approve_new_clients: false })
    .describe('Extension: native clients through the tabpilot host (no TCP port)'),
};
