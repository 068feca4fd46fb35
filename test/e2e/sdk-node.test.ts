import { join } from 'node:path';
import { describeSdkContract } from './sdk/contract.js';
import { NodeSdkUser, type SdkUser } from './sdk/drivers.js';
import { startContractServer } from './sdk/fixtures.js';

describeSdkContract('Node (browser shims)', async () => {
  const server = await startContractServer();
  const caFile = server.server.tls?.certPath ?? '';
  const users: SdkUser[] = [];
  return {
    server,
    user: async (storage) => {
      const user = await NodeSdkUser.start({
        caFile,
        storageFile: join(server.dataDir, `${storage}.storage.json`),
      });
      users.push(user);
      return user;
    },
    close: async () => {
      await Promise.all(users.map((user) => user.close()));
      await server.close();
    },
  };
});
