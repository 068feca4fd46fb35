import { describe, expect, it } from 'vitest';
import { presentTo } from '../../server/services/private-metadata.js';

const user = (uid: string) => ({
  uid,
  name: uid,
  metadata: { '@private': { email: `${uid}@example.com` }, team: 'blue' },
});

describe('presentTo: user entities as one viewer may see them', () => {
  it("removes others' @private at any depth and keeps the rest of their metadata", () => {
    const message = {
      id: '1',
      data: { entities: { sender: { entity: user('alice') } } },
      list: [user('bob')],
    };
    const shown = presentTo(message, 'carol');
    expect(shown.data.entities.sender.entity.metadata).toEqual({ team: 'blue' });
    expect(shown.list[0]?.metadata).toEqual({ team: 'blue' });
  });

  it("keeps the viewer's own @private, and with no viewer keeps nobody's", () => {
    const both = [user('alice'), user('bob')];
    expect(presentTo(both, 'alice').map((entity) => '@private' in entity.metadata)).toEqual([true, false]);
    expect(presentTo(both, undefined).map((entity) => '@private' in entity.metadata)).toEqual([false, false]);
  });

  it('leaves its input untouched and returns it as is when nothing is private', () => {
    const original = { sender: user('alice') };
    presentTo(original, 'bob');
    expect(original.sender.metadata['@private']).toBeDefined();
    const plain = { sender: { uid: 'alice', metadata: { team: 'blue' } }, text: 'hi' };
    expect(presentTo(plain, 'bob')).toBe(plain);
  });

  it('does not touch a metadata key of objects that are not users', () => {
    const message = { data: { text: 'hi', metadata: { '@private': 'kept: a message is not a user' } } };
    expect(presentTo(message, 'bob')).toBe(message);
  });
});
