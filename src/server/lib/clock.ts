/** Time is injected so token expiry can be tested without waiting. */
export interface Clock {
  now(): Date;
}

export const systemClock: Clock = { now: () => new Date() };

export const isoIn = (clock: Clock, ms: number) => new Date(clock.now().getTime() + ms).toISOString();
