import type { CdpSession } from '../../cdp/session';

/** How long the browser may take to close a dialog (it answers at once; browser-use waits 0.5 s). */
export const DIALOG_ANSWER_TIMEOUT_MS = 2_000;

export interface DialogAnswer {
  accept: boolean;
  /** Typed into a prompt() before it is accepted. */
  prompt_text?: string | undefined;
}

/**
 * Answers the JavaScript dialog a session reported. It goes to that session (a frame's dialog to the
 * frame's), past the suspension that holds the blocked page's other commands.
 */
export async function answerDialog(session: CdpSession, answer: DialogAnswer): Promise<void> {
  await session.call(
    'Page.handleJavaScriptDialog',
    { accept: answer.accept, ...(answer.prompt_text === undefined ? {} : { promptText: answer.prompt_text }) },
    { timeoutMs: DIALOG_ANSWER_TIMEOUT_MS, ignoreSuspension: true },
  );
}
