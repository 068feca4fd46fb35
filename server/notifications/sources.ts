import type { ReadStateRepository } from '../repositories/read-state.js';

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

/** The read pointers the client protocol stores, through their repository. */
export function storedReadState(readState: ReadStateRepository): ReadStateSource {
  return {
    async lastReadMessageId(appId, uid, conversationId) {
      return (await readState.find(appId, conversationId, uid))?.readMessageId ?? 0;
    },
  };
}
