import type { ChatTarget, ConversationType, Message } from './types.js';

/** Stable map key of a conversation; UIDs and GUIDs compare case-insensitively (§5.2). */
export function targetKey(target: ChatTarget): string {
  return `${target.type}:${target.id.toLowerCase()}`;
}

export function sameTarget(a: ChatTarget, b: ChatTarget): boolean {
  return targetKey(a) === targetKey(b);
}

/**
 * The conversation a message or frame belongs to, seen from `me`: the group, or in a one-to-one
 * chat the other party, whichever side sent it.
 */
export function targetOf(
  addressed: { receiverType?: ConversationType | string; sender?: string; receiver?: string },
  me: string,
): ChatTarget | undefined {
  const { receiverType, sender, receiver } = addressed;
  if (receiverType === 'group' || receiverType === 'groupchat') {
    return receiver ? { type: 'group', id: receiver } : undefined;
  }
  if (!sender || !receiver) return undefined;
  return { type: 'user', id: sender.toLowerCase() === me.toLowerCase() ? receiver : sender };
}

export function messageTarget(message: Message, me: string): ChatTarget {
  return targetOf(message, me)!;
}
