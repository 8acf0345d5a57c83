/**
 * The MCP shapes tabpilot's tool handlers speak (the 2025-11-25 schema's tools, content blocks and
 * results), written out here so the handlers do not depend on an SDK: the stdio adapter hands them to
 * whichever SDK serves them, and moving to another SDK touches only that adapter.
 */

/** A tool's hints; one left out means the spec's default (read-only false, destructive true, idempotent false, open world true). */
export interface McpToolAnnotations {
  readOnlyHint?: boolean;
  destructiveHint?: boolean;
  idempotentHint?: boolean;
  openWorldHint?: boolean;
}

export interface McpObjectSchema {
  type: 'object';
  [key: string]: unknown;
}

export interface McpTool {
  name: string;
  /** Left out when it would only repeat the name. */
  title?: string;
  description: string;
  inputSchema: McpObjectSchema;
  outputSchema?: McpObjectSchema;
  /** Left out when every hint is the spec's default. */
  annotations?: McpToolAnnotations;
}

export interface McpTextContent {
  type: 'text';
  text: string;
}

export interface McpImageContent {
  type: 'image';
  /** Base64. */
  data: string;
  mimeType: string;
}

/** A file the server wrote, by reference: the client (or its model) reads it when it wants. */
export interface McpResourceLink {
  type: 'resource_link';
  uri: string;
  name: string;
  mimeType?: string;
  description?: string;
  size?: number;
}

export type McpContent = McpTextContent | McpImageContent | McpResourceLink;

// A type, not an interface: an SDK's result type has an index signature, which only a type alias meets.
export type McpToolResult = {
  content: McpContent[];
  structuredContent?: Record<string, unknown>;
  isError?: boolean;
};

export interface McpProgress {
  /** Increases with every report. */
  progress: number;
  total?: number;
  message: string;
}

export function textResult(text: string, isError = false): McpToolResult {
  return isError ? { content: [{ type: 'text', text }], isError: true } : { content: [{ type: 'text', text }] };
}
