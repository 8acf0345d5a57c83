import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

/**
 * A scripted LLM server on loopback speaking both wire formats the agent uses: OpenAI chat completions
 * (`POST /v1/chat/completions`, tool calls) and Anthropic messages (`POST /v1/messages`, tool use). It
 * records every request and answers from a script that reads what it was sent (the state in the prompt),
 * so a test's model acts on the real page it is shown.
 */
export type WireFormat = 'openai' | 'anthropic';

/** A request as the script sees it, the same for both formats. */
export interface ModelRequestView {
  readonly format: WireFormat;
  readonly system: string;
  /** Every user text of the request, joined. */
  readonly user: string;
  readonly tools: ReadonlyArray<{ name: string; description: string; schema: Record<string, unknown> }>;
  readonly hasImage: boolean;
  /** The raw request body as sent. */
  readonly body: Record<string, unknown>;
  readonly headers: IncomingMessage['headers'];
}

export type ScriptedReply =
  | { kind: 'tools'; text?: string; calls: Array<{ name: string; input: unknown }> }
  | { kind: 'text'; text: string }
  | { kind: 'status'; status: number; headers?: Record<string, string>; body?: string }
  /** Never answers (until the server stops): the client's timeout is what ends it. */
  | { kind: 'hang' }
  /** Answers once the test settles `reply`, so a test knows the client is waiting on the model meanwhile. */
  | { kind: 'later'; reply: Promise<Exclude<ScriptedReply, { kind: 'later' }>> };

export type ModelScript = (request: ModelRequestView, index: number) => ScriptedReply;

function textOf(content: unknown): string {
  if (typeof content === 'string') {
    return content;
  }
  if (Array.isArray(content)) {
    return content
      .map((part: { type?: string; text?: string }) => (part.type === 'text' ? (part.text ?? '') : ''))
      .join('\n');
  }
  return '';
}

function hasImagePart(content: unknown): boolean {
  return (
    Array.isArray(content) &&
    content.some((part: { type?: string }) => part.type === 'image' || part.type === 'image_url')
  );
}

function viewOf(
  format: WireFormat,
  body: Record<string, unknown>,
  headers: IncomingMessage['headers'],
): ModelRequestView {
  const messages = (body['messages'] ?? []) as Array<{ role: string; content: unknown }>;
  const users = messages.filter((message) => message.role === 'user');
  if (format === 'openai') {
    const tools = (
      (body['tools'] ?? []) as Array<{
        function: { name: string; description: string; parameters: Record<string, unknown> };
      }>
    ).map((entry) => ({
      name: entry.function.name,
      description: entry.function.description,
      schema: entry.function.parameters,
    }));
    return {
      format,
      system: messages
        .filter((message) => message.role === 'system')
        .map((message) => textOf(message.content))
        .join('\n'),
      user: users.map((message) => textOf(message.content)).join('\n'),
      tools,
      hasImage: users.some((message) => hasImagePart(message.content)),
      body,
      headers,
    };
  }
  const tools = (
    (body['tools'] ?? []) as Array<{ name: string; description: string; input_schema: Record<string, unknown> }>
  ).map((entry) => ({ name: entry.name, description: entry.description, schema: entry.input_schema }));
  return {
    format,
    system: textOf(body['system']),
    user: users.map((message) => textOf(message.content)).join('\n'),
    tools,
    hasImage: users.some((message) => hasImagePart(message.content)),
    body,
    headers,
  };
}

function openAiAnswer(reply: Extract<ScriptedReply, { kind: 'tools' | 'text' }>, index: number): unknown {
  const message =
    reply.kind === 'text'
      ? { role: 'assistant', content: reply.text }
      : {
          role: 'assistant',
          content: reply.text ?? null,
          tool_calls: reply.calls.map((call, position) => ({
            id: `call_${index}_${position}`,
            type: 'function',
            function: {
              name: call.name,
              arguments: typeof call.input === 'string' ? call.input : JSON.stringify(call.input),
            },
          })),
        };
  return {
    id: `chatcmpl-${index}`,
    object: 'chat.completion',
    created: 1,
    model: 'fake',
    choices: [{ index: 0, message, finish_reason: reply.kind === 'text' ? 'stop' : 'tool_calls' }],
    usage: { prompt_tokens: 1, completion_tokens: 1, total_tokens: 2 },
  };
}

