import type { Kysely } from 'kysely';
import type { ChatDatabase } from '../db/schema.js';

/**
 * What the engine asks other parts of the chat service. Realtime plugs in who is connected; until
 * it does, everybody counts as offline. What users have read comes from the stored read receipts.
 */

/** Push goes only to users without a connected socket. */
export interface PresenceSource {
  isOnline(appId: string, uid: string): boolean | Promise<boolean>;
}

export const nobodyOnline: PresenceSource = { isOnline: () => false };

/** Email and SMS batches leave out what the user has already read (CometChat's `lastReadMessageId`). */
export interface ReadStateSource {
  /** The id of the last message `uid` read in the conversation; 0 when none. */
  lastReadMessageId(appId: string, uid: string, conversationId: string): number | Promise<number>;
}

/** The read pointers the client protocol stores (`conversation_reads`). */
export function storedReadState(db: Kysely<ChatDatabase>): ReadStateSource {
  return {
    async lastReadMessageId(appId, uid, conversationId) {
      const row = await db
        .selectFrom('conversation_reads')
        .select('read_message_id')
        .where('app_id', '=', appId)
        .where('conversation_id', '=', conversationId)
        .where('uid', '=', uid)
        .executeTakeFirst();
      return Number(row?.read_message_id ?? 0);
    },
  };
}
