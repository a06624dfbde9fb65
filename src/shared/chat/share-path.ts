/** Where a snapshot link opens in the app. */
export const sharePath = (token: string) => `/s/${token}`;