function anthropicAnswer(reply: Extract<ScriptedReply, { kind: 'tools' | 'text' }>, index: number): unknown {
  const content =
    reply.kind === 'text'
      ? [{ type: 'text', text: reply.text }]
      : [
          ...(reply.text === undefined ? [] : [{ type: 'text', text: reply.text }]),
          ...reply.calls.map((call, position) => ({
            type: 'tool_use',
            id: `toolu_${index}_${position}`,
            name: call.name,
            input: call.input,
          })),
        ];
  return {
    id: `msg_${index}`,
    type: 'message',
    role: 'assistant',
    model: 'fake',
    content,
    stop_reason: reply.kind === 'text' ? 'end_turn' : 'tool_use',
    stop_sequence: null,
    usage: { input_tokens: 1, output_tokens: 1 },
  };
}

export class FakeModelServer {
  readonly requests: ModelRequestView[] = [];
  /** Errors the script threw (each answered 400), for tests to assert there were none. */
  readonly scriptErrors: string[] = [];
  readonly #server: Server;
  #script: ModelScript;
  #port = 0;

  constructor(script: ModelScript) {
    this.#script = script;
    this.#server = createServer((req, res) => this.#handle(req, res));
  }

  async start(): Promise<void> {
    await new Promise<void>((resolve) => this.#server.listen(0, '127.0.0.1', resolve));
    this.#port = (this.#server.address() as AddressInfo).port;
  }

  async stop(): Promise<void> {
    this.#server.closeAllConnections();
    await new Promise<void>((resolve) => this.#server.close(() => resolve()));
  }

  /** The base URL a client is given (both formats live under /v1). */
  get baseUrl(): string {
    return `http://127.0.0.1:${this.#port}/v1`;
  }

  /** Replaces the script and forgets the requests so far. */
  useScript(script: ModelScript): void {
    this.#script = script;
    this.requests.length = 0;
    this.scriptErrors.length = 0;
  }

  #handle(req: IncomingMessage, res: ServerResponse): void {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const format: WireFormat | undefined = req.url?.endsWith('/chat/completions')
        ? 'openai'
        : req.url?.endsWith('/messages')
          ? 'anthropic'
          : undefined;
      if (req.method !== 'POST' || format === undefined) {
        res.writeHead(404).end();
        return;
      }
      const body = JSON.parse(Buffer.concat(chunks).toString('utf8')) as Record<string, unknown>;
      const view = viewOf(format, body, req.headers);
      this.requests.push(view);
      let reply: ScriptedReply;
      try {
        reply = this.#script(view, this.requests.length);
      } catch (error) {
        // A script that cannot decide is a test bug: answer it loudly rather than leave the client waiting.
        this.scriptErrors.push(error instanceof Error ? error.message : String(error));
        reply = {
          kind: 'status',
          status: 400,
          body: JSON.stringify({ error: { message: `script failed: ${String(error)}` } }),
        };
      }
      if (reply.kind === 'later') {
        void reply.reply.then(
          (later) => this.#answer(res, format, later),
          (error: unknown) => this.#answer(res, format, { kind: 'status', status: 500, body: String(error) }),
        );
        return;
      }
      this.#answer(res, format, reply);
    });
  }

  #answer(res: ServerResponse, format: WireFormat, reply: Exclude<ScriptedReply, { kind: 'later' }>): void {
    if (reply.kind === 'hang') {
      return;
    }
    if (reply.kind === 'status') {
      res.writeHead(reply.status, { 'content-type': 'application/json', ...reply.headers });
      res.end(reply.body ?? JSON.stringify({ error: { message: `scripted ${reply.status}`, type: 'server_error' } }));
      return;
    }
    res.writeHead(200, { 'content-type': 'application/json' });
    res.end(
      JSON.stringify(
        format === 'openai' ? openAiAnswer(reply, this.requests.length) : anthropicAnswer(reply, this.requests.length),
      ),
    );
  }
}

/** The index of the element whose line in the state text contains `label` (`[12]<a ...>` then the label). */
export function indexOf(stateText: string, label: string): number {
  const lines = stateText.split('\n');
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i] ?? '';
    const match = /\[(\d+)\]</.exec(line);
    if (match === null) {
      continue;
    }
    const own = line.includes(label);
    const next = lines[i + 1] ?? '';
    if (own || (!/\[\d+\]</.test(next) && next.includes(label))) {
      return Number(match[1]);
    }
  }
  throw new Error(`no element labelled "${label}" in the state:\n${stateText}`);
}
