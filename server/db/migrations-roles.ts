import { sql, type Kysely, type Migration } from 'kysely';

/**
 * The app's roles. Every app has `default`; users stored before roles existed keep theirs, each
 * becoming a role of its app (named after itself), so no user is left with a role that is not one.
 */
export const rolesMigration: Migration = {
  async up(db: Kysely<unknown>): Promise<void> {
    await db.schema
      .createTable('roles')
      .addColumn('app_id', 'text', (c) => c.notNull().references('apps.app_id').onDelete('cascade'))
      .addColumn('role', 'text', (c) => c.notNull())
      .addColumn('name', 'text', (c) => c.notNull())
      .addColumn('description', 'text')
      .addColumn('metadata', 'text')
      .addColumn('settings', 'text')
      .addColumn('created_at', 'bigint', (c) => c.notNull())
      .addColumn('updated_at', 'bigint')
      .addPrimaryKeyConstraint('roles_pk', ['app_id', 'role'])
      .execute();
    await sql`
      insert into roles (app_id, role, name, created_at)
      select app_id, 'default', 'Default role', created_at from apps
      union
      select users.app_id, users.role, users.role, min(users.created_at)
        from users join apps on apps.app_id = users.app_id
        where users.role <> 'default'
        group by users.app_id, users.role
    `.execute(db);
  },
};
