import { describe, expect, it } from 'vitest';
import type { OutputFiles } from './answer-budget';
import { answerOf } from './tool-answers';

const files: OutputFiles = {
  write: () => Promise.reject(new Error('nothing is written for a picture')),
  linkTo: (path, mimeType) => ({ type: 'resource_link', uri: `file://${path}`, name: path, mimeType }),
};

describe('MCP answers', () => {
  it("gives a run step's picture as an image, not as base64 text", async () => {
    const answer = await answerOf(
      { run_id: 'r1', step: 2, format: 'jpeg', data: '/9j/4AAQSkZJRg' },
      { action: 'run_screenshot', answer: 'step_picture', tabId: undefined, budget: 40_000, files },
    );
    expect(answer.content).toEqual([
      { type: 'text', text: 'The page at step 2 of run r1' },
      { type: 'image', data: '/9j/4AAQSkZJRg', mimeType: 'image/jpeg' },
    ]);
  });
});
