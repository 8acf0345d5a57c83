import { TabpilotError } from '../../../shared/errors';
import type { CommandChannel } from '../../../tools/mcp/command-channel';

export interface NativeChannelOptions {
  /** The client name the person sees in the panel: `mcp:<the MCP client's name>`. */
  client: string;
}

/**
 * The default mode's way in: the person's browser through the native host, as one named client with its
 * own tabs. This build has no native host client yet, so it refuses with UNSUPPORTED, naming the
 * modes that work; the host's client library plugs in here (connect, then request per call).
 */
export function openNativeChannel(_options: NativeChannelOptions): Promise<CommandChannel> {
  return Promise.reject(
    new TabpilotError(
      'UNSUPPORTED',
      'native messaging is not available yet in this build: start the server with --launch (a Chromium of its own) or --cdp-url URL (a running Chromium) instead',
    ),
  );
}
