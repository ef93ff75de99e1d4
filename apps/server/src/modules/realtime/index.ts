// Realtime (decision 012, 044): the customers' socket.io events and the token that opens one.
export { RealtimeRepository } from './realtime.repository.js';
export { registerRealtime } from './realtime.routes.js';
export { startRealtime } from './realtime.server.js';
