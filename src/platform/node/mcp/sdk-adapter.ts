import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import {
  CallToolRequestSchema,
  ErrorCode,
  ListResourcesRequestSchema,
  ListToolsRequestSchema,
  McpError,
  ReadResourceRequestSchema,
} from '@modelcontextprotocol/sdk/types.js';
import { errorMessageOf } from '../../../shared/errors';
import type { Logger } from '../../../shared/logger';
import type { McpToolRunner } from '../../../tools/mcp/tool-runner';
import type { OutputFolder } from './output-files';

export interface McpAdapterOptions {
  version: string;
  runner: McpToolRunner;
  files: OutputFolder;
  log: Logger;
  /** Called once the client said `initialized` (its name is known then). */
  onInitialized?: () => void;
}

const INSTRUCTIONS =
  'tabpilot drives a Chromium browser. Call state to read the page: its text marks elements with [n] indexes, which click, input and the other element tools take. A tool acts on the focused tab unless given a tab_id (tabs lists them). Every answer names the tab it acted on; a tool that fails says what to do next.';

/**
 * The one place that knows the MCP SDK (1.x): its low-level Server answers tools/list and tools/call
 * from the runner, and resources/read for the files the runner linked. The SDK marks this Server
 * deprecated in favour of McpServer, which builds tool lists from zod shapes; tabpilot's tools come
 * with their JSON Schema already, so it takes the low-level one. Another SDK means another adapter.
 */
export class McpAdapter {
  readonly server: Server;
  readonly #options: McpAdapterOptions;

  constructor(options: McpAdapterOptions) {
    this.#options = options;
    this.server = new Server(
      { name: 'tabpilot', title: 'tabpilot', version: options.version },
      { capabilities: { tools: { listChanged: true }, resources: {} }, instructions: INSTRUCTIONS },
    );
    const onInitialized = options.onInitialized;
    if (onInitialized !== undefined) {
      this.server.oninitialized = onInitialized;
    }
    this.server.onerror = (error) => options.log.warn('MCP transport error', { error: errorMessageOf(error) });
    this.server.setRequestHandler(ListToolsRequestSchema, () => ({
      tools: options.runner.listTools(),
    }));
    this.server.setRequestHandler(CallToolRequestSchema, async (request, extra) => {
      const token = request.params._meta?.progressToken;
      const result = await options.runner.callTool(request.params.name, request.params.arguments, {
        signal: extra.signal,
        ...(token === undefined
          ? {}
          : {
              onProgress: (progress) => {
                extra
                  .sendNotification({ method: 'notifications/progress', params: { progressToken: token, ...progress } })
                  .catch((error: unknown) => options.log.debug('progress not sent', { error: errorMessageOf(error) }));
              },
            }),
      });
      return result;
    });
    this.server.setRequestHandler(ListResourcesRequestSchema, () => ({
      resources: options.files.list(),
    }));
    this.server.setRequestHandler(ReadResourceRequestSchema, (request) => {
      const content = options.files.read(request.params.uri);
      if (content === undefined) {
        throw new McpError(
          ErrorCode.InvalidParams,
          `Not a file this server wrote: ${request.params.uri} (only the files its answers link can be read)`,
        );
      }
      return { contents: [{ uri: request.params.uri, ...content }] };
    });
  }

  /** Tells the client to list the tools again (tools/list_changed). */
  toolsChanged(): void {
    this.server
      .sendToolListChanged()
      .catch((error: unknown) =>
        this.#options.log.warn('tools/list_changed not sent', { error: errorMessageOf(error) }),
      );
  }

  /** The MCP client's name from initialize (`claude-code`, `cursor`, ...), once it has said it. */
  clientName(): string | undefined {
    return this.server.getClientVersion()?.name;
  }

  connect(transport: Transport): Promise<void> {
    return this.server.connect(transport);
  }

  close(): Promise<void> {
    return this.#options.runner.close().finally(() => this.server.close());
  }
}
