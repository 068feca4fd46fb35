import { describe, expect, it } from 'vitest';
import type { Message } from '../../shared/chat-client/index.js';
import { changedMessage, memberActionText } from '../../widget/action-text.js';
import { en } from '../../widget/locales/en.js';

const person = (uid: string, name: string) => ({
  entity: { uid, name, role: 'default', status: 'offline' },
  entityType: 'user',
});

function action(type: string, actionName: string, entities: Record<string, unknown>): Message {
  return {
    id: '9',
    conversationId: 'group_support',
    sender: 'alice',
    receiver: 'support',
    receiverType: 'group',
    category: 'action',
    type,
    sentAt: 1,
    updatedAt: 1,
    data: { action: actionName, entities },
  } as unknown as Message;
}

describe('group member actions', () => {
  it('read as a line naming who did what to whom', () => {
    const added = action('groupMember', 'added', {
      by: person('alice', 'Alice Martin'),
      on: person('bob', 'Bob Stone'),
    });
    expect(memberActionText(added, en)).toBe('Alice Martin added Bob Stone');
  });

  it('name the member who joined or left by themselves', () => {
    expect(memberActionText(action('groupMember', 'joined', { by: person('carol', 'Carol Diaz') }), en)).toBe(
      'Carol Diaz joined',
    );
  });

  it('are not lines when the action is unknown', () => {
    expect(
      memberActionText(action('groupMember', 'teleported', { by: person('carol', 'Carol Diaz') }), en),
    ).toBeUndefined();
  });
});

describe('edit and delete actions', () => {
  it('carry the changed message, which takes the place of the original', () => {
    const edited = { id: '3', data: { text: 'fixed', entities: {} }, editedAt: 2 };
    expect(
      changedMessage(action('message', 'edited', { on: { entity: edited, entityType: 'message' } })),
    ).toBe(edited);
  });

  it('are not lines in the thread', () => {
    expect(memberActionText(action('message', 'deleted', {}), en)).toBeUndefined();
  });
});
