import type { ModelAction } from './model';
import { isRecord } from '../shared/narrow';

/**
 * The JSON-in-text answer for models without tool calling:
 * `{"thinking": "...", "next_goal": "...", "actions": [{"name": "click", "params": {"index": 3}}]}`.
 * Models wrap it in code fences, put prose around it, leave trailing commas or use `{"click": {...}}`
 * (browser-use's own action shape): all of that is repaired; anything else is a clear error.
 */
export interface TextDecision {
  thinking: string | null;
  next_goal: string | null;
  actions: ModelAction[];
}

export class MalformedOutputError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'MalformedOutputError';
  }
}

export const JSON_OUTPUT_SHAPE =
  '{"thinking": "what you see and why", "next_goal": "what this step does", "actions": [{"name": "<action>", "params": {...}}]}';

/** The outermost balanced {...} of the text, skipping braces inside strings. */
function outerObject(text: string): string | undefined {
  const start = text.indexOf('{');
  if (start < 0) {
    return undefined;
  }
  let depth = 0;
  let inString = false;
  for (let i = start; i < text.length; i++) {
    const char = text[i];
    if (inString) {
      if (char === '\\') {
        i++;
      } else if (char === '"') {
        inString = false;
      }
      continue;
    }
    if (char === '"') {
      inString = true;
    } else if (char === '{') {
      depth++;
    } else if (char === '}') {
      depth--;
      if (depth === 0) {
        return text.slice(start, i + 1);
      }
    }
  }
  // Cut off mid-answer: close what is open, the best guess of what was meant.
  return text.slice(start) + '}'.repeat(depth);
}

function parseLoosely(candidate: string): unknown {
  try {
    return JSON.parse(candidate);
  } catch (error) {
    const repaired = candidate.replace(/,\s*([}\]])/g, '$1').replace(/[\u201c\u201d]/g, '"');
    try {
      return JSON.parse(repaired);
    } catch {
      throw new MalformedOutputError(
        `the answer is not valid JSON (${error instanceof Error ? error.message : String(error)})`,
      );
    }
  }
}

function textField(value: unknown): string | null {
  return typeof value === 'string' && value.trim() !== '' ? value : null;
}

function actionOf(entry: unknown, position: number): ModelAction {
  if (!isRecord(entry)) {
    throw new MalformedOutputError(`actions[${position}] is not an object`);
  }
  const record = entry;
  if (typeof record['name'] === 'string') {
    return { name: record['name'], params: record['params'] ?? {} };
  }
  const keys = Object.keys(record);
  if (keys.length === 1 && keys[0] !== undefined && keys[0] !== 'params') {
    return { name: keys[0], params: record[keys[0]] ?? {} };
  }
  throw new MalformedOutputError(`actions[${position}] has no "name"`);
}

export function parseTextDecision(text: string): TextDecision {
  const unfenced = text.replace(/```(?:json)?/gi, '');
  const candidate = outerObject(unfenced);
  if (candidate === undefined) {
    throw new MalformedOutputError('the answer has no JSON object');
  }
  const parsed = parseLoosely(candidate);
  if (!isRecord(parsed)) {
    throw new MalformedOutputError('the answer is not a JSON object');
  }
  const record = parsed;
  const rawActions = record['actions'] ?? record['action'];
  const list = Array.isArray(rawActions) ? rawActions : rawActions === undefined ? [] : [rawActions];
  if (list.length === 0) {
    throw new MalformedOutputError('the answer has no "actions"');
  }
  return {
    thinking: textField(record['thinking']),
    next_goal: textField(record['next_goal']),
    actions: list.map(actionOf),
  };
}
