/** Reported in every heartbeat and shown on the console's hosts page. */
export const AGENT_VERSION = '0.1.0';
