import { z } from 'zod';
import { AGENT_KEY, type AgentCard, type ToolCard } from '../../shared/agent.js';
import { EXTRACTIVE_MODEL_ID } from '../agent/answer.js';
import type { AgentServerConfig } from './config.js';
import { agentTools, type AgentTool } from './tools.js';

export const AGENT_NAME = 'Knowledge agent';

export const AGENT_INSTRUCTIONS =
  'Answers questions only from passages retrieved from the knowledge namespace given in toolParams.namespace ' +
  '(default "default"), cites each statement with [n] and ends with a Sources: list. ' +
  'In group chats it replies only when mentioned (@agent, @knowledge); send requireMention: false for one-on-one chats. ' +
  'When nothing relevant is retrieved it says so and names what to ingest.';

/** Mastra's tool description: schemas as JSON strings of `{json: <JSON Schema>}` (its superjson form). */
export function describeTool(tool: AgentTool): ToolCard {
  const schema = (type: z.ZodType, io: 'input' | 'output') =>
    JSON.stringify({ json: z.toJSONSchema(type, { io }) });
  return {
    id: tool.id,
    description: tool.description,
    inputSchema: schema(tool.inputSchema, 'input'),
    outputSchema: schema(tool.outputSchema, 'output'),
  };
}

export function describeTools(): Record<string, ToolCard> {
  return Object.fromEntries(agentTools.map((tool) => [tool.id, describeTool(tool)]));
}

/** The agent as Mastra's `GET /api/agents/:agentId` describes one. */
export function describeAgent(config: AgentServerConfig): AgentCard {
  const modelId = config.languageModel?.model ?? EXTRACTIVE_MODEL_ID;
  return {
    id: AGENT_KEY,
    name: AGENT_NAME,
    description: 'Retrieval-augmented answers with citations from local documents.',
    instructions: AGENT_INSTRUCTIONS,
    tools: describeTools(),
    workflows: {},
    agents: {},
    provider: config.languageModel ? 'openai-compatible' : 'parley',
    modelId,
    modelVersion: 'v2',
    defaultGenerateOptions: {},
    defaultStreamOptions: {},
  };
}
