import { isDialogOpenError } from '../guards/dialog-condition';

/** What came of input that a JavaScript dialog may cut short: its result, or that a dialog opened. */
export type DialogCut<T> = { dialog: false; value: T } | { dialog: true };

/**
 * Sends input that may open a JavaScript dialog. A dialog left open for handle_dialog makes the page's
 * commands fail while it is up, but the page acted on the input: it counts as delivered, not as an error.
 */
export async function unlessDialogOpened<T>(send: () => Promise<T>): Promise<DialogCut<T>> {
  try {
    return { dialog: false, value: await send() };
  } catch (error) {
    if (isDialogOpenError(error)) {
      return { dialog: true };
    }
    throw error;
  }
}
