import { isDeepStrictEqual } from 'node:util';
import fastJsonStringify from 'fast-json-stringify';
import { serializerCompiler as zodSerializerCompiler } from 'fastify-type-provider-zod';
import { $ZodType, toJSONSchema } from 'zod/v4/core';

type CompilerInput = Parameters<typeof zodSerializerCompiler>[0];
type Serialize = (data: unknown) => string;

/**
 * Responses written by a serializer compiled from each route's response schema (fast-json-stringify, the serializer
 * Fastify itself uses for JSON schemas), not by zod parsing every answer before JSON.stringify: zod's pass was a tenth
 * of a purchase's server CPU and more of a port listing's (issue 31). What made zod's pass worth having is kept: only
 * the fields a schema declares are written, so a row's other columns never reach a customer.
 * A schema that JSON Schema cannot express exactly (a transform, a date, a default the writer would fill in) keeps
 * zod's serializer. With `check` (tests), every answer is also serialized by zod and the two must be the same JSON
 * (an object's keys may come in another order): the test suite proves the fast writer says what zod would have said,
 * or fails.
 */
export function createResponseSerializerCompiler({ check }: { check: boolean }) {
  return (input: CompilerInput): Serialize => {
    const fast = fastSerializer(input.schema);
    if (fast && !check) return fast;
    const viaZod = zodSerializerCompiler(input) as Serialize;
    if (!fast) return viaZod;
    return (data) => {
      const expected = viaZod(data);
      const written = fast(data);
      // The same JSON, in whatever order the two put an object's keys (arrays keep theirs).
      if (!isDeepStrictEqual(JSON.parse(written), JSON.parse(expected))) {
        throw new Error(`${input.method} ${input.url}: the compiled serializer wrote ${written.slice(0, 500)} where zod wrote ${expected.slice(0, 500)}`);
      }
      return written;
    };
  };
}

function fastSerializer(schema: unknown): Serialize | null {
  const zod = schema instanceof $ZodType ? schema
    : schema && typeof schema === 'object' && 'properties' in schema && schema.properties instanceof $ZodType ? schema.properties : null;
  if (!zod) return null;
  let json: Record<string, unknown>;
  try {
    json = toJSONSchema(zod, { io: 'output', unrepresentable: 'throw', target: 'draft-07' }) as Record<string, unknown>;
  } catch {
    return null;
  }
  if (hasKey(json, 'default')) return null;
  return fastJsonStringify(json) as Serialize;
}

/** Whether `key` appears anywhere in the JSON schema (fast-json-stringify writes a missing field's default). */
function hasKey(value: unknown, key: string): boolean {
  if (Array.isArray(value)) return value.some((v) => hasKey(v, key));
  if (value && typeof value === 'object') return Object.entries(value).some(([k, v]) => k === key || hasKey(v, key));
  return false;
}
