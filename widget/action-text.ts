import type { Message } from '../shared/chat-client/index.js';
import { format, type Strings } from './i18n.js';

const MEMBER_ACTIONS = {
  added: 'actionAdded',
  joined: 'actionJoined',
  left: 'actionLeft',
  kicked: 'actionKicked',
  banned: 'actionBanned',
  unbanned: 'actionUnbanned',
  scopeChanged: 'actionScope',
} as const satisfies Record<string, keyof Strings>;

function nameOf(ref: { entity?: unknown } | undefined): string {
  const entity = ref?.entity as { name?: unknown; uid?: unknown } | undefined;
  return typeof entity?.name === 'string' ? entity.name : typeof entity?.uid === 'string' ? entity.uid : '';
}

/**
 * The line a group member action message shows (`Bob Stone joined`), or undefined for actions the
 * widget does not show as lines (edits and deletions change the message they are about instead).
 */
export function memberActionText(message: Message, strings: Strings): string | undefined {
  if (message.category !== 'action' || message.type !== 'groupMember') return undefined;
  const key = MEMBER_ACTIONS[message.data.action as keyof typeof MEMBER_ACTIONS];
  if (!key) return undefined;
  const { by, on } = message.data.entities;
  return format(strings[key], { by: nameOf(by), name: nameOf(on) || nameOf(by) });
}

/** The message an edit or deletion action carries: the changed message, to show in its place. */
export function changedMessage(message: Message): Message | undefined {
  if (message.category !== 'action') return undefined;
  const on = message.data.entities.on;
  return on?.entityType === 'message' ? (on.entity as Message) : undefined;
}
