import { createInterface } from 'node:readline/promises';
import type { ApprovalRequest, AskPerson } from '../../agent/approval-gate';

export interface TerminalApprovalOptions {
  yes: boolean;
  redact: (text: string) => string;
  /**
   * Without a terminal to ask on: `refuse` the action (the in-process run has no one else to ask), or
   * leave it `to_panel` (a run in the extension, where the side panel shows the same approval).
   */
  withoutTerminal: 'refuse' | 'to_panel';
}

/** The person's answer; `unanswered` when it was left to the side panel. */
export type TerminalAnswer = boolean | 'stopped' | 'unanswered';

/**
 * One approval asked on the terminal: the question on stderr (stdout carries only the answer), y/N on
 * stdin. With `yes` every action is approved. `signal` ends the question unanswered ('stopped'): the
 * run stopped, or the approval was answered elsewhere.
 */
export async function askOnTerminal(
  request: ApprovalRequest,
  signal: AbortSignal,
  options: TerminalApprovalOptions,
): Promise<TerminalAnswer> {
  const what = options.redact(`${request.action} ${JSON.stringify(request.params ?? {})}`);
  const line = `approval needed (${request.risk}): ${options.redact(request.reason)}\n  ${what}\n`;
  if (options.yes) {
    process.stderr.write(`${line}  approved (--yes)\n`);
    return true;
  }
  if (process.stdin.isTTY !== true) {
    if (options.withoutTerminal === 'to_panel') {
      process.stderr.write(
        `${line}  waiting for the approval in the side panel (stdin is not a terminal to ask on; --yes approves every action)\n`,
      );
      return 'unanswered';
    }
    process.stderr.write(`${line}  refused: stdin is not a terminal to ask on (--yes approves every action)\n`);
    return false;
  }
  process.stderr.write(line);
  const prompt = createInterface({ input: process.stdin, output: process.stderr });
  // On a terminal the question reads Ctrl-C itself: handed to the process's SIGINT handlers, it stops the
  // run as anywhere else (emitted rather than sent, since on Windows a sent SIGINT kills the process outright).
  prompt.once('SIGINT', () => process.emit('SIGINT', 'SIGINT'));
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
}

/**
 * The in-process `tabpilot run`'s approvals: asked on the terminal; without one, every action is
 * refused, unless `yes` approves every one.
 */
export function ttyApproval(options: { yes: boolean; redact: (text: string) => string }): AskPerson {
  return async (request, signal) => {
    const answer = await askOnTerminal(request, signal, { ...options, withoutTerminal: 'refuse' });
    return answer === 'unanswered' ? false : answer;
  };
}
