import type { z } from 'zod';

/** The first problem of a zod error as every surface reports it: the field's dotted path and a message. */
export interface FieldProblem {
  /** `reconnect.max_attempts`; several unknown keys are joined with ", "; '' for the whole value. */
  field: string;
  message: string;
}

/**
 * Reads the first issue of a zod error. An unknown key is named with its full path and called an
 * unknown `noun` ("field" in payloads and config, "parameter" in action params); any other issue keeps
 * zod's own message.
 */
export function firstProblem(error: z.ZodError, noun: 'field' | 'parameter' = 'field'): FieldProblem {
  const issue = error.issues[0];
  if (issue === undefined) {
    return { field: '', message: error.message };
  }
  const path = issue.path.map(String).join('.');
  if (issue.code === 'unrecognized_keys') {
    return {
      field: issue.keys.map((key) => (path === '' ? key : `${path}.${key}`)).join(', '),
      message: `unknown ${noun}`,
    };
  }
  return { field: path, message: issue.message };
}

/** "field: message", or the message alone when the problem is with the whole value. */
export function problemText(problem: FieldProblem): string {
  return problem.field === '' ? problem.message : `${problem.field}: ${problem.message}`;
}

/**
 * The first issue of a zod error in zod's own words, for the edges (native frames, the socket's hello,
 * storage files, CLI options): "path.to.field: message". `whole` names the value itself when the problem
 * is not in a field (a storage file says "the top"); without it the message stands alone.
 */
export function zodMessage(error: z.ZodError, options: { whole?: string } = {}): string {
  const issue = error.issues[0];
  if (issue === undefined) {
    return error.message;
  }
  const path = issue.path.map(String).join('.');
  const field = path === '' ? options.whole : path;
  return field === undefined ? issue.message : `${field}: ${issue.message}`;
}
