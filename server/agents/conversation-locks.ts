/**
 * Makes the agent bridge answer one question per conversation at a time across processes. Each
 * process already queues a conversation's questions in order; with several processes a question
 * stored through another one must also wait for the generation under way.
 */
export interface ConversationLocks {
  /** Runs `work` while no other process runs work for `key`; calls `busy` first if it has to wait. */
  hold<T>(key: string, work: () => Promise<T>, busy: () => void, signal: AbortSignal): Promise<T>;
}

/** One process: its own queue is the only one. */
export const processConversationLocks: ConversationLocks = {
  hold: (_key, work) => work(),
};
