import type { ChatTarget, Conversation, GroupEntity, UserEntity } from '../shared/chat-client/index.js';
import { isAgentRole } from '../shared/chat-client/index.js';

export type Peer = UserEntity | GroupEntity;

export function isGroup(peer: Peer): peer is GroupEntity {
  return typeof (peer as { guid?: unknown }).guid === 'string';
}

export function peerId(peer: Peer): string {
  return isGroup(peer) ? peer.guid : (peer as UserEntity).uid;
}

export function isAgent(user: Peer | undefined): boolean {
  return user !== undefined && !isGroup(user) && isAgentRole(user.role);
}

export function conversationTarget(conversation: Conversation): ChatTarget {
  return { type: conversation.conversationType, id: peerId(conversation.conversationWith) };
}
