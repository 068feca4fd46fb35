import type { Message } from '../shared/chat-client/index.js';

/** A citation an agent answer carries in `data.metadata.sources` (the knowledge agent's Citation). */
export interface AnswerSource {
  n?: number;
  title: string;
  url?: string;
  page?: number;
}

/** The sources of an agent answer; entries without a usable title are skipped, URLs kept only if http(s). */
export function answerSources(message: Message): AnswerSource[] {
  const raw = (message.data.metadata as { sources?: unknown } | undefined)?.sources;
  if (!Array.isArray(raw)) return [];
  const sources: AnswerSource[] = [];
  for (const entry of raw as Record<string, unknown>[]) {
    if (entry === null || typeof entry !== 'object') continue;
    const url = typeof entry.url === 'string' && /^https?:\/\//i.test(entry.url) ? entry.url : undefined;
    const title = typeof entry.title === 'string' && entry.title.trim() !== '' ? entry.title.trim() : url;
    if (!title) continue;
    sources.push({
      title,
      ...(typeof entry.n === 'number' ? { n: entry.n } : {}),
      ...(url ? { url } : {}),
      ...(typeof entry.page === 'number' ? { page: entry.page } : {}),
    });
  }
  return sources;
}

/**
 * The answer text without its trailing plain-text `Sources:` list when the structured sources are
 * shown beside it, so the list does not appear twice.
 */
export function answerBody(text: string, hasSources: boolean): string {
  if (!hasSources) return text;
  return text
    .replace(
      /\n\s*\n(?:\*\*)?Sources:?(?:\*\*)?\s*\n(?:[ \t]*(?:\[\d+\]|[-*]|\d+\.)[^\n]*(?:\n|$))+\s*$/i,
      '',
    )
    .trimEnd();
}
