import type { Agent } from './registry.js';

const escape = (text: string): string => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/** The ways a message names an agent: `@<uid>`, `@<display name>`, CometChat's `<@uid:…>`, or `@agent`. */
function mentionPattern(agent: Agent): RegExp {
  const names = [agent.uid, agent.name, 'agent'].map(escape).join('|');
  return new RegExp(`<@uid:${escape(agent.uid)}>|(?<![\\w@.])@(?:${names})(?![\\w-])`, 'giu');
}

export function mentions(agent: Agent, text: string): boolean {
  return mentionPattern(agent).test(text);
}

/**
 * The text with every mention of the agent written as `@agent`, the name the knowledge agent
 * answers to whatever it is called in this app, so its own mention check and question parsing work.
 */
export function withPlainMention(agent: Agent, text: string): string {
  return text.replace(mentionPattern(agent), '@agent');
}
