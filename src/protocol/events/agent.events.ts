import { z } from 'zod';
import { defineEvent } from '../define-event';

/**
 * A built-in agent's run as the timeline shows it: one started event, one event per step, one finished
 * event, all carrying the run's id; every action a step runs is emitted with the source `agent:<run_id>`,
 * so the timeline groups a run's actions under it.
 */

export const AgentActionOutcome = z.strictObject({
  name: z.string(),
  params: z.unknown(),
  success: z.boolean(),
  /** What the model is told about the action (a short text, or the result as compact JSON). */
  extracted_content: z.string().nullable(),
  error: z.string().nullable(),
  error_code: z.string().nullable(),
});
export type AgentActionOutcome = z.infer<typeof AgentActionOutcome>;

/** That a step's picture is kept, and what it is: `run_screenshot {run_id, step}` gives the picture itself. */
export const AgentStepScreenshot = z.strictObject({
  format: z.enum(['png', 'jpeg', 'webp']),
  /** The image's size in bytes (decoded). */
  bytes: z.number().int().min(0),
});
export type AgentStepScreenshot = z.infer<typeof AgentStepScreenshot>;

export const AgentRunFinishReason = z.enum(['done', 'max_steps', 'max_failures', 'stopped']);
export type AgentRunFinishReason = z.infer<typeof AgentRunFinishReason>;

export const AgentRunStartedEvent = defineEvent('AgentRunStartedEvent', {
  payload: {
    run_id: z.string(),
    task: z.string(),
    model: z.string(),
    provider: z.string(),
    max_steps: z.number().int(),
  },
  result: z.void(),
  timeoutMs: 5_000,
});

export const AgentStepEvent = defineEvent('AgentStepEvent', {
  payload: {
    run_id: z.string(),
    step: z.number().int().min(1),
    url: z.string(),
    /** What the model said it is doing (its text beside the tool calls, or the JSON's thinking/next_goal). */
    thinking: z.string().nullable(),
    next_goal: z.string().nullable(),
    actions: z.array(AgentActionOutcome),
    /** Why the step failed as a whole (the model could not be reached, its answer could not be read). */
    error: z.string().nullable(),
    /** Model requests made for this step, retries included. */
    model_attempts: z.number().int().min(0),
    prompt_chars: z.number().int().min(0),
    /** The picture of the page the step acted on, when one is kept (agent.step_screenshots); null: none. */
    screenshot: AgentStepScreenshot.nullable().default(null),
  },
  result: z.void(),
  timeoutMs: 5_000,
});

export const AgentRunFinishedEvent = defineEvent('AgentRunFinishedEvent', {
  payload: {
    run_id: z.string(),
    reason: AgentRunFinishReason,
    success: z.boolean(),
    /** The done text, or why the run ended without one. */
    text: z.string(),
    steps: z.number().int().min(0),
  },
  result: z.void(),
  timeoutMs: 5_000,
});

export const AgentPausedEvent = defineEvent('AgentPausedEvent', {
  payload: { run_id: z.string(), paused: z.boolean() },
  result: z.void(),
  timeoutMs: 5_000,
});

/** The classes of action that wait for the person's approval when agent.approval is on. */
export const AgentRisk = z.enum(['upload', 'download', 'evaluate', 'cross_origin_form', 'new_domain']);
export type AgentRisk = z.infer<typeof AgentRisk>;

/** The agent waits before a risky action until `approve` answers this approval_id (or the run stops). */
export const AgentApprovalRequestedEvent = defineEvent('AgentApprovalRequestedEvent', {
  payload: {
    run_id: z.string(),
    approval_id: z.string(),
    /** The action the agent is about to run, and its params as the model gave them. */
    action: z.string(),
    params: z.unknown(),
    risk: AgentRisk,
    /** Why the action is risky, in words a person can judge (the domain, the file, the form's target). */
    reason: z.string(),
  },
  result: z.void(),
  timeoutMs: 5_000,
});

/** The person's answer (or a stop, which refuses): the agent goes on, or records the action as refused. */
export const AgentApprovalResolvedEvent = defineEvent('AgentApprovalResolvedEvent', {
  payload: { run_id: z.string(), approval_id: z.string(), approved: z.boolean() },
  result: z.void(),
  timeoutMs: 5_000,
});
