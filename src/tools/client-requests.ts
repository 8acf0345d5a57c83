import type { z } from 'zod';
import type { CommandError, CommandResponse } from '../protocol/commands';
import { TabpilotError } from '../shared/errors';
import { fieldOf, isRecord } from '../shared/narrow';
import { firstProblem, problemText } from '../shared/zod-issues';

/** How a client's request is read and answered where the CommandServer does it by hand. */

/** A stop's answer counts the requests it cancelled before they reached the bus too. */
export function withQueuedCount(response: CommandResponse, queued: number): CommandResponse {
  if (!response.ok || queued === 0) {
    return response;
  }
  const result = response.result;
  const cancelled = fieldOf(result, 'cancelled');
  if (typeof cancelled !== 'number' || !isRecord(result)) {
    return response;
  }
  return { ...response, result: { ...result, cancelled: cancelled + queued } };
}

export function parseClientParams<S extends z.ZodType>(action: string, schema: S, params: unknown): z.output<S> {
  const parsed = schema.safeParse(params ?? {});
  if (!parsed.success) {
    const problem = firstProblem(parsed.error, 'parameter');
    throw new TabpilotError('INVALID_PARAMS', `${action}: ${problemText(problem)}`, {
      details: { action, field: problem.field },
    });
  }
  return parsed.data;
}

export function requestShapeError(error: z.ZodError): CommandError {
  const problem = firstProblem(error);
  return {
    code: 'INVALID_REQUEST',
    message: `A request is {"id", "action", "params"}: ${problemText(problem)}`,
    details: { field: problem.field },
  };
}
