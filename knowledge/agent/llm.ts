import type { SearchHit } from '../../shared/agent.js';

/** An OpenAI-compatible chat-completions endpoint: OpenAI, Ollama, LM Studio, llama.cpp's server. */
export interface LanguageModelConfig {
  /** The API root, e.g. `http://127.0.0.1:11434/v1`; `/chat/completions` is appended. */
  baseUrl: string;
  model: string;
  /** Sent as a bearer token; kept server-side. */
  apiKey?: string;
  timeoutMs: number;
}

export interface ModelAnswer {
  text: string;
  inputTokens: number;
  outputTokens: number;
}

/** Why a provider gave no usable answer, in words safe to show: never its body, URL or key. */
export class LanguageModelError extends Error {
  override readonly name = 'LanguageModelError';
}

const INSTRUCTIONS =
  'You answer questions using only the numbered passages you are given. ' +
  'Each passage is headed by its document and the headings it sits under. ' +
  'A table row reads "Column: value | Column: value"; a line starting with ": " defines the term on the line above it. ' +
  'Cite every statement with the number of its passage in square brackets, like [1] or [2]. ' +
  'If the passages do not contain the answer, say that they do not. ' +
  'Never use knowledge from outside the passages. Do not add a list of sources: it is appended for you.';

/** `Title › Heading › Term, p. 3`: where a passage sits, its headings (and term) included. */
function passagePlace(hit: SearchHit): string {
  const { title, page, heading, headingPath } = hit.source;
  const headings = (headingPath ?? (heading !== undefined ? [heading] : [])).filter(
    (text, i) => !(i === 0 && text === title),
  );
  return [[title, ...headings].join(' › '), page !== undefined ? `p. ${page}` : undefined]
    .filter(Boolean)
    .join(', ');
}

/** The passages as the model reads them: tables as labelled rows and terms above their definitions, as the loaders keep them. */
function passagesBlock(hits: readonly SearchHit[]): string {
  return hits.map((hit, index) => `[${index + 1}] (${passagePlace(hit)})\n${hit.text.trim()}`).join('\n\n');
}

export function buildPrompt(
  question: string,
  hits: readonly SearchHit[],
  followsUp?: string,
): { role: string; content: string }[] {
  const context = followsUp ? `Earlier question in this chat: ${followsUp}\n` : '';
  return [
    { role: 'system', content: INSTRUCTIONS },
    { role: 'user', content: `Passages:\n\n${passagesBlock(hits)}\n\n${context}Question: ${question}` },
  ];
}

interface ChatCompletion {
  choices?: { message?: { content?: unknown } }[];
  usage?: { prompt_tokens?: unknown; completion_tokens?: unknown };
}

const count = (value: unknown): number =>
  typeof value === 'number' && Number.isInteger(value) && value >= 0 ? value : 0;

/** Asks the model for a grounded answer to `question` from `hits`, numbered 1..n in that order. */
export async function askLanguageModel(
  config: LanguageModelConfig,
  question: string,
  hits: readonly SearchHit[],
  followsUp?: string,
): Promise<ModelAnswer> {
  const headers: Record<string, string> = { 'content-type': 'application/json' };
  if (config.apiKey) headers.authorization = `Bearer ${config.apiKey}`;
  let response: Response;
  try {
    response = await fetch(`${config.baseUrl.replace(/\/+$/, '')}/chat/completions`, {
      method: 'POST',
      headers,
      body: JSON.stringify({
        model: config.model,
        temperature: 0,
        messages: buildPrompt(question, hits, followsUp),
      }),
      signal: AbortSignal.timeout(config.timeoutMs),
    });
  } catch (error) {
    const timedOut = error instanceof DOMException && error.name === 'TimeoutError';
    throw new LanguageModelError(
      timedOut ? `timed out after ${config.timeoutMs / 1000} s` : 'could not be reached',
    );
  }
  let body: ChatCompletion;
  try {
    if (!response.ok) throw new LanguageModelError(`answered HTTP ${response.status}`);
    body = (await response.json()) as ChatCompletion;
  } catch (error) {
    if (error instanceof LanguageModelError) throw error;
    const timedOut = error instanceof DOMException && error.name === 'TimeoutError';
    throw new LanguageModelError(
      timedOut ? `timed out after ${config.timeoutMs / 1000} s` : 'sent an answer that is not JSON',
    );
  }
  const text = body.choices?.[0]?.message?.content;
  if (typeof text !== 'string' || text.trim() === '')
    throw new LanguageModelError('sent an answer without text');
  return {
    text: text.trim(),
    inputTokens: count(body.usage?.prompt_tokens),
    outputTokens: count(body.usage?.completion_tokens),
  };
}
