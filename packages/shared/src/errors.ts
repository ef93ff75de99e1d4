import { ADMIN_ERRORS } from './errors/admin.js';
import { AUTH_ERRORS } from './errors/auth.js';
import { CATALOG_ERRORS } from './errors/catalog.js';
import { COMMON_ERRORS } from './errors/common.js';
import { LIVE_DASHBOARD_ERRORS } from './errors/live-dashboard.js';
import { MCP_ERRORS } from './errors/mcp.js';
import { PAYMENT_ERRORS } from './errors/payments.js';
import { SUPPORT_ERRORS } from './errors/support.js';
import { WEBHOOK_ERRORS } from './errors/webhooks.js';

// Error codes the server answers with ({error, code}). The English message is the default (spec §8 wording
// where it exists); clients translate by code through the `errors` locale namespace. Each area keeps its own
// file in errors/ and is joined here.
export const ERRORS = {
  ...COMMON_ERRORS,
  ...LIVE_DASHBOARD_ERRORS,
  ...AUTH_ERRORS,
  ...CATALOG_ERRORS,
  ...PAYMENT_ERRORS,
  ...ADMIN_ERRORS,
  ...WEBHOOK_ERRORS,
  ...MCP_ERRORS,
  ...SUPPORT_ERRORS,
} as const;
export type ErrorCode = keyof typeof ERRORS;
export const isErrorCode = (value: unknown): value is ErrorCode =>
  typeof value === 'string' && Object.hasOwn(ERRORS, value);
