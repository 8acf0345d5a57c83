import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AiSdkModel, type ModelSettings } from '../../src/agent/ai-sdk-model';
import { ModelError, type ModelPrompt } from '../../src/agent/model';
import { FakeModelServer, type WireFormat } from './harness/fake-model-server';

/**
 * The agent's model adapter (the AI SDK's OpenAI-compatible and Anthropic providers) against a scripted
 * server on loopback: both wire formats, tool calls, the JSON-in-text path, and failures retried, then
 * reported clearly. No browser is needed: the loop with a browser is node-agent.e2e.ts.
 */
const prompt: ModelPrompt = {
  system: 'system text',
  user: 'user text',
  screenshot: null,
  tools: [
    {
      name: 'click',
      description: 'Click an element',
      schema: { type: 'object', properties: { index: { type: 'integer' } }, required: ['index'] },
    },
  ],
};

const server = new FakeModelServer(() => ({ kind: 'text', text: 'unused' }));
const retries: Array<{ message: string; delayMs: number }> = [];

function model(provider: WireFormat, overrides: Partial<ModelSettings> = {}): AiSdkModel {
  return new AiSdkModel({
    provider,
    model: provider === 'openai' ? 'gpt-fake' : 'claude-fake',
    baseUrl: server.baseUrl,
    apiKey: 'test-key',
    mode: 'tools',
    maxOutputTokens: 1024,
    requestTimeoutMs: 30_000,
    retry: { maxRetries: 2, baseMs: 0, maxWaitMs: 60_000 },
    onRetry: (message, delayMs) => retries.push({ message, delayMs }),
    ...overrides,
  });
}

const signal = new AbortController().signal;

beforeAll(() => server.start());
afterAll(() => server.stop());

describe.each(['openai', 'anthropic'] as const)('the %s wire format', (format) => {
  it('sends the system prompt, the user text and the tools with their schemas, and reads several tool calls', async () => {
    server.useScript(() => ({
      kind: 'tools',
      text: 'Clicking both.',
      calls: [
        { name: 'click', input: { index: 3 } },
        { name: 'click', input: { index: 4 } },
      ],
    }));
    const decision = await model(format).decide(prompt, signal);
    expect(decision).toEqual({
      thinking: 'Clicking both.',
      next_goal: null,
      actions: [
        { name: 'click', params: { index: 3 } },
        { name: 'click', params: { index: 4 } },
      ],
      attempts: 1,
    });
    const [request] = server.requests;
    expect(request?.system).toBe('system text');
    expect(request?.user).toBe('user text');
    expect(request?.tools).toEqual([
      { name: 'click', description: 'Click an element', schema: expect.objectContaining({ required: ['index'] }) },
    ]);
    if (format === 'openai') {
      expect(request?.headers['authorization']).toBe('Bearer test-key');
      expect(request?.body['tool_choice']).toBe('required');
    } else {
      expect(request?.headers['x-api-key']).toBe('test-key');
      expect(request?.body['max_tokens']).toBe(1024);
    }
  });

  it('the JSON-in-text path: no tools sent, the answer repaired and read', async () => {
    server.useScript(() => ({
      kind: 'text',
      text: '```json\n{"thinking": "t", "next_goal": "g", "actions": [{"click": {"index": 7}},]}\n```',
    }));
    const decision = await model(format, { mode: 'json' }).decide(prompt, signal);
    expect(decision.actions).toEqual([{ name: 'click', params: { index: 7 } }]);
    expect(decision.next_goal).toBe('g');
    expect(server.requests[0]?.tools).toEqual([]);
  });

  it('a model that answers in text despite the tools: its JSON text is read', async () => {
    server.useScript(() => ({ kind: 'text', text: '{"actions": [{"name": "click", "params": {"index": 2}}]}' }));
    const decision = await model(format).decide(prompt, signal);
    expect(decision.actions).toEqual([{ name: 'click', params: { index: 2 } }]);
    expect(server.requests[0]?.tools.map((tool) => tool.name)).toEqual(['click']);
  });

  it('a server error is retried and the next answer used', async () => {
    retries.length = 0;
    server.useScript((_request, index) =>
      index === 1
        ? { kind: 'status', status: 500 }
        : { kind: 'tools', calls: [{ name: 'click', input: { index: 1 } }] },
    );
    const decision = await model(format).decide(prompt, signal);
    expect(decision.attempts).toBe(2);
    expect(server.requests).toHaveLength(2);
    expect(retries).toEqual([{ message: expect.stringContaining('HTTP 500') as string, delayMs: 0 }]);
  });

  it("a 429 waits the server's Retry-After before the retry", async () => {
    retries.length = 0;
    const seen: number[] = [];
    server.useScript((_request, index) => {
      seen.push(Date.now());
      return index === 1
        ? { kind: 'status', status: 429, headers: { 'retry-after': '1' } }
        : { kind: 'tools', calls: [{ name: 'click', input: { index: 1 } }] };
    });
    const decision = await model(format).decide(prompt, signal);
    expect(decision.attempts).toBe(2);
    expect(retries).toEqual([{ message: expect.stringContaining('HTTP 429') as string, delayMs: 1000 }]);
    // A lower bound only: the retry cannot come sooner than the server asked (timers never fire early
    // by more than a millisecond).
    expect((seen[1] ?? 0) - (seen[0] ?? 0)).toBeGreaterThanOrEqual(990);
  });

  it('server errors past the retries fail with a message naming the attempts and the status', async () => {
    server.useScript(() => ({ kind: 'status', status: 503 }));
    const failing = model(format).decide(prompt, signal);
    await expect(failing).rejects.toThrow(ModelError);
    await expect(failing).rejects.toThrow(/model request failed after 3 attempts: HTTP 503/);
    expect(server.requests).toHaveLength(3);
  });

  it('a refused key is not retried', async () => {
    server.useScript(() => ({ kind: 'status', status: 401 }));
    await expect(model(format).decide(prompt, signal)).rejects.toThrow(/model request failed: HTTP 401/);
    expect(server.requests).toHaveLength(1);
  });

  it('a timeout is retried, then fails clearly', async () => {
    server.useScript(() => ({ kind: 'hang' }));
    const failing = model(format, { requestTimeoutMs: 300, retry: { maxRetries: 1, baseMs: 0, maxWaitMs: 0 } }).decide(
      prompt,
      signal,
    );
    await expect(failing).rejects.toThrow('model request failed after 2 attempts: no answer within 300 ms');
    expect(server.requests).toHaveLength(2);
  });

  it('an answer with neither tool calls nor readable JSON fails as malformed, not retried', async () => {
    server.useScript(() => ({ kind: 'text', text: 'I think I should click the button.' }));
    await expect(model(format).decide(prompt, signal)).rejects.toThrow(
      'model request failed: the answer could not be read: the answer has no JSON object',
    );
    expect(server.requests).toHaveLength(1);
  });
});
