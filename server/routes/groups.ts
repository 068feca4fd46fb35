import { z } from 'zod';
import {
  AddMembersRequest,
  ChangeScopeRequest,
  CreateGroupRequest,
  GroupMembers,
  GroupType,
  MemberScope,
  MemberScopeChange,
  StepScopeRequest,
  TransferOwnershipRequest,
  UpdateGroupRequest,
  type GroupMember,
} from '../../shared/groups.js';
import { conversationIdFor, type UserEntity } from '../../shared/message.js';
import { SearchKey, type SuccessEnvelope } from '../../shared/users.js';
import { badRequest, notAMember } from '../errors.js';
import { actingUid } from '../http/actor.js';
import type { Actor, ChatContext } from '../http/context.js';
import { jsonBody, pathId, queryOf } from '../http/request.js';
import { chatRoutes, documented, type ChatRoutes } from '../http/openapi.js';
import { toGroupEntity } from '../repositories/groups.js';
import { EntityId, GroupId, QueryBoolean, pagination } from '../validation.js';
import type { RouteDeps } from './deps.js';
import { PageQuery, perPageOf, userFor } from './policies.js';

/** The shared request schemas with every UID and GUID lower-cased; their refinements still apply. */
const MemberUids = z.array(EntityId).optional();
const lowerCasedMembers = {
  admins: MemberUids,
  moderators: MemberUids,
  participants: MemberUids,
  usersToBan: MemberUids,
};
const CreateGroup = CreateGroupRequest.safeExtend({
  guid: GroupId,
  owner: EntityId.optional(),
  members: GroupMembers.extend(lowerCasedMembers).optional(),
});
/** The SDK's `createGroup` sends a whole Group object; its caller becomes the owner, with no other members. */
const ClientCreateGroup = CreateGroup.loose();
const UpdateGroup = UpdateGroupRequest.extend({ owner: EntityId.optional() });
/**
 * The SDK's `updateGroup` sends a whole Group object (`hasJoined`, `membersCount`, …): the fields a
 * group update has are read, the rest dropped. A client never names the owner (it transfers it).
 */
const ClientUpdateGroup = UpdateGroupRequest.omit({ owner: true }).strip();
const TransferOwnership = TransferOwnershipRequest.extend({ owner: EntityId });
const StepScope = StepScopeRequest.extend({ uid: EntityId });
const AddMembers = AddMembersRequest.safeExtend(lowerCasedMembers);

const ListGroups = PageQuery.extend({
  searchKey: SearchKey.optional(),
  type: GroupType.optional(),
  hasJoined: QueryBoolean.optional(),
  withTags: QueryBoolean.optional(),
});

const ListMembers = PageQuery.extend({ scope: MemberScope.optional(), searchKey: SearchKey.optional() });
const ListBanned = PageQuery.extend({ searchKey: SearchKey.optional() });

/** A client always acts as its session's user. */
const callerOf = (c: ChatContext): Actor => {
  const actor = c.get('actor');
  return actor.kind === 'client' ? { ...actor, uid: actingUid(c) } : actor;
};

/** `joinGroup` sends a Group object; only the password matters. */
const JoinRequest = z.looseObject({ password: z.string().max(100).optional() });

/**
 * Groups (`/groups`) and their members (`/groups/{guid}/members`). The app manages all of them; a
 * client sees public and password groups and the private ones it belongs to (others do not exist
 * for it), creates groups it owns, and joins and leaves them.
 */
