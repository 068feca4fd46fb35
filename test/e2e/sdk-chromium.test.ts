import { describeSdkContract } from './sdk/contract.js';

describeSdkContract('Chromium');
