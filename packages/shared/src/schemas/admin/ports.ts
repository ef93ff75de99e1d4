import * as z from 'zod/mini';
import { reasonSchema } from './common.js';
import { adminPortSchema } from './customers.js';

// Operator console, Ports. Conventions and building blocks: common.ts.

// ---- ports: POST /admin/ports/:id/suspend and /resume (abuse handling) --------------------------------------------

/**
 * Suspend: the port refuses connections (its open tunnels close) until resumed; expiry and renewals go on as before.
 * Suspending a suspended port or resuming one that is not answers 409 (PORT_ALREADY_SUSPENDED, PORT_NOT_SUSPENDED);
 * a released port cannot be suspended (PORT_RELEASED). The optional reason goes to the audit log.
 */
export const portActionRequestSchema = z.optional(z.nullable(z.object({ reason: z.optional(reasonSchema) })));
export const portActionResponseSchema = z.object({ port: adminPortSchema });
export type PortActionRequest = z.input<typeof portActionRequestSchema>;
export type PortActionResponse = z.infer<typeof portActionResponseSchema>;
