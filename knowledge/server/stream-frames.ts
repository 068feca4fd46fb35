import type { AgentStreamFrame, GenerateResponse } from '../../shared/agent.js';

/** Text in the pieces a model would stream: a word with the space after it. */
function textPieces(text: string): string[] {
  return text.match(/\s*\S+\s*/g) ?? [];
}

/**
 * The frames of an answer in Mastra's stream order: start, step-start, text-start, one
 * text-delta per word, text-end, a `source` frame per citation, step-finish, and a finish frame
 * carrying the usage, the sources and whether the agent was addressed. `[DONE]` follows them.
 */
export function streamFrames(answer: GenerateResponse): AgentStreamFrame[] {
  const runId = answer.response.id;
  const frame = (type: string, payload: Record<string, unknown> = {}): AgentStreamFrame => ({
    type,
    runId,
    from: 'AGENT',
    payload,
  });
  const textId = `${runId}-text`;
  const stepResult = { reason: answer.finishReason, isContinued: false, warnings: [] };
  const messages = { all: answer.response.messages, user: [], nonUser: answer.response.messages };
  const text = answer.text
    ? [
        frame('text-start', { id: textId }),
        ...textPieces(answer.text).map((piece) => frame('text-delta', { id: textId, text: piece })),
        frame('text-end', { id: textId }),
      ]
    : [];
  return [
    frame('start', {}),
    frame('step-start', { messageId: `${runId}-answer`, request: {}, warnings: [] }),
    ...text,
    ...answer.sources.map((source) =>
      frame('source', {
        id: `${runId}-source-${source.n}`,
        sourceType: source.url ? 'url' : 'document',
        title: source.title,
        ...(source.url ? { url: source.url } : {}),
        ...(source.path ? { filename: source.path.split(/[\\/]/).at(-1) } : {}),
        providerMetadata: { parley: { ...source } },
      }),
    ),
    frame('step-finish', {
      stepResult,
      output: { text: answer.text, usage: answer.usage },
      metadata: {},
      messages,
    }),
    frame('finish', {
      stepResult,
      output: { usage: answer.usage },
      usage: answer.usage,
      metadata: { modelId: answer.response.modelId },
      messages,
      text: answer.text,
      sources: answer.sources,
      addressed: answer.addressed,
    }),
  ];
}
