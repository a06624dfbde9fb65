/** Time is injected so token expiry can be tested without waiting. */
export interface Clock {
  now(): Date;
}

export const systemClock: Clock = { now: () => new Date() };

/** Timestamps are stored and sent as ISO-8601 strings (db/database.ts). */
export const isoNow = (clock: Clock) => clock.now().toISOString();

export const isoIn = (clock: Clock, ms: number) => new Date(clock.now().getTime() + ms).toISOString();
