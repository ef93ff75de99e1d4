export * from './constants.js';
export * from './errors.js';
export * from './schemas/auth.js';
