/** Injection tokens for the values that are not classes. */
export const LOGGER = Symbol('LOGGER');
export const APP_CONFIG = Symbol('APP_CONFIG');
export const REDIS = Symbol('REDIS');
export const DATABASE = Symbol('DATABASE');
/** The current time ({@link Clock}); a `SystemClock` unless a test hands the platform its own. */
export const CLOCK = Symbol('CLOCK');
