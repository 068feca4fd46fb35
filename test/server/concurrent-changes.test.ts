import { describe, expect, it } from 'vitest';
import { APP_ONE, apiFixtures, backendPid, until, useTestServer, waitersOn } from './support.js';

/**
 * Changes that PostgreSQL runs side by side, each met by the test as the concurrent caller: a
 * transaction of its own makes the other change and holds its row until the change under test
 * waits on it (`pg_blocking_pids`), then commits.
 */
describe('changes racing one another on postgres', () => {
  const api = useTestServer('postgres');
  const { createUser } = apiFixtures(api.call);

  it("keeps another update's change of other fields of a user", async () => {
    const uid = await createUser('contested');
    const { db } = api.server.core.store;
    let lockTaken!: (pid: number) => void;
    let release!: () => void;
    const holder = new Promise<number>((resolve) => (lockTaken = resolve));
    const released = new Promise<void>((resolve) => (release = resolve));
    // Another update sets the user's metadata and has not committed yet.
    const otherUpdate = db.transaction().execute(async (trx) => {
      const pid = await backendPid(trx);
      await trx
        .updateTable('users')
        .set({ metadata: JSON.stringify({ team: 'support' }) })
        .where('app_id', '=', APP_ONE.appId)
        .where('uid', '=', uid)
        .execute();
      lockTaken(pid);
      await released;
    });
    const pid = await holder;
    const renaming = api.call('PUT', `/users/${uid}`, { body: { name: 'Renamed' } });
    await until(async () => (await waitersOn(db, pid)) === 1);
    release();
    await otherUpdate;
    expect((await renaming).status).toBe(200);
    const read = await api.call('GET', `/users/${uid}`);
    expect(read.body.data).toMatchObject({ name: 'Renamed', metadata: { team: 'support' } });
  });
});
