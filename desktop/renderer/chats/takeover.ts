import { z } from 'zod';

/** The chat service's answer about a take-over (server/README.md, "Take over"). */
const Takeover = z.object({
  agentId: z.string(),
  conversationId: z.string(),
  takenOver: z.boolean(),
  takenOverBy: z.string().optional(),
});
export type Takeover = z.infer<typeof Takeover>;

const Answer = z.union([
  z.object({ data: Takeover }),
  z.object({ error: z.object({ code: z.string(), message: z.string() }) }),
]);

/** Where and as whom the operator calls the take-over API: the chat service's host and a session. */
export interface TakeoverSession {
  host: string;
  appId: string;
  authToken: string;
}

/**
 * Asks whether the agent is muted in a conversation, takes it over (`PUT`) or gives it back
 * (`DELETE`), as the signed-in operator. Throws with the service's own message when refused.
 */
export async function takeover(
  session: TakeoverSession,
  method: 'GET' | 'PUT' | 'DELETE',
  agentId: string,
  conversationId: string,
): Promise<Takeover> {
  const path = `/v3/ai-agents/${encodeURIComponent(agentId)}/conversations/${encodeURIComponent(conversationId)}/takeover`;
  const response = await fetch(`https://${session.host}${path}`, {
    method,
    headers: { appId: session.appId, authToken: session.authToken },
  });
  const answer = Answer.safeParse(await response.json().catch(() => undefined));
  if (!answer.success) throw new Error(`the chat service answered ${response.status} without a take-over`);
  if ('error' in answer.data) throw new Error(answer.data.error.message);
  return answer.data.data;
}
