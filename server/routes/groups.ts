import { z } from 'zod';
import {
  AddMembersRequest,
  CreateGroupRequest,
  GroupMembers,
  GroupType,
  MemberScope,
  UpdateGroupRequest,
  type GroupMember,
} from '../../shared/groups.js';
import { conversationIdFor } from '../../shared/message.js';
import { SearchKey, type SuccessEnvelope } from '../../shared/users.js';
import { badRequest, notAMember } from '../errors.js';
import { actingUid } from '../http/actor.js';
import type { ChatContext } from '../http/context.js';
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
const AddMembers = AddMembersRequest.safeExtend(lowerCasedMembers);

const ListGroups = PageQuery.extend({
  searchKey: SearchKey.optional(),
  type: GroupType.optional(),
  hasJoined: QueryBoolean.optional(),
  withTags: QueryBoolean.optional(),
});

const ListMembers = PageQuery.extend({ scope: MemberScope.optional(), searchKey: SearchKey.optional() });

/** `joinGroup` sends a Group object; only the password matters. */
const JoinRequest = z.looseObject({ password: z.string().max(100).optional() });

/**
 * Groups (`/groups`) and their members (`/groups/{guid}/members`). The app manages all of them; a
 * client sees public and password groups and the private ones it belongs to (others do not exist
 * for it), creates groups it owns, and joins and leaves them.
 */
export function groupRoutes(deps: RouteDeps): ChatRoutes {
  const { groups, groupService, users } = deps.services;
  const routes = chatRoutes();
  const appIdOf = (c: ChatContext): string => c.get('actor').app.appId;

  /** The group the path names, as the caller may know of it, with the caller's membership. */
  const visibleGroup = async (c: ChatContext) => {
    const { app, kind, uid } = c.get('actor');
    const guid = pathId(c, 'guid');
    if (kind === 'client') return groupService.visibleTo(app.appId, guid, actingUid(c));
    const group = await groups.get(app.appId, guid);
    return { group, member: uid === undefined ? undefined : await groups.member(app.appId, group.guid, uid) };
  };

  documented(routes, 'post', '/groups', { summary: 'Create a group', body: CreateGroup }, async (c) => {
    const actor = c.get('actor');
    if (actor.kind === 'client') {
      const { members: _members, owner: _owner, ...group } = await jsonBody(c, ClientCreateGroup);
      return c.json({ data: await groupService.create(actor.app, group, actingUid(c), {}, actor.origin) });
    }
    const { members, ...group } = await jsonBody(c, CreateGroup);
    return c.json({
      data: await groupService.create(actor.app, group, actor.uid, members ?? {}, actor.origin),
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
    const { groups: rows, total } = await groups.list(appId, {
      searchKey: query.searchKey,
      type: query.type,
      joinedBy: query.hasJoined === true ? uid : undefined,
      visibleTo: actor.kind === 'client' ? uid : undefined,
      page: query.page,
      perPage,
    });
    const guids = rows.map((row) => row.guid);
    const [counts, memberships] = await Promise.all([
      groups.memberCounts(appId, guids),
      uid === undefined ? new Map() : groups.membershipsOf(appId, uid, guids),
    ]);
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
    const entity = await groupService.view(actor.app.appId, group, actor.uid);
    return c.json({
      data: actor.kind === 'client' ? { ...entity, hasJoined: entity.hasJoined === true } : entity,
    });
  });

  documented(
    routes,
    'put',
    '/groups/:guid',
    { summary: 'Update a group', only: 'server', body: UpdateGroup },
    async (c) => {
      const appId = appIdOf(c);
      const guid = pathId(c, 'guid');
      const body = await jsonBody(c, UpdateGroup);
      const actor = c.get('actor').uid;
      // CometChat ignores `owner` when onBehalfOf is present; a new owner must exist.
      const owner =
        actor === undefined && body.owner !== undefined
          ? (await users.get(appId, body.owner)).uid
          : undefined;
      if (actor !== undefined) await users.get(appId, actor);
      const group = await groups.update(appId, guid, { ...body, owner, updatedBy: actor });
      return c.json({ data: await groupService.view(appId, group, actor) });
    },
  );

  documented(routes, 'delete', '/groups/:guid', { summary: 'Delete a group', only: 'server' }, async (c) => {
    const guid = pathId(c, 'guid');
    await groups.delete(appIdOf(c), guid);
    return c.json({
      data: { success: true, message: `Group with guid ${guid} has been deleted successfully.` },
    } satisfies SuccessEnvelope);
  });

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
          data: await groupService.join(actor.app, guid, actingUid(c), body.password, actor.origin),
        });
      }
      const body = await jsonBody(c, AddMembers);
      return c.json({ data: await groupService.addMembers(actor.app, guid, actor.uid, body, actor.origin) });
    },
  );

  documented(
    routes,
    'delete',
    '/groups/:guid/members',
    { summary: 'Leave a group', only: 'client' },
    async (c) => {
      const guid = pathId(c, 'guid');
      await groupService.leave(c.get('actor').app, guid, actingUid(c), c.get('actor').origin);
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
      const { members, total } = await groups.listMembers(appId, group.guid, {
        scope: query.scope,
        searchKey: query.searchKey,
        page: query.page,
        perPage,
      });
      const people = await users.findMany(
        appId,
        members.map((member) => member.uid),
      );
      const viewer = actor.uid;
      const data = members.flatMap((member) => {
        const user = people.get(member.uid);
        if (user === undefined) return [];
        const entity: GroupMember = {
          ...userFor(actor, user),
          scope: member.scope,
          joinedAt: member.joined_at,
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

  documented(
    routes,
    'delete',
    '/groups/:guid/members/:uid',
    { summary: 'Remove a member (kick)', only: 'server' },
    async (c) => {
      const guid = pathId(c, 'guid');
      const uid = pathId(c, 'uid');
      const actor = c.get('actor');
      await groupService.kick(actor.app, guid, uid, actor.uid, actor.origin);
      return c.json({
        data: {
          success: true,
          message: `The member with ${uid} has been kicked from the Group with ${guid}.`,
        },
      } satisfies SuccessEnvelope);
    },
  );

  return routes;
}
