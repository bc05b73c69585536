export const CONTROL_CONFIG = Symbol('CONTROL_CONFIG');
