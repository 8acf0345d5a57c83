import { SERVED_CONFIG } from '../../src/agent/tabpilot-config';

/**
 * The whole config as the entries give it to a CommandServer, for tests of the layers below the agent
 * (tools, browser), which may not import it themselves: they serve the config the product serves.
 */
export const servedConfig = SERVED_CONFIG;
