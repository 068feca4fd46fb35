import { Hono } from 'hono';
import { z } from 'zod';
import { conversationIdFor } from '../../../shared/message.js';
import { notAMember } from '../../errors.js';
import { jsonBody, pathId, queryOf } from '../../http/request.js';
import { toGroupEntity } from '../../repositories/groups.js';
import { DisplayName, EntityId, pagination } from '../../validation.js';
import { clientUser } from '../app-settings.js';
import type { ClientEnv } from '../context.js';
import type { ClientApiDeps } from '../deps.js';
import { CommaList, Flag, PageQuery } from '../query.js';

const UsersQuery = PageQuery.extend({
  searchKey: z.string().max(100, 'must be at most 100 characters').optional(),
  status: z.enum(['available', 'offline', 'online']).optional(),
  roles: CommaList.optional(),
});

const GroupsQuery = PageQuery.extend({
  searchKey: z.string().max(100, 'must be at most 100 characters').optional(),
  hasJoined: Flag.optional(),
});

/** `joinGroup` sends a Group object; only the password matters. */
const JoinRequest = z.looseObject({ password: z.string().max(100).optional() });

/** `createGroup` sends a Group object; the caller becomes its owner. */
const CreateGroupRequest = z.looseObject({
  guid: EntityId,
  name: DisplayName,
  type: z.enum(['public', 'private', 'password'], { error: 'must be public, private or password' }),
  password: z.string().min(1).max(100).optional(),
  description: z.string().max(255).optional(),
  icon: z.string().max(3000).optional(),
});

/** Users and groups as the logged-in user sees them; joining, leaving and creating groups. */
export function peopleRoutes(deps: ClientApiDeps): Hono<ClientEnv> {
  const { users, groups, groupService } = deps.services;
  const routes = new Hono<ClientEnv>();

  routes.get('/users', async (c) => {
    const { uid } = c.get('session');
    const query = queryOf(c, UsersQuery);
    const status = query.status === 'online' ? 'available' : query.status;
    const { users: rows, total } = await users.list(c.get('app').appId, {
      searchKey: query.searchKey,
      status,
      roles: query.roles,
      page: query.page,
      perPage: query.per_page,
    });
    const data = rows.map((row) => ({
      ...clientUser(row),
      ...(row.uid === uid
        ? {}
        : { conversationId: conversationIdFor({ receiverType: 'user', sender: uid, receiver: row.uid }) }),
    }));
    return c.json({ data, meta: { pagination: pagination(total, rows.length, query.per_page, query.page) } });
  });

  routes.get('/users/:uid', async (c) => {
    const row = await users.get(c.get('app').appId, pathId(c, 'uid'));
    return c.json({ data: clientUser(row) });
  });

  routes.get('/groups', async (c) => {
    const appId = c.get('app').appId;
    const { uid } = c.get('session');
    const query = queryOf(c, GroupsQuery);
    const { groups: rows, total } = await groups.list(appId, {
      searchKey: query.searchKey,
      joinedBy: query.hasJoined === true ? uid : undefined,
      visibleTo: uid,
      page: query.page,
      perPage: query.per_page,
    });
    const guids = rows.map((row) => row.guid);
    const [counts, memberships] = await Promise.all([
      groups.memberCounts(appId, guids),
      groups.membershipsOf(appId, uid, guids),
    ]);
    const data = rows.map((row) => ({
      ...toGroupEntity(row, counts.get(row.guid) ?? 0, memberships.get(row.guid)),
      hasJoined: memberships.has(row.guid),
    }));
    return c.json({ data, meta: { pagination: pagination(total, rows.length, query.per_page, query.page) } });
  });

  routes.post('/groups', async (c) => {
    const app = c.get('app');
    const body = await jsonBody(c, CreateGroupRequest);
    const group = await groupService.create(app, body, c.get('session').uid, {}, c.get('origin'));
    return c.json({ data: group });
  });

  routes.get('/groups/:guid', async (c) => {
    const appId = c.get('app').appId;
    const { uid } = c.get('session');
    const { group } = await groupService.visibleTo(appId, pathId(c, 'guid'), uid);
    const entity = await groupService.view(appId, group, uid);
    return c.json({ data: { ...entity, hasJoined: entity.hasJoined === true } });
  });

  routes.post('/groups/:guid/members', async (c) => {
    const body = await jsonBody(c, JoinRequest);
    const action = await groupService.join(
      c.get('app'),
      pathId(c, 'guid'),
      c.get('session').uid,
      body.password,
      c.get('origin'),
    );
    return c.json({ data: action });
  });

  routes.delete('/groups/:guid/members', async (c) => {
    const guid = pathId(c, 'guid');
    await groupService.leave(c.get('app'), guid, c.get('session').uid, c.get('origin'));
    return c.json({ data: { success: true, message: `Left the group ${guid}.` } });
  });

  /** Anyone may see who is in a public group; private and password groups show only their members. */
  routes.get('/groups/:guid/members', async (c) => {
    const appId = c.get('app').appId;
    const { uid } = c.get('session');
    const { group, member } = await groupService.visibleTo(appId, pathId(c, 'guid'), uid);
    if (group.type !== 'public' && member === undefined) throw notAMember(uid, group.guid);
    const query = queryOf(c, PageQuery);
    const { members, total } = await groups.listMembers(appId, group.guid, {
      page: query.page,
      perPage: query.per_page,
    });
    const people = await users.findMany(
      appId,
      members.map((member) => member.uid),
    );
    const data = members.flatMap((member) => {
      const user = people.get(member.uid);
      return user === undefined
        ? []
        : [{ ...clientUser(user), scope: member.scope, joinedAt: member.joined_at }];
    });
    return c.json({ data, meta: { pagination: pagination(total, data.length, query.per_page, query.page) } });
  });

  return routes;
}
