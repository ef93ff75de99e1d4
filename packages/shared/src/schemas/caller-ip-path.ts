// Where GET /api/v1/ip answers (caller-ip.ts): the export's curl lines on Your Proxies need only the path, not the
// response schema and zod (issue 31, item 4).

export const CALLER_IP_PATH = '/api/v1/ip';
