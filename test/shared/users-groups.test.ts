import { describe, expect, it } from 'vitest';
import type { z } from 'zod';
import { zodErrorToEnvelope } from '../../shared/errors.js';
import { AddMembersRequest, CreateGroupRequest, UpdateGroupRequest } from '../../shared/groups.js';
import { CreateUserRequest, ListUsersQuery, UpdateUserRequest } from '../../shared/users.js';

function fieldAtFault(schema: z.ZodType, input: unknown): unknown {
  const result = schema.safeParse(input);
  if (result.success) throw new Error('expected the input to be rejected');
  return zodErrorToEnvelope(result.error).error.details.field;
}

describe('user and group contracts', () => {
  it('accepts the create-user example of the reference', () => {
    const body = {
      uid: 'cometchat-uid-6',
      name: 'Barry Allen',
      link: 'https://cometchat.com',
      avatar: 'https://assets.cometchat.io/sampleapp/v2/groups/cometchat-guid-1.webp',
      metadata: { '@private': { email: 'user@email.com', contactNumber: '0123456789' } },
      role: 'manager',
      tags: ['Engineer', 'manager'],
      withAuthToken: true,
    };
    expect(CreateUserRequest.parse(body)).toEqual(body);
  });

  it('accepts the create-group example with members by scope', () => {
    const body = {
      guid: 'project-group',
      name: 'Project Group',
      type: 'public',
      description: 'project related discussions between members',
      owner: 'cometchat-uid-4',
      tags: ['friends', 'project'],
      members: { admins: ['cometchat-uid-1'], participants: ['cometchat-uid-4', 'cometchat-uid-5'] },
    };
    expect(CreateGroupRequest.parse(body)).toEqual(body);
  });

  it.each([
    [CreateUserRequest, { name: 'No Uid' }, 'uid'],
    [CreateUserRequest, { uid: 'a b', name: 'Space' }, 'uid'],
    [CreateUserRequest, { uid: 'u'.repeat(101), name: 'Long' }, 'uid'],
    [CreateUserRequest, { uid: 'u1', name: '   ' }, 'name'],
    [CreateUserRequest, { uid: 'u1', name: 'n'.repeat(101) }, 'name'],
    [
      CreateUserRequest,
      { uid: 'u1', name: 'A', tags: Array.from({ length: 26 }, (_, i) => `t${i}`) },
      'tags',
    ],
    [CreateUserRequest, { uid: 'u1', name: 'A', metadata: { blob: 'x'.repeat(6000) } }, 'metadata'],
    [CreateUserRequest, { uid: 'u1', name: 'A', withAuthToken: 'yes' }, 'withAuthToken'],
    [UpdateUserRequest, { unset: ['uid'] }, 'unset.0'],
    [CreateGroupRequest, { guid: 'g1', name: 'G', type: 'secret' }, 'type'],
    [CreateGroupRequest, { guid: 'g1', name: 'G', type: 'password' }, 'password'],
    [CreateGroupRequest, { guid: 'g/1', name: 'G', type: 'public' }, 'guid'],
    [
      CreateGroupRequest,
      { guid: 'g1', name: 'G', type: 'public', members: { admins: ['bad uid'] } },
      'members.admins.0',
    ],
    [UpdateGroupRequest, { owner: '' }, 'owner'],
    [AddMembersRequest, {}, 'participants'],
    [AddMembersRequest, { participants: ['ok', 'not ok'] }, 'participants.1'],
    [CreateUserRequest, { uid: 'u1', name: 'A', nickname: 'misspelt' }, 'body'],
    [UpdateUserRequest, { unset: ['tags'] }, 'unset.0'],
    [UpdateGroupRequest, { unset: ['tags'] }, 'unset.0'],
    [
      CreateGroupRequest,
      { guid: 'g1', name: 'G', type: 'public', description: 'd'.repeat(256) },
      'description',
    ],
    [ListUsersQuery, { perPage: 1001 }, 'perPage'],
  ] as const)('rejects invalid input %# naming the field', (schema, input, field) => {
    expect(fieldAtFault(schema, input)).toBe(field);
  });

  it.each([
    [
      CreateUserRequest,
      { uid: 'u1', name: 'A', role: 'r'.repeat(101) },
      'role: must be at most 100 characters',
    ],
    [
      CreateUserRequest,
      { uid: 'u1', name: 'A', statusMessage: 's'.repeat(256) },
      'statusMessage: must be at most 255 characters',
    ],
    [UpdateGroupRequest, { password: 'p'.repeat(101) }, 'password: must be at most 100 characters'],
    [ListUsersQuery, { page: 0 }, 'page: must be at least 1'],
  ] as const)('names the limit a refused value broke %#', (schema, input, message) => {
    const result = schema.safeParse(input);
    expect(result.success ? undefined : zodErrorToEnvelope(result.error).error.message).toBe(message);
  });
});
