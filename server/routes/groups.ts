import { Hono } from 'hono';
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
import { badRequest } from '../errors.js';
import type { ChatEnv } from '../http/context.js';
import { jsonBody, onBehalfOf, originOf, pathId, queryOf } from '../http/request.js';
import { toGroupEntity } from '../repositories/groups.js';
import { toUserEntity } from '../repositories/users.js';
import type { ChatServices } from '../services/registry.js';
import { EntityId, GroupId, PageNumber, PageSize, QueryBoolean, pagination } from '../validation.js';

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
const UpdateGroup = UpdateGroupRequest.extend({ owner: EntityId.optional() });
const AddMembers = AddMembersRequest.safeExtend(lowerCasedMembers);

const ListGroups = z.looseObject({
  searchKey: SearchKey.optional(),
  type: GroupType.optional(),
  hasJoined: QueryBoolean.optional(),
  withTags: QueryBoolean.optional(),
  page: PageNumber.default(1),
  perPage: PageSize.default(100),
});

const ListMembers = z.looseObject({
  scope: MemberScope.optional(),
  page: PageNumber.default(1),
  perPage: PageSize.default(100),
});

/** Groups (`/groups`) and their members (`/groups/{guid}/members`). */
export function groupRoutes(services: ChatServices): Hono<ChatEnv> {
  const { groups, groupService, users } = services;
  const routes = new Hono<ChatEnv>();

  routes.post('/groups', async (c) => {
    const { members, ...group } = await jsonBody(c, CreateGroup);
    const entity = await groupService.create(c.get('app'), group, onBehalfOf(c), members ?? {}, originOf(c));
    return c.json({ data: entity });
  });

  routes.get('/groups', async (c) => {
    const appId = c.get('app').appId;
    const query = queryOf(c, ListGroups);
    const uid = onBehalfOf(c);
    if (query.hasJoined === true && uid === undefined)
      throw badRequest('hasJoined', 'works only with the onBehalfOf header');
    const { groups: rows, total } = await groups.list(appId, {
      ...query,
      joinedBy: query.hasJoined === true ? uid : undefined,
    });
    const guids = rows.map((row) => row.guid);
    const [counts, memberships] = await Promise.all([
      groups.memberCounts(appId, guids),
      uid === undefined ? new Map() : groups.membershipsOf(appId, uid, guids),
    ]);
    return c.json({
      data: rows.map((row) =>
        toGroupEntity(row, counts.get(row.guid) ?? 0, memberships.get(row.guid), {
          withTags: query.withTags === true,
        }),
      ),
      meta: { pagination: pagination(total, rows.length, query.perPage, query.page) },
    });
  });

  routes.get('/groups/:guid', async (c) => {
    const appId = c.get('app').appId;
    const group = await groups.get(appId, pathId(c, 'guid'));
    return c.json({ data: await groupService.view(appId, group, onBehalfOf(c)) });
  });

  routes.put('/groups/:guid', async (c) => {
    const appId = c.get('app').appId;
    const guid = pathId(c, 'guid');
    const body = await jsonBody(c, UpdateGroup);
    const actor = onBehalfOf(c);
    // CometChat ignores `owner` when onBehalfOf is present; a new owner must exist.
    const owner =
      actor === undefined && body.owner !== undefined ? (await users.get(appId, body.owner)).uid : undefined;
    if (actor !== undefined) await users.get(appId, actor);
    const group = await groups.update(appId, guid, { ...body, owner, updatedBy: actor });
    return c.json({ data: await groupService.view(appId, group, actor) });
  });

  routes.delete('/groups/:guid', async (c) => {
    const guid = pathId(c, 'guid');
    await groups.delete(c.get('app').appId, guid);
    return c.json({
      data: { success: true, message: `Group with guid ${guid} has been deleted successfully.` },
    } satisfies SuccessEnvelope);
  });

  routes.post('/groups/:guid/members', async (c) => {
    const body = await jsonBody(c, AddMembers);
    const report = await groupService.addMembers(
      c.get('app'),
      pathId(c, 'guid'),
      onBehalfOf(c),
      body,
      originOf(c),
    );
    return c.json({ data: report });
  });

  routes.get('/groups/:guid/members', async (c) => {
    const appId = c.get('app').appId;
    const group = await groups.get(appId, pathId(c, 'guid'));
    const query = queryOf(c, ListMembers);
    const { members, total } = await groups.listMembers(appId, group.guid, query);
    const people = await users.findMany(
      appId,
      members.map((member) => member.uid),
    );
    const viewer = onBehalfOf(c);
    const data = members.flatMap((member) => {
      const user = people.get(member.uid);
      if (user === undefined) return [];
      const entity: GroupMember = { ...toUserEntity(user), scope: member.scope, joinedAt: member.joined_at };
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
    return c.json({ data, meta: { pagination: pagination(total, data.length, query.perPage, query.page) } });
  });

  routes.delete('/groups/:guid/members/:uid', async (c) => {
    const guid = pathId(c, 'guid');
    const uid = pathId(c, 'uid');
    await groupService.kick(c.get('app'), guid, uid, onBehalfOf(c), originOf(c));
    return c.json({
      data: { success: true, message: `The member with ${uid} has been kicked from the Group with ${guid}.` },
    } satisfies SuccessEnvelope);
  });

  return routes;
}
