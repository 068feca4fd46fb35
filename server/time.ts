/** CometChat's timestamps are integer epoch seconds. */
export const nowSeconds = (): number => Math.floor(Date.now() / 1000);
