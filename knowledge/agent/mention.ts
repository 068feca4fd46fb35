import { mentionPattern } from '../../shared/mentions.js';

/** Names the agent answers to when no other is configured: `@agent` and `@knowledge`. */
export const DEFAULT_MENTION_NAMES: readonly string[] = ['agent', 'knowledge'];

/** A mention of one of `names`, as `@name` or as CometChat's `<@uid:name>`. */
const agentMention = (names: readonly string[]): RegExp => mentionPattern(names, names);

export function mentionsAgent(text: string, names: readonly string[] = DEFAULT_MENTION_NAMES): boolean {
  return names.length > 0 && agentMention(names).test(text);
}

/** The text without its mentions of the agent, and without the punctuation that joined them ("@agent, …"). */
export function withoutMention(text: string, names: readonly string[] = DEFAULT_MENTION_NAMES): string {
  if (names.length === 0) return text.trim();
  return text
    .replace(agentMention(names), ' ')
    .replace(/^[\s,:;]+/, '')
    .replace(/\s+/g, ' ')
    .trim();
}
