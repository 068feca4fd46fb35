import { mentionPattern } from '../../shared/mentions.js';
import type { Agent } from './registry.js';

/** The ways a message names an agent: `@<uid>`, `@<display name>`, CometChat's `<@uid:…>`, or `@agent`. */
const agentMention = (agent: Agent): RegExp => mentionPattern([agent.uid], [agent.uid, agent.name, 'agent']);

export function mentions(agent: Agent, text: string): boolean {
  return agentMention(agent).test(text);
}

/**
 * The text with every mention of the agent written as `@agent`, the name the knowledge agent
 * answers to whatever it is called in this app, so its own mention check and question parsing work.
 */
export function withPlainMention(agent: Agent, text: string): string {
  return text.replace(agentMention(agent), '@agent');
}