export function groupRoutes(deps: RouteDeps): ChatRoutes {
  const { groups } = deps.services;
  const routes = chatRoutes();

  /** The group the path names, as the caller may know of it, with the caller's membership. */
  const visibleGroup = (c: ChatContext) => {
    const { app, kind, uid } = c.get('actor');
    return groups.seenBy(app.appId, pathId(c, 'guid'), { kind, uid: kind === 'client' ? actingUid(c) : uid });
  };

  documented(routes, 'post', '/groups', { summary: 'Create a group', body: CreateGroup }, async (c) => {
    const actor = c.get('actor');
    if (actor.kind === 'client') {
      const { members: _members, owner: _owner, ...group } = await jsonBody(c, ClientCreateGroup);
      return c.json({ data: await groups.create(actor.app, group, actingUid(c), {}, actor.origin) });
    }
    const { members, ...group } = await jsonBody(c, CreateGroup);
    return c.json({
      data: await groups.create(actor.app, group, actor.uid, members ?? {}, actor.origin),
    });
  });

  documented(routes, 'get', '/groups', { summary: 'List groups', query: ListGroups }, async (c) => {
    const actor = c.get('actor');
    const appId = actor.app.appId;
    const query = queryOf(c, ListGroups);
    const perPage = perPageOf(actor, query);
    const uid = actor.uid;
    if (query.hasJoined === true && uid === undefined)
      throw badRequest('hasJoined', 'works only with the onBehalfOf header');
    const {
      groups: rows,
      total,
      counts,
      memberships,
    } = await groups.list(
      appId,
      {
        searchKey: query.searchKey,
        type: query.type,
        joinedBy: query.hasJoined === true ? uid : undefined,
        visibleTo: actor.kind === 'client' ? uid : undefined,
        page: query.page,
        perPage,
      },
      uid,
    );
    const data = rows.map((row) => {
      // Clients always see tags; the REST API lists them when asked.
      const entity = toGroupEntity(row, counts.get(row.guid) ?? 0, memberships.get(row.guid), {
        withTags: query.withTags ?? actor.kind === 'client',
      });
      // The SDK reads `hasJoined` as a boolean on every group.
      return actor.kind === 'client' ? { ...entity, hasJoined: memberships.has(row.guid) } : entity;
    });
    return c.json({ data, meta: { pagination: pagination(total, rows.length, perPage, query.page) } });
  });

  documented(routes, 'get', '/groups/:guid', { summary: 'Read a group' }, async (c) => {
    const actor = c.get('actor');
    const { group } = await visibleGroup(c);
    const entity = await groups.view(actor.app.appId, group, actor.uid);
    return c.json({
      data: actor.kind === 'client' ? { ...entity, hasJoined: entity.hasJoined === true } : entity,
    });
  });

  /** Moderators and admins update a group; the app may also name a new owner (`owner`). */
  documented(routes, 'put', '/groups/:guid', { summary: 'Update a group', body: UpdateGroup }, async (c) => {
    const caller = callerOf(c);
    const guid = pathId(c, 'guid');
    const body =
      caller.kind === 'client' ? await jsonBody(c, ClientUpdateGroup) : await jsonBody(c, UpdateGroup);
    const entity = await groups.update(caller, guid, body);
    return c.json({
      data: caller.kind === 'client' ? { ...entity, hasJoined: entity.hasJoined === true } : entity,
    });
  });

  /** Admins delete a group; its history stays. */
  documented(routes, 'delete', '/groups/:guid', { summary: 'Delete a group' }, async (c) => {
    const guid = await groups.delete(callerOf(c), pathId(c, 'guid'));
    return c.json({
      data: { success: true, message: `Group with guid ${guid} has been deleted successfully.` },
    } satisfies SuccessEnvelope);
  });

  /** The owner hands the group to another member (the SDK's `transferGroupOwnership`). */
  documented(
    routes,
    'patch',
    '/groups/:guid/owner',
    { summary: 'Transfer the ownership of a group', only: 'client', body: TransferOwnership },
    async (c) => {
      const { owner } = await jsonBody(c, TransferOwnership);
      const message = await groups.transferOwnership(callerOf(c), pathId(c, 'guid'), owner);
      return c.json({ data: { success: true, message } } satisfies SuccessEnvelope);
    },
  );

  /** The app adds members; a client joins (with the password of a password group). */
  documented(
    routes,
    'post',
    '/groups/:guid/members',
    { summary: 'Add members (the server API), or join (a client)', body: AddMembers },
    async (c) => {
      const actor = c.get('actor');
      const guid = pathId(c, 'guid');
      if (actor.kind === 'client') {
        const body = await jsonBody(c, JoinRequest);
        return c.json({
          data: await groups.join(actor.app, guid, actingUid(c), body.password, actor.origin),
        });
      }
      const body = await jsonBody(c, AddMembers);
      return c.json({ data: await groups.addMembers(actor, guid, body) });
    },
  );

  /** The SDK's `addMembersToGroup`: an admin adds, re-scopes or bans users, each reported. */
  documented(
    routes,
    'put',
    '/groups/:guid/members',
    { summary: 'Add members (a client)', only: 'client', body: AddMembers },
    async (c) => {
      const body = await jsonBody(c, AddMembers);
      return c.json({ data: await groups.addMembers(callerOf(c), pathId(c, 'guid'), body) });
    },
  );

  documented(
    routes,
    'delete',
    '/groups/:guid/members',
    { summary: 'Leave a group', only: 'client' },
    async (c) => {
      const guid = pathId(c, 'guid');
      await groups.leave(c.get('actor').app, guid, actingUid(c), c.get('actor').origin);
      return c.json({ data: { success: true, message: `Left the group ${guid}.` } });
    },
  );

  /** Anyone may see who is in a public group; private and password groups show clients only their members. */
  documented(
    routes,
    'get',
    '/groups/:guid/members',
    { summary: "List a group's members", query: ListMembers },
    async (c) => {
      const actor = c.get('actor');
      const appId = actor.app.appId;
      const { group, member } = await visibleGroup(c);
      if (actor.kind === 'client' && group.type !== 'public' && member === undefined) {
        throw notAMember(actingUid(c), group.guid);
      }
      const query = queryOf(c, ListMembers);
      const perPage = perPageOf(actor, query);
      const {
        members,
        total,
        users: people,
      } = await groups.members(appId, group.guid, {
        scope: query.scope,
        searchKey: query.searchKey,
        page: query.page,
        perPage,
      });
      const viewer = actor.uid;
      const data = members.flatMap((member) => {
        const user = people.get(member.uid);
        if (user === undefined) return [];
        const entity: GroupMember = {
          ...userFor(actor, user),
          scope: member.scope,
          joinedAt: member.joinedAt,
        };
        // Seen by a user, each member names the conversation they would have with it.
        if (viewer !== undefined && viewer !== member.uid) {
          entity.conversationId = conversationIdFor({
            receiverType: 'user',
            sender: viewer,
            receiver: member.uid,
          });
        }
        return [entity];
      });
      return c.json({ data, meta: { pagination: pagination(total, data.length, perPage, query.page) } });
    },
  );

  /** Moderators and admins remove a member ranked below them (kick). */
  documented(
    routes,
    'delete',
    '/groups/:guid/members/:uid',
    { summary: 'Remove a member (kick)' },
    async (c) => {
      const guid = pathId(c, 'guid');
      const uid = pathId(c, 'uid');
      await groups.kick(callerOf(c), guid, uid);
      return c.json({
        data: {
          success: true,
          message: `The member with ${uid} has been kicked from the Group with ${guid}.`,
        },
      } satisfies SuccessEnvelope);
    },
  );

  /** Moderators and admins change the scope of a member ranked below them. */
  documented(
    routes,
    'put',
    '/groups/:guid/members/:uid',
    {
      summary: "Change a member's scope",
      body: ChangeScopeRequest,
      response: z.object({ data: MemberScopeChange }),
    },
    async (c) => {
      const { scope } = await jsonBody(c, ChangeScopeRequest);
      const data = await groups.changeScope(callerOf(c), pathId(c, 'guid'), pathId(c, 'uid'), scope);
      return c.json({ data });
    },
  );

  /**
   * The SDK's catalogue names `PUT /groups/{guid}/promote` and `DELETE /groups/{guid}/demote`
   * without a method that calls them: a member (`uid`) moves one scope up or down, by the rules of
   * a scope change.
   */
  for (const [method, path, step, summary] of [
    ['put', '/groups/:guid/promote', 1, 'Promote a member one scope up'],
    ['delete', '/groups/:guid/demote', -1, 'Demote a member one scope down'],
  ] as const) {
    documented(
      routes,
      method,
      path,
      { summary, only: 'client', body: StepScope, response: z.object({ data: MemberScopeChange }) },
      async (c) => {
        const { uid } = await jsonBody(c, StepScope);
        return c.json({
          data: await groups.changeScope(callerOf(c), pathId(c, 'guid'), uid, { step }),
        });
      },
    );
  }

  /** Moderators and admins ban a user ranked below them: out of the group, and kept out. */
  documented(routes, 'post', '/groups/:guid/bannedusers/:uid', { summary: 'Ban a user' }, async (c) => {
    const guid = pathId(c, 'guid');
    const uid = pathId(c, 'uid');
    await groups.ban(callerOf(c), guid, uid);
    return c.json({
      data: {
        success: true,
        message: `The user with uid ${uid} has been banned from the Group with ${guid}.`,
      },
    } satisfies SuccessEnvelope);
  });

  documented(routes, 'delete', '/groups/:guid/bannedusers/:uid', { summary: 'Unban a user' }, async (c) => {
    const guid = pathId(c, 'guid');
    const uid = pathId(c, 'uid');
    await groups.unban(callerOf(c), guid, uid);
    return c.json({
      data: {
        success: true,
        message: `The user with uid ${uid} has been unbanned from the Group with ${guid}.`,
      },
    } satisfies SuccessEnvelope);
  });

  /** The banned users, for the group's moderators and admins (the SDK's BannedMembersRequest). */
  documented(
    routes,
    'get',
    '/groups/:guid/bannedusers',
    { summary: "List a group's banned users", query: ListBanned },
    async (c) => {
      const caller = callerOf(c);
      const query = queryOf(c, ListBanned);
      const perPage = perPageOf(caller, query);
      const {
        bans,
        users: people,
        total,
      } = await groups.banned(caller, pathId(c, 'guid'), {
        searchKey: query.searchKey,
        page: query.page,
        perPage,
      });
      const viewer = caller.uid;
      const data = bans.flatMap((ban) => {
        const user = people.get(ban.uid);
        if (user === undefined) return [];
        const entity: UserEntity & { bannedAt: number } = {
          ...userFor(caller, user),
          bannedAt: ban.bannedAt,
        };
        if (viewer !== undefined && viewer !== ban.uid) {
          entity.conversationId = conversationIdFor({
            receiverType: 'user',
            sender: viewer,
            receiver: ban.uid,
          });
        }
        return [entity];
      });
      return c.json({ data, meta: { pagination: pagination(total, data.length, perPage, query.page) } });
    },
  );

  return routes;
}
