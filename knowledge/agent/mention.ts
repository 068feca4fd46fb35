/** Names the agent answers to when no other is configured: `@agent` and `@knowledge`. */
export const DEFAULT_MENTION_NAMES: readonly string[] = ['agent', 'knowledge'];

const escape = (name: string): string => name.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/**
 * Matches a mention of one of `names`: `@name` as a whole word (so `@agents` or `me@agent.io` do
 * not count), or CometChat's rich-text form `<@uid:name>`. Case-insensitive.
 */
function mentionPattern(names: readonly string[]): RegExp {
  const alternatives = names.map(escape).join('|');
  return new RegExp(`<@uid:(?:${alternatives})>|(?<![\\w@.])@(?:${alternatives})(?![\\w-])`, 'giu');
}

export function mentionsAgent(text: string, names: readonly string[] = DEFAULT_MENTION_NAMES): boolean {
  return names.length > 0 && mentionPattern(names).test(text);
}

/** The text without its mentions of the agent, and without the punctuation that joined them ("@agent, …"). */
export function withoutMention(text: string, names: readonly string[] = DEFAULT_MENTION_NAMES): string {
  if (names.length === 0) return text.trim();
  return text
    .replace(mentionPattern(names), ' ')
    .replace(/^[\s,:;]+/, '')
    .replace(/\s+/g, ' ')
    .trim();
}
