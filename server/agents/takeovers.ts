import type { Kysely } from 'kysely';
import { z } from 'zod';
import type { ChatDatabase } from '../db/schema.js';
import { nowSeconds } from '../time.js';

/**
 * A conversation id as CometChat writes it: `group_<guid>`, or two UIDs joined by `_user_`.
 * Lower-cased, as the service keeps them.
 */
export const ConversationId = z
  .string()
  .max(205)
  .regex(
    /^(group_[a-z0-9_-]{1,100}|[a-z0-9_-]{1,100}_user_[a-z0-9_-]{1,100})$/i,
    'must be a conversation id such as group_<guid> or <uid>_user_<uid>',
  )
  .toLowerCase();

/** Whether an operator has taken a conversation over from an agent, and who and since when. */
export interface Takeover {
  agentId: string;
  conversationId: string;
  takenOver: boolean;
  /** The operator's UID; absent when taken over through the server API. */
  takenOverBy?: string;
  /** Epoch seconds. */
  takenOverAt?: number;
}

/**
 * Conversations where a person said "I'll take it from here": the agent bridge stays silent there
 * until the conversation is given back. Looked up on every message that addresses an agent.
 */
export class AgentTakeovers {
  constructor(private readonly db: Kysely<ChatDatabase>) {}

  async get(appId: string, agentUid: string, conversationId: string): Promise<Takeover> {
    const row = await this.db
      .selectFrom('agent_takeovers')
      .selectAll()
      .where('app_id', '=', appId)
      .where('agent_uid', '=', agentUid)
      .where('conversation_id', '=', conversationId)
      .executeTakeFirst();
    if (row === undefined) return { agentId: agentUid, conversationId, takenOver: false };
    return {
      agentId: agentUid,
      conversationId,
      takenOver: true,
      ...(row.by_uid === null ? {} : { takenOverBy: row.by_uid }),
      takenOverAt: Number(row.created_at),
    };
  }

  /** The conversations taken over from this agent, newest first. */
  async list(appId: string, agentUid: string): Promise<Takeover[]> {
    const rows = await this.db
      .selectFrom('agent_takeovers')
      .selectAll()
      .where('app_id', '=', appId)
      .where('agent_uid', '=', agentUid)
      .orderBy('created_at', 'desc')
      .orderBy('conversation_id')
      .execute();
    return rows.map((row) => ({
      agentId: agentUid,
      conversationId: row.conversation_id,
      takenOver: true,
      ...(row.by_uid === null ? {} : { takenOverBy: row.by_uid }),
      takenOverAt: Number(row.created_at),
    }));
  }

  /** Takes the conversation over; taking over again keeps who took it first. */
  async takeOver(
    appId: string,
    agentUid: string,
    conversationId: string,
    byUid: string | undefined,
  ): Promise<Takeover> {
    await this.db
      .insertInto('agent_takeovers')
      .values({
        app_id: appId,
        agent_uid: agentUid,
        conversation_id: conversationId,
        by_uid: byUid ?? null,
        created_at: nowSeconds(),
      })
      .onConflict((oc) => oc.columns(['app_id', 'agent_uid', 'conversation_id']).doNothing())
      .execute();
    return this.get(appId, agentUid, conversationId);
  }

  /** Gives the conversation back to the agent; giving back one not taken over is no error. */
  async giveBack(appId: string, agentUid: string, conversationId: string): Promise<Takeover> {
    await this.db
      .deleteFrom('agent_takeovers')
      .where('app_id', '=', appId)
      .where('agent_uid', '=', agentUid)
      .where('conversation_id', '=', conversationId)
      .execute();
    return { agentId: agentUid, conversationId, takenOver: false };
  }
}
