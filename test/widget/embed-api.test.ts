import { afterEach, describe, expect, it } from 'vitest';
import { ParleyWidget } from '../../widget/index.js';

afterEach(() => ParleyWidget.logout());

describe('the embed API', () => {
  it('needs an app id and region, and says which is missing', async () => {
    await expect(ParleyWidget.init({ appID: '', appRegion: 'eu' })).rejects.toThrow(
      'ParleyWidget: appID is required',
    );
    await expect(ParleyWidget.init({ appID: 'app', appRegion: '' })).rejects.toThrow(
      'ParleyWidget: appRegion is required',
    );
  });

  it('refuses a plain-http host other than localhost', async () => {
    await expect(
      ParleyWidget.init({ appID: 'app', appRegion: 'eu', host: 'http://chat.example.com' }),
    ).rejects.toThrow('must use https');
  });

  it('asks for init before login', async () => {
    await expect(ParleyWidget.login({ uid: 'alice' })).rejects.toThrow(
      'ParleyWidget.init({appID, appRegion, authKey}) must be called first',
    );
  });

  it('refuses a size that is not a CSS length, naming the option', async () => {
    await ParleyWidget.init({ appID: 'app', appRegion: 'eu', host: 'http://localhost:1' });
    await expect(ParleyWidget.launch({ width: 'wide' })).rejects.toThrow(
      'ParleyWidget.launch: width "wide" is not a CSS length',
    );
  });

  it('refuses to open a conversation without an id', async () => {
    await ParleyWidget.init({ appID: 'app', appRegion: 'eu', host: 'http://localhost:1' });
    await expect(ParleyWidget.chatWithUser('')).rejects.toThrow('ParleyWidget: uid is required');
  });
});
