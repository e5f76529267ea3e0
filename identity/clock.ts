/**
 * Time as a dependency: code expiry, resend waits and PIN lockouts read the clock through
 * this port so tests can move time instead of sleeping.
 */
export interface Clock {
  now(): Date;
}

export const systemClock: Clock = { now: () => new Date() };
