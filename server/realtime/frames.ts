import type { RealtimeFrame } from '../../shared/realtime.js';
import { PRIVATE_METADATA_KEY, presentTo } from '../services/private-metadata.js';

/**
 * A frame as its text: every frame kind leaves through here. Frames reach several sockets, so no
 * user entity in them keeps its private metadata (the user reads their own from `/me`). Most
 * frames name no `@private` at all and are sent as they were serialised.
 */
export function encodeFrame(frame: RealtimeFrame): string {
  const text = JSON.stringify(frame);
  return text.includes(`"${PRIVATE_METADATA_KEY}"`) ? JSON.stringify(presentTo(frame, undefined)) : text;
}

export const AUTH_OK = JSON.stringify({ type: 'auth', body: { code: '200', status: 'OK' } });
export const PONG = JSON.stringify({ action: 'pong' });

/** Frames one socket has sent in the current second. */
export interface FrameBudget {
  second: number;
  spent: number;
}

/**
 * Counts a frame against the socket's budget of `perSecond` and says whether it may pass: each
 * relayed frame fans out (to a whole group for typing), so a flood is cut off, not passed on.
 */
export function spendFrame(budget: FrameBudget, nowMs: number, perSecond: number): boolean {
  const second = Math.floor(nowMs / 1000);
  if (budget.second !== second) {
    budget.second = second;
    budget.spent = 0;
  }
  budget.spent += 1;
  return budget.spent <= perSecond;
}
