import { z } from 'zod';

/**
 * Pieces of the environment schemas the server (apps/server/src/config.ts), the agent and the gateway share, so a
 * setting written the same way means the same thing to each process.
 */

/** true/false, 1/0, yes/no; empty is false. */
export const envBool = z.enum(['true', 'false', '1', '0', 'yes', 'no', '']).transform((v) => v === 'true' || v === '1' || v === 'yes');

/** A TCP port; empty counts as unset, so a compose file can pass `${SOME_PORT:-}` through. */
export const envOptionalPort = z.literal('').transform(() => undefined).or(z.coerce.number().int().min(1).max(65535)).optional();

/** METRICS_TOKEN: unset or empty means /metrics answers 404; otherwise at least 16 characters. */
export const envMetricsToken = z.literal('').transform(() => undefined).or(z.string().min(16, 'must be at least 16 characters')).optional();

/** A comma-separated list, each item trimmed, empty items dropped. */
export const envList = z.string().default('').transform((v) => v.split(',').map((item) => item.trim()).filter(Boolean));

/** "  NAME: what is wrong" lines, one per issue: the form every process prints before refusing to start. */
export function settingProblems(error: z.ZodError): string {
  return error.issues.map((issue) => `  ${issue.path.join('.')}: ${issue.message}`).join('\n');
}

/**
 * Parses `env` with `schema`, or throws `makeError` with `heading` and one line per wrong setting, so the process
 * stops before it serves anything.
 */
export function parseEnv<S extends z.ZodType>(schema: S, env: NodeJS.ProcessEnv, heading: string, makeError: (message: string) => Error): z.infer<S> {
  const parsed = schema.safeParse(env);
  if (parsed.success) return parsed.data;
  throw makeError(`${heading}\n${settingProblems(parsed.error)}`);
}
