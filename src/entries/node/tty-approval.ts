import { createInterface } from 'node:readline/promises';
import type { AskPerson } from '../../agent/approval-gate';

/**
 * `tabpilot run`'s approvals: the question on stderr (stdout carries only the answer), y/N on stdin.
 * With `yes` every action is approved; without a terminal to ask on, every one is refused.
 */
export function ttyApproval(options: { yes: boolean; redact: (text: string) => string }): AskPerson {
  return async (request, signal) => {
    const what = options.redact(`${request.action} ${JSON.stringify(request.params ?? {})}`);
    const line = `approval needed (${request.risk}): ${options.redact(request.reason)}\n  ${what}\n`;
    if (options.yes) {
      process.stderr.write(`${line}  approved (--yes)\n`);
      return true;
    }
    if (process.stdin.isTTY !== true) {
      process.stderr.write(`${line}  refused: stdin is not a terminal to ask on (--yes approves every action)\n`);
      return false;
    }
    process.stderr.write(line);
    const prompt = createInterface({ input: process.stdin, output: process.stderr });
    try {
      const answer = await prompt.question('  approve? [y/N] ', { signal });
      return /^y(es)?$/i.test(answer.trim());
    } catch (error) {
      if (signal.aborted) {
        return 'stopped';
      }
      throw error;
    } finally {
      prompt.close();
    }
  };
}
