import type { BrowserContext } from 'playwright-core';
import { launchChromium } from '../support/browser.js';
import { PageSdkUser, startSdkPageServer } from './sdk/browser.js';
import { describeSdkContract } from './sdk/contract.js';
import type { SdkUser } from './sdk/drivers.js';
import { startContractServer } from './sdk/fixtures.js';

describeSdkContract('headless Chromium', async () => {
  const server = await startContractServer();
  const page = await startSdkPageServer();
  const browser = await launchChromium({ ignoreCertificateErrors: true, resolveAllHostsToLoopback: true });
  const profiles = new Map<string, BrowserContext>();
  const users: SdkUser[] = [];
  return {
    server,
    user: async (storage) => {
      let profile = profiles.get(storage);
      if (profile === undefined) profiles.set(storage, (profile = await browser.newContext()));
      const user = await PageSdkUser.open(profile, page.url);
      users.push(user);
      return user;
    },
    close: async () => {
      for (const user of users) await user.close();
      await browser.close();
      await page.close();
      await server.close();
    },
  };
});
