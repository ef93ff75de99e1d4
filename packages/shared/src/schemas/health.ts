import * as z from 'zod/mini';

// Liveness and readiness probes, outside /api.

/** GET /healthz: the process answers. */
export const livenessResponseSchema = z.object({ status: z.literal('ok') });
/** GET /readyz: 200 'ready', or 503 when the database does not answer. */
export const readinessResponseSchema = z.object({ status: z.string() });
