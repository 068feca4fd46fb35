// The one-file script build: `window.ParleyWidget` with init/login/launch/…, and `<parley-chat>` defined.
import { defineElements } from './define.js';
import { ParleyWidget } from './embed.js';

defineElements();

export const { init, login, launch, logout, chatWithUser, chatWithGroup, on } = ParleyWidget;
