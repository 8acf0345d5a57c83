import { errorCodeOf, errorMessageOf } from '../shared/errors';

/**
 * What an agent's model is told after an action (browser-use's ActionResult, snake_case): a short text
 * of what happened, or the error, and the structured result for programs. `act` never throws: a failed
 * action is a result the model can read and recover from.
 */
export interface ActionResult {
  action: string;
  success: boolean;
  extracted_content: string | null;
  error: string | null;
  error_code: string | null;
  result: unknown;
}

const MAX_CONTENT = 4000;

/** A model-facing line for a result: text fields as they are, anything else as compact JSON. */
function describe(result: unknown): string | null {
  if (result === undefined || result === null) {
    return null;
  }
  if (typeof result === 'object' && 'text' in result && typeof result.text === 'string') {
    return result.text;
  }
  if (typeof result === 'object' && 'markdown' in result && typeof result.markdown === 'string') {
    return result.markdown;
  }
  const json = JSON.stringify(result);
  return json.length > MAX_CONTENT ? `${json.slice(0, MAX_CONTENT)}... (truncated)` : json;
}

export async function toActionResult(action: string, run: () => Promise<unknown>): Promise<ActionResult> {
  try {
    const result = await run();
    return { action, success: true, extracted_content: describe(result), error: null, error_code: null, result };
  } catch (error) {
    return {
      action,
      success: false,
      extracted_content: null,
      error: errorMessageOf(error),
      error_code: errorCodeOf(error),
      result: null,
    };
  }
}
