import type { Kysely, Migration } from 'kysely';
import { SecretKeyMismatch, type SecretBox } from '../secret-box.js';

/**
 * The store remembers which key seals its secrets: the first process to start seals a canary with
 * its key, and every later start opens it first. A process started with another key (a different
 * `PARLEY_SECRET_KEY`, or a data dir with its own `secret.key`) is refused at once, before it serves
 * anything, whether or not any secret has been stored yet — not at its first delivery.
 */

const CANARY = 'secret-key-canary';
const CONTEXT = 'secret_key_canary/store';

interface CanaryDb {
  secret_key_canary: { name: string; sealed: string; created_at: number };
}

export const secretKeyCanaryMigration: Migration = {
  async up(db: Kysely<unknown>): Promise<void> {
    await db.schema
      .createTable('secret_key_canary')
      .addColumn('name', 'text', (c) => c.primaryKey())
      .addColumn('sealed', 'text', (c) => c.notNull())
      .addColumn('created_at', 'bigint', (c) => c.notNull())
      .execute();
  },
  async down(db: Kysely<unknown>): Promise<void> {
    await db.schema.dropTable('secret_key_canary').execute();
  },
};

/**
 * Seals the canary when the store has none (of processes starting together, one writes and all
 * check that one), then opens it; throws `SecretKeyMismatch` naming where the key came from.
 */
export async function checkSecretKey<DB>(
  db: Kysely<DB>,
  secrets: SecretBox,
  now = Date.now(),
): Promise<void> {
  const canaries = db as unknown as Kysely<CanaryDb>;
  await canaries
    .insertInto('secret_key_canary')
    .values({ name: CANARY, sealed: secrets.seal(CANARY, CONTEXT), created_at: now })
    .onConflict((oc) => oc.column('name').doNothing())
    .execute();
  const { sealed } = await canaries
    .selectFrom('secret_key_canary')
    .select('sealed')
    .where('name', '=', CANARY)
    .executeTakeFirstOrThrow();
  let opened: string | undefined;
  try {
    opened = secrets.open(sealed, CONTEXT);
  } catch {
    opened = undefined;
  }
  if (opened !== CANARY)
    throw new SecretKeyMismatch(
      `this store's secrets were sealed with another key than the one from ${secrets.source}: start ` +
        'every process of a deployment with the same key (PARLEY_SECRET_KEY, or the secret.key of the ' +
        'data dir the store was first started with); a process with another key would fail every delivery',
    );
}
