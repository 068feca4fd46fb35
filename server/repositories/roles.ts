import type { Kysely } from 'kysely';
import {
  BUILT_IN_ROLES,
  type CreateRoleRequest,
  type Role,
  type UpdateRoleRequest,
} from '../../shared/roles.js';
import type { StorageEngine } from '../db/database.js';
import type { ChatDatabase, RoleTable } from '../db/schema.js';
import { ChatError } from '../errors.js';
import { nowSeconds } from '../time.js';
import { parseJsonColumn } from './json-column.js';

/** Role ids are compared as given, like the `role` users carry. */
export const roleNotFound = (role: string): ChatError =>
  new ChatError(404, 'ERR_ROLE_NOT_FOUND', `The role ${role} does not exist.`, { role });

const roleOf = (row: RoleTable): Role => ({
  role: row.role,
  name: row.name,
  ...(row.description === null ? {} : { description: row.description }),
  ...(row.metadata === null ? {} : { metadata: parseJsonColumn<Record<string, unknown>>(row.metadata) }),
  ...(row.settings === null ? {} : { settings: parseJsonColumn<Role['settings']>(row.settings) }),
  createdAt: Number(row.created_at),
  ...(row.updated_at === null ? {} : { updatedAt: Number(row.updated_at) }),
});

const jsonOrNull = (value: unknown): string | null => (value === undefined ? null : JSON.stringify(value));

/**
 * The app's roles. A user's role must be one of them; a role some user has cannot be deleted, nor
 * can a built-in one (`BUILT_IN_ROLES`: `default`, `@agentic`, `agent`).
 */
export class RoleRepository {
  constructor(
    private readonly db: Kysely<ChatDatabase>,
    private readonly engine: StorageEngine,
  ) {}

  async list(appId: string, page: number, perPage: number): Promise<{ rows: Role[]; total: number }> {
    const [rows, counted] = await Promise.all([
      this.db
        .selectFrom('roles')
        .selectAll()
        .where('app_id', '=', appId)
        .orderBy('created_at')
        .orderBy('role')
        .limit(perPage)
        .offset((page - 1) * perPage)
        .execute(),
      this.db
        .selectFrom('roles')
        .select((eb) => eb.fn.countAll<string>().as('total'))
        .where('app_id', '=', appId)
        .executeTakeFirstOrThrow(),
    ]);
    return { rows: rows.map(roleOf), total: Number(counted.total) };
  }

  async get(appId: string, role: string): Promise<Role> {
    return roleOf(await this.row(this.db, appId, role));
  }

  /**
   * Refuses a user's `role` that names no role of the app (400 naming `role`). Inside the caller's
   * transaction `db`, the role's row stays share-locked until it ends (PostgreSQL; SQLite's write
   * transactions are serialized), so a delete of the role waits and then sees the user given it.
   */
  async requireExisting(
    appId: string,
    role: string | undefined,
    db: Kysely<ChatDatabase> = this.db,
  ): Promise<void> {
    if (role === undefined) return;
    const query = db.selectFrom('roles').select('role').where('app_id', '=', appId).where('role', '=', role);
    const row = await (this.engine === 'postgres' ? query.forShare() : query).executeTakeFirst();
    if (row === undefined) {
      throw new ChatError(400, 'ERR_ROLE_NOT_FOUND', `role: the role ${role} does not exist.`, {
        field: 'role',
        role,
      });
    }
  }

  async create(appId: string, request: CreateRoleRequest): Promise<Role> {
    const row: RoleTable = {
      app_id: appId,
      role: request.role,
      name: request.name,
      description: request.description ?? null,
      metadata: jsonOrNull(request.metadata),
      settings: jsonOrNull(request.settings),
      created_at: nowSeconds(),
      updated_at: null,
    };
    const inserted = await this.db
      .insertInto('roles')
      .values(row)
      .onConflict((oc) => oc.columns(['app_id', 'role']).doNothing())
      .executeTakeFirst();
    if (Number(inserted.numInsertedOrUpdatedRows ?? 0) === 0) {
      throw new ChatError(409, 'ERR_ROLE_ALREADY_EXISTS', `The role ${row.role} already exists.`, {
        role: row.role,
      });
    }
    return roleOf(row);
  }

  /**
   * Writes only the fields the request names, in one statement: two updates of different fields
   * at once both hold (a read, change and write of the whole row would put one's fields back).
   */
  async update(appId: string, role: string, changes: UpdateRoleRequest): Promise<Role> {
    const unset = new Set(changes.unset ?? []);
    const field = (name: 'description' | 'metadata' | 'settings', value: string | null) =>
      unset.has(name) ? { [name]: null } : value === null ? {} : { [name]: value };
    const row = await this.db
      .updateTable('roles')
      .set({
        ...(changes.name === undefined ? {} : { name: changes.name }),
        ...field('description', changes.description ?? null),
        ...field('metadata', jsonOrNull(changes.metadata)),
        ...field('settings', jsonOrNull(changes.settings)),
        updated_at: nowSeconds(),
      })
      .where('app_id', '=', appId)
      .where('role', '=', role)
      .returningAll()
      .executeTakeFirst();
    if (row === undefined) throw roleNotFound(role);
    return roleOf(row);
  }

  /**
   * Deletes a role no user has. The role's row is locked first (PostgreSQL; SQLite's write
   * transactions are serialized), so a user given the role meanwhile is seen.
   */
  async delete(appId: string, role: string): Promise<void> {
    const builtIn = BUILT_IN_ROLES.find((candidate) => candidate.role === role);
    if (builtIn !== undefined) throw roleDeleteDenied(role, builtIn.why);
    await this.db.transaction().execute(async (trx) => {
      await this.row(trx, appId, role, { lock: true });
      const inUse = await trx
        .selectFrom('users')
        .select('uid')
        .where('app_id', '=', appId)
        .where('role', '=', role)
        .limit(1)
        .executeTakeFirst();
      if (inUse !== undefined) throw roleDeleteDenied(role, 'users have it: give them another role first');
      await trx.deleteFrom('roles').where('app_id', '=', appId).where('role', '=', role).execute();
    });
  }

  private async row(
    db: Kysely<ChatDatabase>,
    appId: string,
    role: string,
    options: { lock?: boolean } = {},
  ): Promise<RoleTable> {
    const query = db.selectFrom('roles').selectAll().where('app_id', '=', appId).where('role', '=', role);
    const row = await (
      options.lock === true && this.engine === 'postgres' ? query.forUpdate() : query
    ).executeTakeFirst();
    if (row === undefined) throw roleNotFound(role);
    return row;
  }
}

const roleDeleteDenied = (role: string, why: string): ChatError =>
  new ChatError(403, 'ERR_ROLE_DELETE_DENIED', `The role ${role} cannot be deleted: ${why}.`, { role });
