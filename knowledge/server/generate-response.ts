import { randomUUID } from 'node:crypto';
import type { GenerateResponse } from '../../shared/agent.js';
import type { ChatAnswer } from '../agent/answer.js';

/** Mastra's generate answer (text, finishReason, usage, response) plus the sources it cites. */
export function generateResponse(answer: ChatAnswer, runId: string = randomUUID()): GenerateResponse {
  return {
    text: answer.text,
    finishReason: 'stop',
    usage: {
      inputTokens: answer.inputTokens,
      outputTokens: answer.outputTokens,
      totalTokens: answer.inputTokens + answer.outputTokens,
    },
    sources: answer.citations,
    addressed: answer.addressed,
    response: {
      id: runId,
      timestamp: new Date().toISOString(),
      modelId: answer.modelId,
      messages: answer.text
        ? [{ id: `${runId}-answer`, role: 'assistant', content: [{ type: 'text', text: answer.text }] }]
        : [],
    },
  };
}
