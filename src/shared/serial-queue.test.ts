import { describe, expect, it } from 'vitest';
import { SerialQueue } from './serial-queue';

describe('SerialQueue', () => {
  it('runs each task after the one before has settled, in order', async () => {
    const queue = new SerialQueue();
    const seen: string[] = [];
    let release = (): void => undefined;
    const first = queue.run(
      () =>
        new Promise<string>((resolve) => {
          seen.push('first started');
          release = () => {
            seen.push('first ended');
            resolve('one');
          };
        }),
    );
    const second = queue.run(async () => {
      seen.push('second started');
      return 'two';
    });
    await Promise.resolve();
    expect(seen).toEqual(['first started']);
    release();
    expect(await Promise.all([first, second])).toEqual(['one', 'two']);
    expect(seen).toEqual(['first started', 'first ended', 'second started']);
  });

  it("gives a task's failure to its caller and runs the tasks after it", async () => {
    const queue = new SerialQueue();
    const failed = queue.run(() => Promise.reject(new Error('refused')));
    const next = queue.run(() => Promise.resolve('ran'));
    await expect(failed).rejects.toThrow('refused');
    expect(await next).toBe('ran');
  });
});
